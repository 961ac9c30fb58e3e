// What `fleet-hooks` says when something is wrong or was not given: every line names the
// program and the subcommand, `query` says which store it read and for which caller, and a
// settings file's syntax error says where it is.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "process.h"
#include "suite.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::SuiteMachine;
using fleet::test::TempDir;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

// REQUIREs that every line `r` printed on stderr starts with "fleet-hooks <subcommand>: ".
void require_named(const RunResult& r, const std::string& subcommand) {
  REQUIRE_FALSE(r.err.empty());
  for (const std::string& line : split_lines(r.err)) {
    CHECK_MESSAGE(line.starts_with("fleet-hooks " + subcommand + ": "), line);
  }
}

}  // namespace

TEST_CASE("fleet-hooks: every message names the program and the subcommand") {
  SuiteMachine m;
  const std::string missing = m.tmp / "nonexistent";
  for (const char* sub : {"install", "uninstall", "check"}) {
    const RunResult r = m.run({sub, "--project", missing});
    CHECK(r.exit_code == 2);
    require_named(r, sub);
  }
  RunResult r = m.run({"replay", m.tmp / "nofile.jsonl"});
  CHECK(r.exit_code == 1);
  require_named(r, "replay");
  CHECK(contains(r.err, "nofile.jsonl"));

  // Refused files and install's notes.
  ::mkdir((m.dir + "/.claude").c_str(), 0755);
  write_file(m.dir + "/.claude/settings.json", "[1]");
  for (const char* sub : {"install", "uninstall"}) {
    r = m.run({sub, "--project", m.dir});
    CHECK(r.exit_code == 1);
    require_named(r, sub);
  }
  write_file(m.dir + "/.claude/settings.json",
             R"({"hooks":{"PreToolUse":[{"matcher":"Bash|dispatch_food_truck","hooks":[)"
             R"({"type":"command","command":"resume-guard","timeout":1}]}]}})");
  r = m.run({"install", "--project", m.dir});
  CHECK(r.exit_code == 0);
  require_named(r, "install");
  CHECK(contains(r.err, "note: dropped Bash"));
}

TEST_CASE("fleet-hooks query: outside a project it says which store it read and for no caller") {
  TempDir cwd;
  const std::string store = cwd.path() + "/.autoskillit/temp/session_provenance.jsonl";
  const RunResult r =
      run_process({FLEET_HOOKS_CLI, "query", "--session", "w-1"}, {"", {}, cwd.path()});
  CHECK(r.exit_code == 1);
  require_named(r, "query");
  CHECK_MESSAGE(contains(r.err, "no project given"), r.err);
  CHECK(contains(r.err, "the current directory " + cwd.path()));
  CHECK(contains(r.err, store));
  CHECK_MESSAGE(
      contains(r.err,
               "no caller given (--as-caller, or $CLAUDE_CODE_SESSION_ID, $QWEN_CODE_SESSION_ID or "
               "$COPILOT_AGENT_SESSION_ID)"),
      r.err);
  // Said only when it was not given: a project and a caller say nothing more.
  const RunResult given = run_process(
      {FLEET_HOOKS_CLI, "query", "--session", "w-1"},
      {"", {{"CLAUDE_PROJECT_DIR", cwd.path()}, {"CLAUDE_CODE_SESSION_ID", "l3-a"}}, cwd.path()});
  CHECK(contains(given.out, "verdict for caller 'l3-a'"));
  CHECK_FALSE(contains(given.err, "no project given"));
  CHECK_FALSE(contains(given.err, "no caller given"));
  CHECK(contains(given.err, store));  // the store is still named: it has no record
}

TEST_CASE(
    "fleet-hooks: a trailing comma or a comment in settings is reported with line and column") {
  SuiteMachine m;
  ::mkdir((m.dir + "/.claude").c_str(), 0755);
  const std::string file = m.dir + "/.claude/settings.json";
  struct Slip {
    std::string text;
    std::string where;
  };
  for (const Slip& slip :
       {Slip{"{\n  \"model\": \"opus\",\n  \"env\": {\"A\": \"1\"},\n}\n",
             "a trailing comma at line 3, column 20"},
        Slip{"{\"permissions\": {\"allow\": [\"Bash\",\n  ]}}",
             "a trailing comma at line 1, column 34"},
        Slip{"{\n  // the model\n  \"model\": \"opus\"\n}\n", "a comment at line 2, column 3"}}) {
    CAPTURE(slip.text);
    write_file(file, slip.text);
    RunResult r = m.run({"install", "--project", m.dir});
    CHECK(r.exit_code == 1);
    CHECK_MESSAGE(contains(r.err, slip.where), r.err);
    CHECK(read_file(file) == slip.text);
    r = m.run({"check", "--project", m.dir});
    CHECK(r.exit_code == 1);
    CHECK_MESSAGE(contains(r.out, slip.where), r.out);
  }
}

TEST_CASE("fleet-hooks query: the caller is the session any agent CLI names to its MCP servers") {
  // Qwen Code 0.24.4 names it in QWEN_CODE_SESSION_ID, Claude Code in CLAUDE_CODE_SESSION_ID.
  TempDir cwd;
  const RunResult r = run_process(
      {FLEET_HOOKS_CLI, "query", "--session", "w-1"},
      {"", {{"CLAUDE_PROJECT_DIR", cwd.path()}, {"QWEN_CODE_SESSION_ID", "l3-q"}}, cwd.path()});
  CHECK_MESSAGE(contains(r.out, "verdict for caller 'l3-q'"), r.out);
  CHECK_FALSE(contains(r.err, "no caller given"));
}
