// The round trip of every agent CLI: `fleet-hooks install` (with --trust where the suite writes
// the CLI's trust) and then `fleet-hooks uninstall` leave the project and the home as they
// were, byte for byte, mode included — no directory the suite made (.github/ for Copilot), no
// backup the unwiring wrote, no trust the suite wrote, and every trust the user gave before.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "agents/agents.h"
#include "process.h"
#include "suite.h"
#include "text.h"
#include "tree.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::RunResult;
using fleet::test::snapshot_tree;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

using Machine = fleet::test::SuiteMachine;

// config.json as GitHub Copilot CLI 1.0.102 writes it, comment lines first.
const std::string kCopilotConfig =
    "// User settings belong in settings.json.\n// This file is managed automatically.\n"
    "{\n  \"firstLaunchAt\": \"2026-11-26T00:00:00.000Z\"\n}\n";

// A home as a user of every CLI has it: Codex's config.toml and Copilot's config.json of
// their own.
void furnish_home(const Machine& m) {
  for (const char* dir : {"/.codex", "/.copilot", "/.gemini", "/.qwen"})
    ::mkdir((m.home + dir).c_str(), 0755);
  write_file(m.home + "/.codex/config.toml", "# mine\nmodel = \"o3\"\n");
  ::chmod((m.home + "/.codex/config.toml").c_str(), 0600);
  write_file(m.home + "/.copilot/config.json", kCopilotConfig);
}

// `fleet-hooks install` of `agent` into m's project, with --trust where the suite writes the
// CLI's trust; REQUIREs success.
void install(const Machine& m, const fleet::AgentCli& agent) {
  Args args = {"install", "--project", m.dir, "--agent", std::string(agent.name)};
  if (agent.hook_trust.write != nullptr) args.push_back("--trust");
  const RunResult r = m.run(args);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
}

// The two ways to unwire a project: every CLI of it, or the one named.
const std::vector<Args> kUninstalls = {{}, {"--agent"}};

RunResult uninstall(const Machine& m, const fleet::AgentCli& agent, const Args& route) {
  Args args = {"uninstall", "--project", m.dir};
  if (!route.empty()) args.insert(args.end(), {"--agent", std::string(agent.name)});
  return m.run(args);
}

}  // namespace

TEST_CASE(
    "fleet-hooks uninstall: after every CLI's install and trust, project and home as before") {
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    for (const Args& route : kUninstalls) {
      CAPTURE(agent->name);
      CAPTURE(route.size());
      Machine m;
      furnish_home(m);
      const auto project_before = snapshot_tree(m.dir);
      const auto home_before = snapshot_tree(m.home);
      install(m, *agent);
      const RunResult r = uninstall(m, *agent, route);
      REQUIRE_MESSAGE(r.exit_code == 0, r.err);
      CHECK(snapshot_tree(m.dir) == project_before);
      CHECK(snapshot_tree(m.home) == home_before);
    }
  }
}

TEST_CASE("fleet-hooks uninstall: the user's own file of every CLI comes back, with no backup") {
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    if (fleet::wired_by_plugin(*agent)) continue;  // OpenCode's plugin file is the suite's own
    CAPTURE(agent->name);
    Machine m;
    furnish_home(m);
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
  furnish_home(m);
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

TEST_CASE("fleet-hooks uninstall: after Qwen Code migrated its file, only its $version is left") {
  Machine m;
  const auto before = snapshot_tree(m.dir);
  install(m, *fleet::find_agent_cli("qwen"));
  // Qwen Code 0.24.4's first run in the project: "$version" added, the file written again by
  // JSON.stringify(…, null, 2), with no line break at its end.
  const std::string file = m.dir + "/.qwen/settings.json";
  const std::string wired = read_file(file);
  const std::string entries = wired.substr(0, wired.rfind('}'));  // each entry's line
  const std::size_t last_end = entries.rfind('\n');               // ends the last entry
  std::string migrated;
  migrated.append(entries, 0, last_end)
      .append(",")
      .append(entries, last_end)
      .append("  \"$version\": 4\n}");
  write_file(file, migrated);

  const RunResult r = m.run({"uninstall", "--project", m.dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(read_file(file) == "{\n  \"$version\": 4\n}\n");
  auto after = snapshot_tree(m.dir);
  std::erase_if(after, [](const std::string& entry) { return entry.starts_with(".qwen"); });
  CHECK(after == before);
  CHECK(snapshot_tree(m.dir + "/.qwen").size() == 1);  // settings.json, no backup
}
