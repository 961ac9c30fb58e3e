// The provenance store under concurrent writers and writers killed with SIGKILL: no
// complete record is lost or damaged, and later appends stay intact.

#include <doctest/doctest.h>
#include <unistd.h>
#include <csignal>
#include <random>
#include <set>

#include "process.h"
#include "store/provenance_record.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using fleet::test::read_file;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::wait_exit;

namespace {

std::vector<std::string> writer_args(const std::string& state_dir, const std::string& session) {
  return {FLEET_PROVENANCE_WRITER, "record",    "--session-id", session,
          "--caller-session-id",   "l3-caller", "--kitchen-id", "kitchen-1",
          "--recipe-name",         "implement", "--step-name",  "step with some text",
          "--state-dir",           state_dir};
}

}  // namespace

TEST_CASE("store reliability: 32 processes appending 200 records each lose nothing") {
  TempDir tmp;
  constexpr int kProcesses = 32;
  constexpr int kRecordsEach = 200;
  const std::vector<pid_t> children =
      fleet::test::fork_runners(kProcesses, kRecordsEach, [&tmp](int p, int i) {
        return writer_args(tmp.path(), "w-" + std::to_string(p) + "-" + std::to_string(i));
      });
  for (pid_t child : children) CHECK(wait_exit(child) == 0);

  const auto lines = split_lines(read_file(tmp / "session_provenance.jsonl"));
  CHECK(lines.size() == kProcesses * kRecordsEach);
  std::set<std::string> sessions;
  for (const auto& line : lines) {
    const auto record = fleet::parse_provenance_line(line);
    REQUIRE_MESSAGE(record, line);
    CHECK(record->step_name == "step with some text");
    sessions.insert(record->session_id);
  }
  CHECK(sessions.size() == kProcesses * kRecordsEach);
}

TEST_CASE("store reliability: writers killed with SIGKILL at random moments damage nothing") {
  TempDir tmp;
  const std::string store = tmp / "session_provenance.jsonl";
  std::mt19937 random(20261122);
  std::set<std::string> completed;  // writers that exited 0: their record must be there
  std::set<std::string> attempted;
  int killed = 0;
  for (int round = 0; round < 60; ++round) {
    std::vector<std::pair<pid_t, std::string>> writers;
    for (int w = 0; w < 8; ++w) {
      const std::string session = "k-" + std::to_string(round) + "-" + std::to_string(w);
      attempted.insert(session);
      writers.emplace_back(fleet::test::spawn_detached(writer_args(tmp.path(), session)), session);
    }
    ::usleep(std::uniform_int_distribution<unsigned>(0, 1500)(random));
    for (auto& [pid, session] : writers) {
      if (random() % 2 == 0) ::kill(pid, SIGKILL);
    }
    for (auto& [pid, session] : writers) {
      const int code = wait_exit(pid);
      if (code == 0) completed.insert(session);
      if (code == 128 + SIGKILL) ++killed;
    }
    if (round == 30) {
      // A crash in the middle of a line, as a writer dying inside a large write leaves it.
      fleet::test::write_file(store, read_file(store) + R"({"caller_session_id":"torn)");
    }
  }
  MESSAGE(completed.size() << " writers completed, " << killed << " killed");
  CHECK(killed > 0);

  // Later appends are intact.
  for (int i = 0; i < 10; ++i) {
    const std::string session = "after-" + std::to_string(i);
    REQUIRE(fleet::test::run_process(writer_args(tmp.path(), session)).exit_code == 0);
    completed.insert(session);
    attempted.insert(session);
  }

  std::set<std::string> present;
  int damaged = 0;
  for (const auto& line : split_lines(read_file(store))) {
    if (const auto record = fleet::parse_provenance_line(line)) {
      CHECK(attempted.count(record->session_id) == 1);
      CHECK(record->recipe_name == "implement");
      present.insert(record->session_id);
    } else {
      ++damaged;
    }
  }
  CHECK(damaged == 1);  // only the line torn on purpose
  for (const auto& session : completed) CHECK_MESSAGE(present.count(session) == 1, session);
  for (int i = 0; i < 10; ++i) {
    CHECK(fleet::lookup_session(store, "after-" + std::to_string(i)).status ==
          fleet::StoreLookup::Status::found);
  }
  CHECK(read_file(store).back() == '\n');
}
