// The provenance store under concurrent writers and writers killed with SIGKILL: no
// complete record is lost or damaged, and later appends stay intact.

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <fstream>
#include <random>
#include <set>

#include "emulator.h"
#include "fixtures.h"
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
  const int kRecordsEach = fleet::test::full_or_reduced(200, 20);
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
  const int kRounds = fleet::test::full_or_reduced(60, 16);
  for (int round = 0; round < kRounds; ++round) {
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
    if (round == kRounds / 2) {
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

// AutoSkillit's writer: open('a'), one write of one line, close — no flock.
TEST_CASE("store reliability: compactions lose nothing a lock-free appender writes") {
  TempDir tmp;
  const std::string state = tmp / "state";
  REQUIRE(::mkdir(state.c_str(), 0700) == 0);
  const std::string store = state + "/session_provenance.jsonl";
  using Clock = std::chrono::steady_clock;
  constexpr int kAppenders = 4;
  // The appenders run until the compactions are done (the stop file), at most 3 minutes: at
  // least 5 s and at least 5 compactions, however slow the machine (or an emulator) is.
  const std::string stop = tmp / "stop";
  const auto started = Clock::now();
  const auto deadline = started + std::chrono::minutes(3);
  std::vector<pid_t> appenders;
  for (int a = 0; a < kAppenders; ++a) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      std::ofstream done(tmp / ("done-" + std::to_string(a)));  // the records it wrote
      for (int i = 0; ::access(stop.c_str(), F_OK) != 0 && Clock::now() < deadline; ++i) {
        const std::string session = "a-" + std::to_string(a) + "-" + std::to_string(i);
        const std::string line =
            fleet::test::autoskillit_line(fleet::test::record(session, "l3", "kitchen-1")) + "\n";
        const int fd = ::open(store.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) ::_exit(1);
        const bool written =
            ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
        ::close(fd);
        if (written) done << session << "\n" << std::flush;
        // A busy writer, not a flood: the store stays small enough to compact (an emulated
        // compaction is ten times slower).
        ::usleep(static_cast<useconds_t>(fleet::test::full_or_reduced(200, 2000)));
      }
      ::_exit(0);
    }
    appenders.push_back(child);
  }
  int compactions = 0;
  while ((compactions < 5 || Clock::now() < started + std::chrono::seconds(5)) &&
         Clock::now() < deadline - std::chrono::seconds(10)) {
    const auto r = fleet::test::run_process({FLEET_HOOKS_CLI, "compact", "--state-dir", state});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    ++compactions;
  }
  fleet::test::write_file(stop, "");
  for (pid_t a : appenders) CHECK(wait_exit(a) == 0);

  std::set<std::string> written;
  for (int a = 0; a < kAppenders; ++a) {
    for (const auto& session : split_lines(read_file(tmp / ("done-" + std::to_string(a)))))
      written.insert(session);
  }
  std::set<std::string> stored;
  for (const auto& line : split_lines(read_file(store))) {
    const auto record = fleet::parse_provenance_line(line);
    REQUIRE_MESSAGE(record, line);
    CHECK_MESSAGE(stored.insert(record->session_id).second, record->session_id);
  }
  std::size_t lost = 0;
  for (const auto& session : written) lost += stored.count(session) == 0 ? 1 : 0;
  MESSAGE(written.size() << " records written, " << compactions << " compactions, " << lost
                         << " lost");
  CHECK(written.size() > 100);
  CHECK(compactions >= 5);
  CHECK(lost == 0);
}
