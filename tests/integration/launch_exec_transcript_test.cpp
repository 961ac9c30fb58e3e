// launch-wrapper with real files: what it does with a file marked executable that is not a
// program, and a completion watch whose transcript is replaced while the agent runs.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "fixtures.h"
#include "launch_output.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::assistant_line;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::wrapper_summary;
using fleet::test::write_executable;
using fleet::test::write_file;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;
const std::string kMarker = "%%L3_DONE::5eed0001%%";

}  // namespace

TEST_CASE("exec: a file marked executable that is not a program exits 126, never via /bin/sh") {
  TempDir tmp;
  const std::string ran = tmp / "ran";
  const std::string no_shebang =
      write_executable(tmp / "no-shebang", "touch " + ran + "\nexit 0\n");
  const std::string bad_elf =
      write_executable(tmp / "bad-elf", std::string("\x7f"
                                                    "ELF\x02\x01\x01",
                                                    7) +
                                            std::string(64, '\0') + "garbage");
  for (const std::string& program : {no_shebang, bad_elf}) {
    const RunResult r = run_process({kWrapper, "--", program});
    CHECK_MESSAGE(r.exit_code == 126, program, r.err);
    CHECK(r.err.find("cannot run") != std::string::npos);
    CHECK(std::string(wrapper_summary(r.err)["kill_reason"].GetString()) == "exec_failed");
    CHECK(::access(ran.c_str(), F_OK) != 0);  // no shell ran it as a script
  }
  // Found on PATH the same way.
  const RunResult on_path = run_process({kWrapper, "--", "no-shebang"},
                                        {"", {{"PATH", tmp.path() + ":/usr/bin:/bin"}}, ""});
  CHECK(on_path.exit_code == 126);
  // A directory on PATH without the command, then one with it: found as execvp finds it.
  const RunResult later = run_process({kWrapper, "--quiet", "--", "sh", "-c", "echo found"},
                                      {"", {{"PATH", tmp.path() + ":/nonexistent:/bin"}}, ""});
  CHECK(later.exit_code == 0);
  CHECK(later.out.find("found") != std::string::npos);
}

TEST_CASE("completion watch: a transcript replaced mid-run is read from its start") {
  for (const bool inotify : {true, false}) {
    TempDir tmp;
    const std::string log = tmp / "t.jsonl";
    // The previous run's transcript: long, with its own completion marker.
    std::string old_run;
    for (int i = 0; i < 50; ++i) old_run += assistant_line("working " + std::to_string(i)) + "\n";
    write_file(log, old_run + assistant_line(kMarker) + "\n");
    // The agent replaces the transcript with a new, shorter file whose first line completes.
    const std::string agent = write_executable(
        tmp / "agent", "#!/bin/sh\nsleep 0.3\nprintf '%s\\n' '" +
                           assistant_line("Done.\\n" + kMarker) + "' > " + log + ".new\nmv " + log +
                           ".new " + log + "\nsleep 20\nexit 3\n");
    std::vector<std::string> argv = {
        kWrapper, "--completion-marker", kMarker, "--session-log", log, "--drain", "0.5", "--grace",
        "1",      "--poll-ms",           "50"};
    if (!inotify) argv.push_back("--no-inotify");
    argv.insert(argv.end(), {"--", agent});
    const RunResult r = run_process(argv);
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    const auto doc = wrapper_summary(r.err);
    CHECK(doc["completion_seen"].GetBool());
    CHECK(std::string(doc["kill_reason"].GetString()) == "completed_then_stopped");
  }
}
