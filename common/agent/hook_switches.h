#pragma once
// The switch-offs of an agent CLI: what, in a file the CLI reads or on a run's command line and
// environment, keeps it from running the suite's hooks (or changes the environment they run
// with) while its MCP servers, the dispatch tool among them, stay. A pull request can carry any
// such file, so `fleet-hooks check` reads every one (settings/switch_offs.h) and launch-wrapper
// warns of a run's (AgentProfile::run_switches, launch/command_line.h). The types only: each CLI's
// rows are in its home, with the version they were read from its code at.

#include <span>
#include <string_view>

namespace fleet {

// A boolean of the CLI's settings (members from the top, dot-separated) that, set to `off`,
// stops every hook: {"disableAllHooks", true}, {"hooksConfig.enabled", false}.
struct HooksOffSetting {
  std::string_view path;
  bool off;
  bool system_only = false;  // read only in SwitchFiles::system (Claude's allowManagedHooksOnly)
};

// Where the CLI reads settings besides its hook files (AgentCli::project_hook_file, its scopes
// and user_hook_file, which fleet-hooks check reads anyway), and .env files it loads.
struct SwitchFiles {
  // Absolute: managed or system-wide settings ("/etc/claude-code/managed-settings.json"); a
  // path ending in "/" is a folder of drop-in *.json files.
  std::span<const std::string_view> system;
  // From the project's root: settings files of the repository that are not hook files
  // (".github/copilot/settings.json").
  std::span<const std::string_view> project;
  // .env files the CLI loads into its own environment, which its hooks and MCP servers
  // inherit: from the project's root (".env", ".qwen/.env"), or from the home ("~/.env").
  std::span<const std::string_view> env_files;
  // .env files under the CLI's configuration directory (agent_config_home) it loads the same
  // way (Codex: $CODEX_HOME/.env).
  std::span<const std::string_view> config_env_files = {};
};

// A run's switch: the option `option` on the CLI's command line ("--bare"; also
// "--bare=<value>"), or the environment variable `variable` set to a non-empty value other
// than "0" and "false" ("CLAUDE_CODE_SIMPLE"). With `unless` set, the option is a switch only
// when its value's comma-separated words lack that word (--setting-sources without
// "project").
struct RunSwitch {
  std::string_view option;
  std::string_view variable;
  std::string_view unless = "";
  // The option is a switch only when its value's comma-separated words name this word (Codex's
  // --disable hooks); "" : any value.
  std::string_view when = "";
  std::string_view effect = "runs no hook";  // after the CLI's name, for the warning
};

struct HookSwitches {
  std::string_view version_checked;               // the CLI's version they were read at
  std::span<const HooksOffSetting> off_settings;  // in any settings file it reads
  std::string_view env_member;                    // "env": sets its hooks' environment
  SwitchFiles files;
  // The CLI's own variables that, set for it by a file, stop its hooks or replace their
  // commands (Claude Code's CLAUDE_CODE_SHELL_PREFIX, Qwen Code's QWEN_CODE_SAFE_MODE).
  std::span<const std::string_view> variables = {};
};

}  // namespace fleet
