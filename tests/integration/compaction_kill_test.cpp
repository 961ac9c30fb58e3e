// A compaction killed mid-way (SIGKILL while it writes the new store) leaves a temporary
// file behind; the next compaction or append removes it, and no record is lost.

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <set>

#include "process.h"
#include "store/provenance_record.h"
#include "temp_dir.h"

using fleet::test::BackgroundProcess;
using fleet::test::read_file;
using fleet::test::run_ls;
using fleet::test::run_process;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

std::vector<std::string> temporaries(const TempDir& tmp) {
  std::vector<std::string> found;
  for (const auto& name : run_ls(tmp.path())) {
    if (name.starts_with("session_provenance.jsonl.") && name != "session_provenance.jsonl.idx") {
      found.push_back(name);
    }
  }
  return found;
}

std::set<std::string> sessions(const std::string& store) {
  std::set<std::string> ids;
  for (const auto& line : split_lines(read_file(store))) {
    if (auto record = fleet::parse_provenance_line(line)) ids.insert(record->session_id);
  }
  return ids;
}

// Starts a compaction and SIGKILLs it once its temporary file exists. False when it
// finished first.
bool kill_compaction_midway(const TempDir& tmp) {
  BackgroundProcess compaction({FLEET_HOOKS_CLI, "compact", "--state-dir", tmp.path()});
  for (;;) {
    if (!temporaries(tmp).empty()) {
      compaction.signal(SIGKILL);
      compaction.wait();
      return compaction.result().term_signal == SIGKILL;
    }
    siginfo_t info{};
    // Exited already (not reaped: BackgroundProcess collects it).
    if (::waitid(P_PID, static_cast<id_t>(compaction.pid()), &info, WEXITED | WNOHANG | WNOWAIT) ==
            0 &&
        info.si_pid != 0) {
      compaction.wait();
      return false;
    }
  }
}

}  // namespace

TEST_CASE("compaction killed mid-way: the next compaction or append removes its temporary") {
  TempDir tmp;
  const std::string store = tmp / "session_provenance.jsonl";
  // A big store (so the compaction takes a while), with duplicates and a damaged line.
  std::string text;
  char id[40];
  for (int i = 0; i < 150000; ++i) {
    std::snprintf(id, sizeof id, "%08x-0000-4000-8000-%012x", i % 100000, i);
    text += R"({"caller_session_id": "c", "dispatch_id": "", "kitchen_id": "k", )"
            R"("recipe_name": "implement", "session_id": ")" +
            std::string(id, 8) +
            R"(-0000-4000-8000-000000000000", "step_name": "", )"
            R"("timestamp": "2026-05-06T13:30:00.123456+00:00"})" +
            "\n";
  }
  text += "damaged\n";
  write_file(store, text);
  const auto expected = sessions(store);
  REQUIRE(expected.size() == 100000);

  int killed = 0;
  for (int attempt = 0; attempt < 10 && killed < 2; ++attempt) {
    if (!kill_compaction_midway(tmp)) continue;
    ++killed;
    REQUIRE_FALSE(temporaries(tmp).empty());  // what the killed compaction left
    if (killed == 1) {
      // An append removes it.
      const auto r = run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", "w-appended",
                                  "--caller-session-id", "c", "--recipe-name", "r", "--state-dir",
                                  tmp.path()});
      REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    } else {
      // Another compaction removes it, and finishes.
      const auto r = run_process({FLEET_HOOKS_CLI, "compact", "--state-dir", tmp.path()});
      REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
    CHECK(temporaries(tmp).empty());
  }
  REQUIRE_MESSAGE(killed == 2, "the compaction kept finishing before it could be killed");
  auto now = sessions(store);
  CHECK(now.erase("w-appended") == 1);
  CHECK(now == expected);  // no record lost
}
