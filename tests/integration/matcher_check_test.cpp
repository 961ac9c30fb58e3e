// fleet-hooks check and install on settings whose matcher is a regular expression a
// backtracking engine cannot finish, or one no automaton can judge: both answer, at once, and
// say what is wrong (found by fuzz/settings: they used to hang).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "process.h"
#include "temp_dir.h"

using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

struct Checked {
  TempDir tmp;
  std::string dir = tmp / "project";
  std::string bin = tmp / "bin";

  explicit Checked(const std::string& matcher) {
    ::mkdir(dir.c_str(), 0755);
    ::mkdir((dir + "/.claude").c_str(), 0755);
    ::mkdir(bin.c_str(), 0755);
    REQUIRE(::symlink(FLEET_RESUME_GUARD, (bin + "/resume-guard").c_str()) == 0);
    REQUIRE(::symlink(FLEET_PROVENANCE_WRITER, (bin + "/provenance-writer").c_str()) == 0);
    write_file(dir + "/.claude/settings.json",
               R"({"hooks":{"PreToolUse":[{"matcher":")" + matcher +
                   R"(","hooks":[{"type":"command","command":"resume-guard","timeout":10}]}]}})");
  }
  RunResult run(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {FLEET_HOOKS_CLI};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(
        argv, {"", {{"HOME", tmp / "home"}, {"PATH", bin + ":/usr/local/bin:/usr/bin:/bin"}}, ""});
  }
};

}  // namespace

TEST_CASE("fleet-hooks check: a matcher JavaScript rejects is reported as selecting nothing") {
  // JavaScript refuses "_**…" (nothing to repeat); std::regex accepted it and backtracked for
  // ever on the probe names.
  Checked c("^mcp__kitchen__" + std::string(97, '*') +
            "dispatch--stri_food_truck$|^dispatch_food_truck$");
  const RunResult r = c.run({"check", "--project", c.dir});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find(" matcher-misses-dispatch:") != std::string::npos);
  CHECK(r.out.find("is not a valid JavaScript regular expression, so Claude Code runs this hook "
                   "for no tool") != std::string::npos);
}

TEST_CASE("fleet-hooks check: a matcher with exponential backtracking is judged") {
  Checked c("^(x+x+)+y$|^(mcp__.*__)?dispatch_food_truck$");
  const RunResult r = c.run({"check", "--project", c.dir});
  CHECK(r.out.find("matcher-misses") == std::string::npos);
  CHECK(r.out.find("matcher-too-broad") == std::string::npos);
  CHECK(r.out.find("matcher-unjudged") == std::string::npos);
}

TEST_CASE("fleet-hooks check: a matcher no automaton can judge is an error, not a guess") {
  Checked c("^(?=mcp__)(mcp__.*__)?dispatch_food_truck$");
  const RunResult r = c.run({"check", "--project", c.dir});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find(" matcher-unjudged:") != std::string::npos);
  CHECK(r.out.find("use ^(mcp__.*__)?dispatch_food_truck$") != std::string::npos);
}

TEST_CASE("fleet-hooks install: a guard entry whose own matcher misses the tool is refused") {
  // Before, install kept such an entry, said "installed", and the dispatch tool ran unguarded
  // (check then reported guard-missing).
  for (const std::string& matcher :
       {"^mcp__kitchen__" + std::string(97, '*') + "dispatch$", std::string("^Bash$")}) {
    CAPTURE(matcher);
    Checked c(matcher);
    const std::string before = read_file(c.dir + "/.claude/settings.json");
    const RunResult r = c.run({"install", "--project", c.dir, "--bin-dir", c.bin});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("has its own matcher '" + matcher +
                     "', which does not select dispatch_food_truck") != std::string::npos);
    CHECK(r.err.find("(nothing was changed)") != std::string::npos);
    CHECK(read_file(c.dir + "/.claude/settings.json") == before);
  }
}
