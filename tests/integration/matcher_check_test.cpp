// fleet-hooks check and install on settings whose matcher is a regular expression a
// backtracking engine cannot finish, or one no automaton can judge: both answer, at once, and
// say what is wrong (found by fuzz/settings: they used to hang).
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>

#include "suite.h"
#include "temp_dir.h"

using fleet::test::read_file;
using fleet::test::RunResult;
using fleet::test::SuiteMachine;
using fleet::test::write_file;

namespace {

// A machine with the suite on PATH and a project whose PreToolUse entry runs resume-guard
// under `matcher`.
struct Checked : SuiteMachine {
  explicit Checked(const std::string& matcher) {
    ::mkdir((dir + "/.claude").c_str(), 0755);
    write_file(dir + "/.claude/settings.json",
               R"({"hooks":{"PreToolUse":[{"matcher":")" + matcher +
                   R"(","hooks":[{"type":"command","command":"resume-guard","timeout":10}]}]}})");
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
  Checked c("^(x+x+)+y$|^(mcp__.*__|.*-)?dispatch_food_truck$");
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
  CHECK(r.out.find("use ^(mcp__.*__|.*-)?dispatch_food_truck$") != std::string::npos);
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

TEST_CASE(
    "fleet-hooks check: an older Claude Code wiring leaves Copilot unguarded - install upgrades "
    "it") {
  // What install wrote before it knew that GitHub Copilot CLI (1.0.102) runs the hooks of
  // .claude/settings.json and calls the tool kitchen-dispatch_food_truck.
  const std::string old = "^(mcp__.*__)?dispatch_food_truck$";
  const std::string wired = "^(mcp__.*__|.*-)?dispatch_food_truck$";
  SuiteMachine m;
  ::mkdir((m.dir + "/.claude").c_str(), 0755);
  const std::string settings = m.dir + "/.claude/settings.json";
  write_file(settings, R"({"permissions": {"allow": ["Read"]}})");
  REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
  std::string text = read_file(settings);
  for (std::size_t at; (at = text.find(wired)) != std::string::npos;)
    text.replace(at, wired.size(), old);
  write_file(settings, text);
  const RunResult before = m.run({"check", "--project", m.dir});
  CHECK(before.exit_code == 1);
  CHECK_MESSAGE(before.out.find("error matcher-misses-other-cli: the resume-guard hook matcher '" +
                                old + "' misses kitchen-dispatch_food_truck") != std::string::npos,
                before.out);
  CHECK(before.out.find("GitHub Copilot CLI (1.0.102)") != std::string::npos);
  CHECK(before.out.find("use " + wired) != std::string::npos);

  const RunResult install = m.run({"install", "--project", m.dir});
  REQUIRE_MESSAGE(install.exit_code == 0, (install.out + install.err));
  const std::string upgraded = read_file(settings);
  CHECK(upgraded.find(old) == std::string::npos);
  CHECK(upgraded.find(R"("matcher": ")" + wired + "\"") != std::string::npos);
  CHECK(upgraded.find(R"("allow": [)") != std::string::npos);  // the rest is kept
  const RunResult after = m.run({"check", "--project", m.dir});
  CHECK_MESSAGE(after.exit_code == 0, after.out);
  // Installing again changes nothing.
  REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
  CHECK(read_file(settings) == upgraded);
}
