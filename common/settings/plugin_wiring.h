#pragma once
// The wiring of an agent CLI that runs no hook commands but loads plugins (AgentCli::plugin:
// OpenCode): `fleet-hooks install` writes the suite's plugin file, with exactly the bytes the
// suite ships, into the project's plugin folder; `uninstall` removes that file (and the plugin
// folder, and the folder above it, when that leaves them empty) and nothing else; `check`
// fails unless the file holds exactly those bytes and the guard it runs is on PATH — a plugin
// that does not load, or calls a program that is not there, is skipped or refuses without a
// word from the CLI.
// Failing: install and uninstall throw Error (nothing changed); check's problems are Findings.

#include <string>
#include <vector>

#include "agent/agent_cli.h"
#include "base/finding.h"
#include "settings/settings_update.h"

namespace fleet {

// `agent`'s plugin file in `project_dir` (<project>/.opencode/plugins/fleet-hooks-guard.js).
std::string plugin_file(const std::string& project_dir, const AgentCli& agent);

// What install (the shipped bytes; a file that holds other bytes keeps them in a backup, as a
// settings file does) or uninstall (SettingsUpdate::removed_files: the plugin file) does to
// `agent`'s plugin file in `project_dir`. Writes nothing. Throws Error.
SettingsUpdate plan_plugin_update(const std::string& project_dir, const AgentCli& agent,
                                  SettingsAction action);

// Carries out `update` of plan_plugin_update: writes the file (creating the plugin folder), or
// removes it and the folders it leaves empty. Throws Error.
void apply_plugin_update(const SettingsUpdate& update);

// True when `agent`'s plugin file is in `project_dir`, whatever it holds.
bool plugin_present(const std::string& project_dir, const AgentCli& agent);

// Findings: <name>-plugin-missing, <name>-plugin-differs (not the bytes the suite ships:
// another version, or edited) and binary-missing (resume-guard not on PATH: every dispatch is
// refused), all errors.
std::vector<Finding> plugin_findings(const std::string& project_dir, const AgentCli& agent);

}  // namespace fleet
