#pragma once
// The hook commands an agent CLI will run for a project on this machine: those of its hook
// files (the user's, the project's and, with settings scopes, the local one; read the way the
// CLI reads them) and of its plugins that are enabled or named (AgentCli::hook_plugins), with
// problems that make hooks silently not run reported as findings.
// Failing: a settings or plugin file that cannot be used is a finding in the result, never an
// exception; an executable that is not found is nullopt.

#include <optional>
#include <string>
#include <vector>

#include "agent/agent_cli.h"
#include "base/finding.h"
#include "hook/hook_command.h"

namespace fleet {

struct ConfiguredHook {
  std::string file;  // the settings file or the plugin's hooks/hooks.json
  std::string event;
  std::string matcher;
  std::string command;
  HookCommand parsed;
  std::optional<double> timeout;
  std::string plugin_root;  // the plugin's directory (HookPlugins::root_variable), "" for settings
  // The entry's "type" when it is a string. Claude Code runs an entry's command only when its
  // type is "command" (the others are "prompt", "agent", "http").
  std::optional<std::string> type;
  std::string name;     // the entry's "name" (Gemini CLI), "" when none
  int group_index = 0;  // the place of the entry in its file: "hooks".<event>[group_index]
  int entry_index = 0;  // ."hooks"[entry_index] (what Codex keys its hook trust by)
};

struct HookSourceOptions {
  std::vector<std::string> settings_files;  // in the CLI's order: user, project, local
  std::vector<std::string> plugin_dirs;     // plugin directories named on its command line
  std::string config_dir;  // the CLI's configuration directory, for its installed plugins
  // Whose files these are: the events collected and the words of the findings.
  const AgentCli* agent = nullptr;
};

inline constexpr std::string_view kPluginName = "fleet-hooks";

struct HookSources {
  std::vector<ConfiguredHook> hooks;
  // What makes hooks silently not run: settings-invalid, settings-ignored (comments or
  // trailing commas: Claude Code drops the whole file), settings-duplicate-key (warning; the
  // last one counts), plugin-missing.
  std::vector<Finding> findings;
};

// Every command hook of the agent's pre-tool, post-tool and (where the suite wires one)
// session-start events, and the findings on their files.
HookSources collect_hooks(const HookSourceOptions& options);

// Where the guarded form of a bare name finds `name` on this machine: on PATH, else in the first
// of kInstallDirectories that holds it as an executable file. nullopt when neither does.
std::optional<std::string> find_suite_program(const std::string& name);

// The executable a hook command of `agent` runs on this machine, as /bin/sh would find it:
// quotes removed, the variables `agent` sets (AgentCli::project_dir_variable, its plugins'
// root_variable) and a leading ~/ expanded, a bare name looked up on PATH (and, where the
// command looks there too, in kInstallDirectories). nullopt when a bare name is not found.
std::optional<std::string> resolve_hook_executable(const ConfiguredHook& hook,
                                                   const std::string& project_dir,
                                                   const AgentCli& agent);

}  // namespace fleet
