#pragma once
// The subcommands of fleet-hooks. Each is one file here that defines its options (CLI11) and
// maps the result of its function in common/ to output and an exit status; main.cpp adds them
// all and runs the one named. A fleet::Error thrown by a subcommand is reported by main.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "agents/agents.h"

namespace fleet_hooks {

// A subcommand added to the program's CLI::App, with what runs it once it was parsed (its
// exit status).
struct Subcommand {
  CLI::App* app;
  std::function<int()> run;
};
using AddSubcommand = Subcommand (*)(CLI::App& program);

// Each add_* below has the same shape by design (its options on a new subcommand, and the
// function that runs it over them): what differs is the options, so there is nothing to share.
Subcommand add_install(CLI::App& program);
Subcommand add_uninstall(CLI::App& program);
Subcommand add_check(CLI::App& program);
Subcommand add_verify(CLI::App& program);
Subcommand add_query(CLI::App& program);
Subcommand add_compact(CLI::App& program);
Subcommand add_replay(CLI::App& program);
Subcommand add_log(CLI::App& program);
Subcommand add_agents(CLI::App& program);

// What the subcommands share.

void print(const std::string& text);

// A usage error for the first --tool value that is not a tool name (it goes into a hook
// matcher, where anything but letters, digits, _ and - would be a regular expression).
std::optional<int> reject_bad_tools(const std::string& subcommand,
                                    const std::vector<std::string>& tools);

// Adds a repeatable --agent NAME (claude|codex|gemini) collecting into `agents`; another
// name is a usage error of the subcommand.
void add_agents_option(CLI::App& sub, std::vector<std::string>& agents, const std::string& help);

// The CLIs `agents` names, each once, in order; the default CLI when none is named.
std::vector<const fleet::AgentCli*> agents_named(const std::vector<std::string>& agents);

// --project made absolute, or the usage error for a directory that does not exist — or,
// with `settings_of_project` (the settings files inside the project are meant), for a
// project's .claude directory (a common slip: `--project .claude` would name
// .claude/.claude/settings.json); it is refused, naming the project to pass.
struct ProjectArgument {
  std::string dir;
  std::optional<int> exit_status;
};
ProjectArgument project_argument(const std::string& subcommand, const std::string& project,
                                 bool settings_of_project = true);

// The directory of the provenance store (--state-dir, else as everywhere else for the
// current project), made absolute; or the usage error for a --state-dir that is not a
// directory.
struct StateDirArgument {
  std::string dir;
  std::optional<int> exit_status;
};
StateDirArgument state_dir_argument(const std::string& subcommand, const std::string& state_dir);

}  // namespace fleet_hooks
