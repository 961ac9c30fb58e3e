#include "launch/agent_control.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include "base/json.h"
#include "base/timestamp.h"
#include "child.h"
#include "fixtures.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::spawn_group_leader;
using fleet::test::TempDir;

namespace {

LaunchRecord record_for(pid_t pid) {
  return {"m", identify_process(pid).value(), pid, "", utc_timestamp_now(), {"agent"}};
}

bool reaped_by_signal(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) == pid && WIFSIGNALED(status);
}

}  // namespace

TEST_CASE("agent_control: the recorded agent is stopped and the record removed") {
  TempDir tmp;
  const LaunchRegistry registry(tmp.path(), "m");
  const pid_t pid = spawn_group_leader();
  registry.write(record_for(pid));
  const AgentStop stop = stop_recorded_agent(registry, std::chrono::seconds(5));
  CHECK(stop.outcome == AgentStop::Outcome::stopped);
  CHECK(stop.pid == pid);
  CHECK(reaped_by_signal(pid));
  CHECK(registry.read().status == RegistryRead::Status::missing);
}

TEST_CASE("agent_control: a reused pid is never signalled") {
  TempDir tmp;
  const LaunchRegistry registry(tmp.path(), "m");
  const pid_t pid = spawn_group_leader();
  LaunchRecord record = record_for(pid);
  record.process.starttime_ticks -= 1;  // another process once had this pid
  registry.write(record);
  const AgentStop stop = stop_recorded_agent(registry, std::chrono::seconds(5));
  CHECK(stop.outcome == AgentStop::Outcome::pid_reused);
  CHECK(::kill(pid, 0) == 0);  // still alive
  CHECK(registry.read().status == RegistryRead::Status::missing);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

TEST_CASE("agent_control: an exited agent - a corrupt record - no record") {
  TempDir tmp;
  const LaunchRegistry registry(tmp.path(), "m");
  CHECK(stop_recorded_agent(registry, std::chrono::seconds(1)).outcome ==
        AgentStop::Outcome::no_record);

  const pid_t pid = spawn_group_leader();
  registry.write(record_for(pid));
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  CHECK(stop_recorded_agent(registry, std::chrono::seconds(1)).outcome ==
        AgentStop::Outcome::not_running);

  fleet::test::write_file(registry.record_path(), "{broken");
  const AgentStop corrupt = stop_recorded_agent(registry, std::chrono::seconds(1));
  CHECK(corrupt.outcome == AgentStop::Outcome::corrupt);
  CHECK(corrupt.message.find("without signalling") != std::string::npos);
  CHECK(registry.read().status == RegistryRead::Status::missing);
}

TEST_CASE("agent_control: status") {
  TempDir tmp;
  const LaunchRegistry registry(tmp.path(), "m");
  rapidjson::Document doc = fleet::test::json_document(member_status(registry).json);
  CHECK(member_status(registry).state == MemberState::no_record);
  CHECK(std::string(doc["state"].GetString()) == "no_record");

  const pid_t pid = spawn_group_leader();
  registry.write(record_for(pid));
  doc = fleet::test::json_document(member_status(registry).json);
  CHECK(member_status(registry).state == MemberState::alive);
  CHECK(std::string(doc["state"].GetString()) == "alive");
  CHECK(doc["record"]["pid"].GetInt() == pid);
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  doc = fleet::test::json_document(member_status(registry).json);
  CHECK(member_status(registry).state == MemberState::exited);
  CHECK(std::string(doc["state"].GetString()) == "exited");
}
