// What `fleet-hooks install` accepts and writes, `fleet-hooks check` passes: settings that
// install used to accept (and say "installed") while check then refused them with exit 1.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "base/json.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::read_file;
using fleet::test::RunResult;
using fleet::test::SuiteMachine;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

// A machine with the suite on PATH and a project whose settings are `settings`, driven
// through install and check.
struct Project : fleet::test::SettingsProject {
  using SettingsProject::SettingsProject;
  RunResult install(Args extra = {}) const {
    Args args = {"install", "--project", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }
  RunResult check(Args extra = {}) const {
    Args args = {"check", "--project", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }
  std::string guard_matcher() const {
    return settings()["hooks"]["PreToolUse"][0]["matcher"].GetString();
  }
};

// A PreToolUse group holding only resume-guard, under `matcher`, with `timeout`.
std::string guard_only(const std::string& matcher, const std::string& timeout = "10",
                       const std::string& command = "resume-guard") {
  return R"({"hooks":{"PreToolUse":[{"matcher":")" + matcher +
         R"(","hooks":[{"type":"command","command":")" + command + R"(","timeout":)" + timeout +
         "}]}]}}";
}

}  // namespace

TEST_CASE("install-check: a suite-only guard group naming another tool - install drops the name") {
  // Before: install widened "Bash" to ^(mcp__.*__)?(dispatch_food_truck|Bash)$, said ok, and
  // check then refused it (matcher-too-broad, so guard-missing): resume-guard does nothing
  // for Bash, and fail-closed it blocked every Bash call on a machine without the suite.
  for (const std::string& matcher : {std::string("Bash"), std::string("dispatch_food_truck|Bash"),
                                     std::string("Bash, dispatch_food_truck"),
                                     std::string("^(mcp__.*__)?(dispatch_food_truck|Bash)$")}) {
    CAPTURE(matcher);
    Project p(guard_only(matcher));
    const RunResult installed = p.install();
    REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
    CHECK(p.guard_matcher() == "^(mcp__.*__|.*-)?dispatch_food_truck$");
    CHECK(installed.err.find("Bash") != std::string::npos);  // says which name it dropped
    const RunResult checked = p.check();
    CHECK_MESSAGE(checked.exit_code == 0, checked.out);
    CHECK(p.install().out.find("unchanged") == 0);
  }
}

TEST_CASE("install-check: an MCP form of the dispatch tool is not reported as dropped") {
  Project p(guard_only("dispatch_food_truck|mcp__kitchen__dispatch_food_truck"));
  const RunResult installed = p.install();
  REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
  CHECK(p.guard_matcher() == "^(mcp__.*__|.*-)?dispatch_food_truck$");
  CHECK_MESSAGE(installed.err.find("dropped") == std::string::npos, installed.err);
  const RunResult checked = p.check();
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);
}

TEST_CASE("install-check: a name the guard acts on (--tool) stays in the rewritten matcher") {
  Project p(guard_only("dispatch_food_truck|spawn_worker|Read", "10",
                       "resume-guard --tool spawn_worker"));
  const RunResult installed = p.install();
  REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
  CHECK(p.guard_matcher() == "^(mcp__.*__|.*-)?(dispatch_food_truck|spawn_worker)$");
  CHECK(installed.err.find("Read") != std::string::npos);
  const RunResult checked = p.check();
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);
  CHECK(checked.out.find("spawn_worker and mcp__*__spawn_worker") != std::string::npos);
}

TEST_CASE("install-check: --tool naming a tool check probes as 'another tool' passes check") {
  // Before: install --tool Bash wrote the guard for Bash, and check called its matcher too
  // broad because it matches Bash.
  for (const char* tool : {"Bash", "Read", "list_trucks", "redispatch_food_truck"}) {
    CAPTURE(tool);
    Project p("{}");
    const RunResult installed = p.install({"--tool", tool});
    REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
    RunResult checked = p.check();
    CHECK_MESSAGE(checked.exit_code == 0, checked.out);
    checked = p.check({"--tool", tool});
    CHECK_MESSAGE(checked.exit_code == 0, checked.out);
  }
}

TEST_CASE("install-check: a guard timeout check refuses is set to 10 s, with a note") {
  for (const char* timeout : {"2", "\"10\"", "null"}) {
    CAPTURE(timeout);
    Project p(guard_only("^(mcp__.*__)?dispatch_food_truck$", timeout));
    const RunResult installed = p.install();
    REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
    CHECK(installed.err.find("timeout") != std::string::npos);
    const rapidjson::Document doc = p.settings();
    CHECK(doc["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"].GetInt() == 10);
    const RunResult checked = p.check();
    CHECK_MESSAGE(checked.exit_code == 0, checked.out);
  }
  // A timeout of 5 s or more is the user's and stays.
  Project p(guard_only("^(mcp__.*__)?dispatch_food_truck$", "30"));
  REQUIRE(p.install().exit_code == 0);
  CHECK(read_file(p.file()).find("\"timeout\": 30") != std::string::npos);
}

TEST_CASE("install-check: a guard entry of another type becomes a command entry - with a note") {
  // Claude Code runs only entries of type "command" as commands: a guard entry of another
  // type (or none) never runs, whatever its command says.
  for (const char* type : {R"("type":"prompt",)", ""}) {
    CAPTURE(type);
    Project p(
        std::string(R"({"hooks":{"PreToolUse":[{"matcher":"^(mcp__.*__)?dispatch_food_truck$",)") +
        R"("hooks":[{)" + type + R"("command":"resume-guard","timeout":10}]}]}})");
    const RunResult before = p.check();
    CHECK(before.exit_code == 1);
    CHECK(before.out.find("hook-type") != std::string::npos);
    const RunResult installed = p.install();
    REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
    CHECK(installed.err.find("type") != std::string::npos);
    const rapidjson::Document doc = p.settings();
    CHECK(std::string(doc["hooks"]["PreToolUse"][0]["hooks"][0]["type"].GetString()) == "command");
    const RunResult checked = p.check();
    CHECK_MESSAGE(checked.exit_code == 0, checked.out);
  }
}

TEST_CASE("install-check: a guard matcher of the user's own that check refuses is refused") {
  // Shared with the user's own hook, or not a list of names: install may not rewrite it, so
  // it refuses (exit 1, nothing changed) instead of writing what check refuses.
  const std::string shared =
      R"({"hooks":{"PreToolUse":[{"matcher":"Bash|dispatch_food_truck","hooks":[)"
      R"({"type":"command","command":"audit-log"},)"
      R"({"type":"command","command":"resume-guard","timeout":10}]}]}})";
  for (const std::string& settings :
       {shared, guard_only(""), guard_only("*"), guard_only(".*dispatch_food_truck$"),
        guard_only("^(mcp__.*__)?dispatch_food_truck")}) {
    CAPTURE(settings);
    Project p(settings);
    REQUIRE(p.check().exit_code == 1);
    const RunResult r = p.install();
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("(nothing was changed)") != std::string::npos);
    CHECK(read_file(p.file()) == settings);
  }
}

TEST_CASE("check --tool: adds to the tools the default requires, never replaces them") {
  // dispatch_food_truck's guard is broken (a 1 s timeout), spawn_worker's works. A team that
  // follows the recipe ("tools: spawn_worker", besides dispatch_food_truck) must still be told
  // dispatch_food_truck is unguarded: before, --tool replaced the default and check said ok.
  Project p(
      R"({"hooks":{"PreToolUse":[
        {"matcher":"^(mcp__.*__|.*-)?dispatch_food_truck$","hooks":[{"type":"command","command":"resume-guard","timeout":1}]},
        {"matcher":"^(mcp__.*__|.*-)?spawn_worker$","hooks":[{"type":"command","command":"resume-guard --tool spawn_worker","timeout":10}]}]}})");
  for (const Args& extra : {Args{}, Args{"--tool", "spawn_worker"}}) {
    CAPTURE(extra.size());
    const RunResult checked = p.check(extra);
    CHECK_MESSAGE(checked.exit_code == 1, checked.out);
    CHECK_MESSAGE(
        checked.out.find("error guard-missing: no correctly configured PreToolUse hook "
                         "runs resume-guard for dispatch_food_truck") != std::string::npos,
        checked.out);
    CHECK(checked.out.find("resume-guard for spawn_worker") == std::string::npos);
  }
}
