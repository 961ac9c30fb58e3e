#pragma once
// Test support: the round trip of an agent CLI's wiring, by any install route — a home as a
// user of every CLI has it, `fleet-hooks install` (with --trust where the suite writes the
// CLI's trust), what the CLI itself writes into the project when it first runs there (as
// observed, written here without the CLI), then `fleet-hooks uninstall` — after which the
// project and the home compare equal with before, bytes and modes, but for the files the CLI
// wrote as its own.

#include <functional>
#include <string>
#include <vector>

#include "agent/agent_cli.h"
#include "process.h"

namespace fleet::test {

// `fleet-hooks` run with `args` as the route under test installed it.
using FleetHooksRun = std::function<RunResult(const std::vector<std::string>& args)>;

// A file an agent CLI writes into a project itself: its path from the project's root and the
// bytes it holds once uninstall took the suite's entries out (uninstall leaves it).
struct CliOwnFile {
  std::string path;
  std::string after_uninstall;
};

// Furnishes `home` as a user of every CLI has it: Codex's ~/.codex/config.toml (mode 0600) and
// Copilot's ~/.copilot/config.json of their own, and ~/.gemini/ and ~/.qwen/.
void furnish_home(const std::string& home);

// `install --project <project> --agent <agent>`, with --trust where the suite writes the CLI's
// trust (writes_hook_trust).
std::vector<std::string> install_args(const AgentCli& agent, const std::string& project);

// Writes into `project`, wired for `agent`, what `agent` writes there when it first runs:
// Qwen Code 0.24.4 migrates .qwen/settings.json (adds "$version", doc/qwen.md), OpenCode
// 1.18.33 writes .opencode/.gitignore (doc/opencode.md), the others write nothing in the
// project. Returns the files that stay the CLI's after uninstall.
std::vector<CliOwnFile> run_cli_once(const AgentCli& agent, const std::string& project);

// CHECKs that `project` is as `before` (its snapshot_tree) but for the CLIs' `own` files, which
// hold their bytes after uninstall.
void check_as_before_but_own(const std::string& project, const std::vector<std::string>& before,
                             const std::vector<CliOwnFile>& own);

// The round trip of `agent` in `project` (a directory) and `home`, `fleet_hooks` being the
// route's: REQUIREs that install and `uninstall --project <project>` (then
// `uninstall_options`) succeed and that install changed the project; CHECKs that project and
// home are as before but for the CLI's own files, which hold their bytes after uninstall.
void check_round_trip(const AgentCli& agent, const std::string& project, const std::string& home,
                      const FleetHooksRun& fleet_hooks,
                      const std::vector<std::string>& uninstall_options = {});

// check_round_trip of every CLI of the table, each in a project and home of its own, with the
// `fleet-hooks` of `bin` (where a route installed the suite) run with nothing but HOME and
// PATH=<bin>:kSystemPath in its environment.
void check_round_trip_every_cli(const std::string& bin);

}  // namespace fleet::test
