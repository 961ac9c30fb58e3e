#pragma once
// The wiring of an agent CLI that runs no hook commands but loads plugins (AgentCli::plugin:
// OpenCode): `fleet-hooks install` writes the suite's plugin file into the project's plugin
// folder, the bytes the suite ships but for one line, which lists the `--tool` names
// (PluginWiring::tools_line); `uninstall` removes that file (and the plugin folder, and the
// folder above it, when that leaves them empty) and nothing else; `check` reads the tools line
// back and fails unless the file holds exactly what install writes for those names and the
// guard it runs is on PATH — a plugin that does not load, or calls a program that is not
// there, is skipped or refuses without a word from the CLI.
// Failing: install and uninstall throw Error (nothing changed); check's problems are Findings.

#include <string>
#include <vector>

#include "agent/agent_cli.h"
#include "base/finding.h"
#include "settings/settings_update.h"

namespace fleet {

// `agent`'s plugin file in `project_dir` (<project>/.opencode/plugins/fleet-hooks-guard.js).
std::string plugin_file(const std::string& project_dir, const AgentCli& agent);

// What install (the shipped bytes, the plugin's tools line (PluginWiring::tools_line) listing
// `tools`, the --tool names; a file that holds other bytes keeps them in a backup, as a
// settings file does) or uninstall (SettingsUpdate::removed_files: the plugin file) does to
// `agent`'s plugin file in `project_dir`. Writes nothing. Throws Error.
SettingsUpdate plan_plugin_update(const std::string& project_dir, const AgentCli& agent,
                                  SettingsAction action, const std::vector<std::string>& tools);

// Carries out `update` of plan_plugin_update: writes the file (creating the plugin folder), or
// removes it and the folders it leaves empty. Throws Error.
void apply_plugin_update(const SettingsUpdate& update);

// True when `agent`'s plugin file is in `project_dir`, whatever it holds.
bool plugin_present(const std::string& project_dir, const AgentCli& agent);

// What check says of `agent`'s plugin in `project_dir`: the findings <name>-plugin-missing,
// <name>-plugin-differs (not what install writes for any --tool names: another version, or
// edited; its tools line is read back), guard-missing (a tool of `required`, check's --tool
// names, the plugin does not guard) and binary-missing (resume-guard not on PATH: every
// dispatch is refused), all errors; and the tools checked: `required`, else those the plugin
// guards.
struct PluginCheck {
  std::vector<Finding> findings;
  std::vector<std::string> checked_tools;
};
PluginCheck check_plugin(const std::string& project_dir, const AgentCli& agent,
                         const std::vector<std::string>& required);

}  // namespace fleet
