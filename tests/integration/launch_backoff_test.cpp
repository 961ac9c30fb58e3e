// launch-wrapper between two attempts: during the backoff before a retry the member's record
// still names the failed attempt, so a newer launch of the member, or `launch-wrapper stop`,
// supersedes the waiting wrapper instead of being stopped by its retry.

#include <doctest/doctest.h>
#include <unistd.h>
#include <csignal>

#include "base/json.h"
#include "fixtures.h"
#include "launch/registry.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::BackgroundProcess;
using fleet::test::run_process;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_script;
using Args = std::vector<std::string>;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;

// Starts a wrapper for `member` that fails retryably and waits until it is in its backoff.
void start_in_backoff(BackgroundProcess& w) {
  for (int i = 0; i < 1000 && w.result().err.find("retrying in") == std::string::npos; ++i) {
    w.wait_for_output("never printed", 20);
  }
  REQUIRE_MESSAGE(w.result().err.find("retrying in") != std::string::npos, w.result().err);
}

Args failing_launch(const TempDir& tmp) {
  const std::string failing = write_script(tmp / "failing", "echo 'API Error: 529' >&2; exit 1\n");
  return {kWrapper, "--member",  "m1", "--state-dir", tmp.path(), "--retries",
          "1",      "--backoff", "3",  "--",          failing};
}

rapidjson::Document last_line_json(const std::string& err) {
  const auto lines = split_lines(err);
  REQUIRE_FALSE(lines.empty());
  rapidjson::Document doc = fleet::test::json_document(lines.back());
  REQUIRE(doc.IsObject());
  return doc;
}

int announce_count(const std::string& out) {
  int count = 0;
  for (const auto& line : split_lines(out)) count += line.starts_with("FLEET_PID:") ? 1 : 0;
  return count;
}

}  // namespace

TEST_CASE("backoff: a newer launch of the member is never stopped by an older one's retry") {
  TempDir tmp;
  BackgroundProcess older(failing_launch(tmp));
  start_in_backoff(older);
  BackgroundProcess newer({kWrapper, "--member", "m1", "--state-dir", tmp.path(), "--quiet", "--",
                           "/bin/sh", "-c", "echo newer-runs; exec sleep 60"});
  REQUIRE(newer.wait_for_output("newer-runs"));
  REQUIRE(older.wait(20000));
  // The older launch gave up: it was superseded while it waited, and started nothing more.
  CHECK(older.result().exit_code == 1);
  CHECK(announce_count(older.result().out) == 1);
  auto summary = last_line_json(older.result().err);
  CHECK(std::string(summary["kill_reason"].GetString()) == "superseded");
  CHECK(summary["attempts"].GetUint() == 1);
  // The newer agent runs on, and the record names it.
  const fleet::RegistryRead read = fleet::LaunchRegistry(tmp.path(), "m1").read();
  REQUIRE(read.status == fleet::RegistryRead::Status::ok);
  const std::string first_line = split_lines(newer.result().out).front();
  CHECK(first_line == "FLEET_PID:" + std::to_string(read.record.process.pid));
  CHECK(::kill(read.record.process.pid, 0) == 0);
  newer.signal(SIGTERM);
  REQUIRE(newer.wait(20000));
  CHECK(newer.result().exit_code == 128 + SIGTERM);
}

TEST_CASE("backoff: launch-wrapper stop during the backoff ends the launch - no retry") {
  TempDir tmp;
  BackgroundProcess w(failing_launch(tmp));
  start_in_backoff(w);
  const auto stopped = run_process({kWrapper, "stop", "--member", "m1", "--state-dir", tmp.path()});
  CHECK(stopped.exit_code == 0);
  CHECK_MESSAGE(stopped.out.starts_with("not_running: "), stopped.out);
  REQUIRE(w.wait(20000));
  CHECK(w.result().exit_code == 1);
  CHECK(announce_count(w.result().out) == 1);
  auto summary = last_line_json(w.result().err);
  CHECK(std::string(summary["kill_reason"].GetString()) == "superseded");
  CHECK(summary["attempts"].GetUint() == 1);
  CHECK(fleet::LaunchRegistry(tmp.path(), "m1").read().status ==
        fleet::RegistryRead::Status::missing);
}
