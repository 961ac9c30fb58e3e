// What a newcomer trying the suite ran into: a bad --tool is a usage error, install says
// truly whether the hooks find the suite on PATH here, a misspelled key in a policy case
// does not let the case pass unchecked, and check says where the plugin is and warns when
// the plugin and the settings entries both guard a tool.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixtures.h"
#include "process.h"
#include "suite.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

// A project and a HOME; `bin` holds the suite, on PATH only when asked.
using Newcomer = fleet::test::SuiteMachine;

}  // namespace

TEST_CASE("newcomer: install --tool with a name that is not a tool name is a usage error (2)") {
  Newcomer n;
  RunResult r = n.run({"install", "--project", n.dir, "--tool", "bad name"}, true);
  CHECK(r.exit_code == 2);
  CHECK(r.err ==
        "fleet-hooks install: --tool must be a tool name (1-128 letters, digits, _ and -), not "
        "'bad name'\n");
  CHECK(r.out.empty());
  CHECK_FALSE(::access((n.dir + "/.claude").c_str(), F_OK) == 0);  // nothing written

  r = n.run({"check", "--project", n.dir, "--tool", "a|b"}, true);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "fleet-hooks check: --tool must be a tool name"));

  // A good name still installs.
  r = n.run({"install", "--project", n.dir, "--tool", "spawn_worker"}, true);
  CHECK(r.exit_code == 0);
}

TEST_CASE("newcomer: install says whether the hooks find resume-guard here") {
  Newcomer n;
  RunResult r = n.run({"install", "--project", n.dir}, false);
  REQUIRE(r.exit_code == 0);
  CHECK_FALSE(contains(r.out, "found on PATH"));
  CHECK(contains(r.out,
                 "run by name from PATH or where the install routes put it (resume-guard is NOT "
                 "found here)"));
  CHECK(contains(r.err, "resume-guard is not on PATH here"));  // and what to do about it

  Newcomer m;
  r = m.run({"install", "--project", m.dir}, true);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "run by name from PATH or where the install routes put it (here: " + m.bin +
                            "/resume-guard)"));
  CHECK(r.err.empty());
}

TEST_CASE("newcomer: replay - an unknown key makes the case invalid, naming it") {
  Newcomer n;
  const std::string state = n.tmp / "state";
  ::mkdir(state.c_str(), 0700);
  const std::string input =
      R"({"session_id": "l3-b", "tool_name": "dispatch_food_truck", "tool_input": {"resume_session_id": "w-1"}})";
  // Without the misspelling the reason check would fail this case; misspelled, it used to pass.
  write_file(
      n.tmp / "cases.jsonl",
      R"({"name": "misspelled", "input": )" + input +
          R"(, "expect": "advisory", "reason_contain": "zzz"})" + "\n" +
          R"({"name": "stray key", "input": )" + input +
          R"(, "expect": "advisory", "colour": "blue"})" + "\n" +
          R"({"name": "all known keys", "input": )" + input +
          R"(, "expect": "advisory", "reason_contains": "was not checked", "kitchen_id": "k", "strict": false})" +
          "\n");
  const RunResult r = n.run({"replay", n.tmp / "cases.jsonl", "--state-dir", state}, true);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out,
                 "1     ERROR   advisory  -         misspelled\n"
                 "      invalid case: unknown key \"reason_contain\"; did you mean "
                 "\"reason_contains\"? (a case has name, input, expect, reason_contains, "
                 "kitchen_id and strict)\n"));
  CHECK(contains(r.out,
                 "2     ERROR   advisory  -         stray key\n"
                 "      invalid case: unknown key \"colour\" (a case has"));
  CHECK(contains(r.out, "3     PASS    advisory  advisory  all known keys\n"));
  CHECK(contains(r.out, "replay: 1 of 3 cases passed, 0 failed, 2 invalid"));
}

TEST_CASE("newcomer: check - the plugin's marketplace path, and the plugin wired twice") {
  Newcomer n;
  const std::string prefix = n.tmp / "prefix";
  const RunResult installed =
      run_process({FLEET_CMAKE, "--install", FLEET_BUILD_DIR, "--prefix", prefix});
  REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
  const std::string plugin = prefix + "/share/fleet-hooks/claude-plugin";
  const std::string installed_cli = prefix + "/bin/fleet-hooks";

  // The settings entries and the plugin both guard dispatch_food_truck: a warning.
  REQUIRE(n.run({"install", "--project", n.dir}, true).exit_code == 0);
  RunResult r = n.run({"check", "--project", n.dir, "--plugin-dir", plugin}, true);
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  CHECK(contains(r.out,
                 "warning guard-wired-twice: resume-guard runs twice for "
                 "dispatch_food_truck: from the settings entry in " +
                     n.dir + "/.claude/settings.json and from the fleet-hooks plugin (" + plugin +
                     "). Use the plugin or the settings entries, not both"));
  // One of them alone: no warning.
  r = n.run({"check", "--project", n.dir}, true);
  CHECK(r.exit_code == 0);
  CHECK_FALSE(contains(r.out, "guard-wired-twice"));

  // The plugin enabled but not installed: the installed fleet-hooks names its real marketplace.
  write_file(n.dir + "/.claude/settings.json",
             R"({"enabledPlugins": {"fleet-hooks@fleet-hooks": true}})");
  r = n.run({"check", "--project", n.dir}, true, installed_cli);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out,
                 "Run `claude plugin marketplace add " + prefix +
                     "/share/fleet-hooks` and `claude plugin install fleet-hooks@fleet-hooks`"));
  CHECK_FALSE(contains(r.out, "<prefix>"));
  // A fleet-hooks with no marketplace beside it says how to find it.
  r = n.run({"check", "--project", n.dir}, true);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "marketplace add <prefix>/share/fleet-hooks`"));
  CHECK(contains(r.out,
                 "(<prefix> is where fleet-hooks is installed: the directory above the "
                 "bin/ that holds it"));
}
