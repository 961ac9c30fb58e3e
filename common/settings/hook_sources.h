#pragma once
// The hook commands Claude Code will run for a project on this machine: those of the user,
// project and local settings files (read the way Claude Code reads them) and of the Claude
// Code plugins that are enabled or named, with problems that make hooks silently not run
// reported as findings.
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
  std::string plugin_root;  // the plugin's directory (${CLAUDE_PLUGIN_ROOT}), "" for settings
  // The entry's "type" when it is a string. Claude Code runs an entry's command only when its
  // type is "command" (the others are "prompt", "agent", "http").
  std::optional<std::string> type;
  std::string name;     // the entry's "name" (Gemini CLI), "" when none
  int group_index = 0;  // the place of the entry in its file: "hooks".<event>[group_index]
  int entry_index = 0;  // ."hooks"[entry_index] (what Codex keys its hook trust by)
};

struct HookSourceOptions {
  std::vector<std::string> settings_files;  // in Claude Code's order: user, project, local
  std::vector<std::string> plugin_dirs;     // `claude --plugin-dir` directories
  std::string config_dir;  // Claude Code's ($CLAUDE_CONFIG_DIR or ~/.claude), for plugins
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

// The executable a hook command runs on this machine, as /bin/sh would find it: quotes
// removed, $CLAUDE_PROJECT_DIR, $CLAUDE_PLUGIN_ROOT and a leading ~/ expanded, a bare name
// looked up on PATH. nullopt when a bare name is not found.
std::optional<std::string> resolve_hook_executable(const ConfiguredHook& hook,
                                                   const std::string& project_dir);

}  // namespace fleet
