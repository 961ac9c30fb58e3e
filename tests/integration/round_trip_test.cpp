// The round trip of every agent CLI: `fleet-hooks install` (with --trust where the suite writes
// the CLI's trust) and then `fleet-hooks uninstall` leave the project and the home as they
// were, byte for byte, mode included — no directory the suite made (.github/ for Copilot), no
// backup the unwiring wrote, no trust the suite wrote, and every trust the user gave before —
// after the CLI's first run in the project too, whose own files (Qwen Code's migrated
// settings, OpenCode's .gitignore) are the one difference (round_trip.h).

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "agents/agents.h"
#include "process.h"
#include "round_trip.h"
#include "suite.h"
#include "text.h"
#include "tree.h"

using fleet::test::contains;
using fleet::test::furnish_home;
using fleet::test::read_file;
using fleet::test::RunResult;
using fleet::test::snapshot_tree;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

using Machine = fleet::test::SuiteMachine;

// `fleet-hooks install` of `agent` into m's project, with --trust where the suite writes the
// CLI's trust; REQUIREs success.
void install(const Machine& m, const fleet::AgentCli& agent) {
  const RunResult r = m.run(fleet::test::install_args(agent, m.dir));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
}

}  // namespace

TEST_CASE(
    "fleet-hooks uninstall: after every CLI's install, trust and first run, project and home as "
    "before") {
  // The two ways to unwire a project: every CLI of it, or the one named.
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    for (const Args& options : {Args{}, Args{"--agent", std::string(agent->name)}}) {
      CAPTURE(options.size());
      Machine m;
      furnish_home(m.home);
      fleet::test::check_round_trip(
          *agent, m.dir, m.home, [&](const Args& args) { return m.run(args); }, options);
    }
  }
}

TEST_CASE("fleet-hooks uninstall: the user's own file of every CLI comes back, with no backup") {
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    if (fleet::wired_by_plugin(*agent)) continue;  // OpenCode's plugin file is the suite's own
    CAPTURE(agent->name);
    Machine m;
    furnish_home(m.home);
    // The user's settings, in a formatting of their own and a mode of their own; a .github/
    // with a workflow, beside Copilot's hooks.
    const std::string file = m.dir + "/" + std::string(agent->project_hook_file);
    fleet::test::run_process(
        {"/bin/mkdir", "-p", m.dir + "/.github/workflows", file.substr(0, file.rfind('/'))});
    write_file(m.dir + "/.github/workflows/ci.yml", "on: push\n");
    write_file(file, "{ \"ui\":    {\"theme\": \"Dracula\"} }\n");
    ::chmod(file.c_str(), 0600);
    const auto before = snapshot_tree(m.dir);
    install(m, *agent);
    // A second install that changes the file: a backup of the first wiring too.
    REQUIRE(m.run({"install", "--project", m.dir, "--agent", std::string(agent->name), "--tool",
                   "open_kitchen"})
                .exit_code == 0);
    const RunResult r = m.run({"uninstall", "--project", m.dir});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(snapshot_tree(m.dir) == before);
  }
}

TEST_CASE("fleet-hooks uninstall: a trust the user gave before the install stays theirs") {
  Machine m;
  furnish_home(m.home);
  const std::string codex = m.home + "/.codex/config.toml";
  const std::string copilot = m.home + "/.copilot/config.json";
  const std::string mine =
      "model = \"o3\"\n\n[projects.\"" + m.dir + "\"]\ntrust_level = \"trusted\"\n";
  write_file(codex, mine);
  const std::string folders = "{\n  \"trustedFolders\": [\n    \"" + m.dir + "\"\n  ]\n}\n";
  write_file(copilot, folders);
  const auto home_before = snapshot_tree(m.home);
  install(m, *fleet::find_agent_cli("codex"));
  install(m, *fleet::find_agent_cli("copilot"));
  CHECK(read_file(codex) != mine);  // the hooks' trust was added

  const RunResult r = m.run({"uninstall", "--project", m.dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK_MESSAGE(contains(r.out, "removed the trust of 3 fleet-hooks hooks from " + codex + "\n"),
                r.out);
  CHECK_FALSE(contains(r.out, "the project " + m.dir));
  CHECK(snapshot_tree(m.home) == home_before);
}

TEST_CASE("fleet-hooks uninstall: says what trust it took back, once per CLI") {
  Machine m;
  const std::string codex = m.home + "/.codex/config.toml";
  const std::string copilot = m.home + "/.copilot/config.json";
  install(m, *fleet::find_agent_cli("codex"));
  install(m, *fleet::find_agent_cli("copilot"));
  const RunResult dry = m.run({"uninstall", "--project", m.dir, "--dry-run"});
  CHECK(dry.exit_code == 0);
  CHECK_MESSAGE(contains(dry.err, "without it, it removes the trust of the project " + m.dir +
                                      " from " + copilot),
                dry.err);

  const RunResult r = m.run({"uninstall", "--project", m.dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK_MESSAGE(contains(r.out, "removed the trust of 3 fleet-hooks hooks and the project " +
                                    m.dir + " from " + codex +
                                    " (install --trust had created it, so it is removed)\n"),
                r.out);
  CHECK(contains(r.out, "removed the trust of the project " + m.dir + " from " + copilot));
  CHECK_FALSE(contains(r.out, "nothing to remove"));
  CHECK(snapshot_tree(m.home) == std::vector<std::string>{});
}

TEST_CASE("fleet-hooks uninstall: one line for each file it changes, one when it changes none") {
  Machine m;
  install(m, *fleet::find_agent_cli("gemini"));
  const RunResult r = m.run({"uninstall", "--project", m.dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out == "removed 2 fleet-hooks entries from " + m.dir +
                     "/.gemini/settings.json; it held nothing else, so it is removed\n");

  const RunResult again = m.run({"uninstall", "--project", m.dir});
  CHECK(again.exit_code == 0);
  CHECK(fleet::test::split_lines(again.out).size() == 1);
  CHECK(contains(again.out, "nothing to remove: no file of an agent CLI in " + m.dir));
  // A CLI asked for by name is answered by name.
  const RunResult named = m.run({"uninstall", "--project", m.dir, "--agent", "codex"});
  CHECK(named.out == "nothing to remove: " + m.dir + "/.codex/hooks.json does not exist\n");
}
