#pragma once
// `fleet-hooks check`: is the suite wired into Claude Code so that it protects the dispatch
// tool, and is its store safe? Reads the effective hook configuration (user, project and
// local settings: Claude Code runs the hooks of all three) and reports findings.
// Failing: every misconfiguration is a Finding in the result (a guard that cannot be run, a
// store that cannot be resolved: findings too); only an unexpected failure of the machine
// (e.g. starting a process) throws Error.

#include <string>
#include <vector>

#include "agent/agent_cli.h"
#include "base/finding.h"

namespace fleet {

struct CheckOptions {
  std::string project_dir;
  std::string user_settings;  // "" for none
  std::string state_dir;      // "" resolves as everywhere else, for project_dir
  // Dispatch tools that must be guarded besides the default: the tools the wired guards name
  // with --tool (for the tools their matchers select) and dispatch_food_truck when a guard's
  // matcher selects it or none names a tool.
  std::vector<std::string> tools;
  // Claude Code plugin directories whose hooks/hooks.json counts too (as with
  // `claude --plugin-dir`).
  std::vector<std::string> plugin_dirs;
  // The agent CLI whose wiring is checked. Claude Code: the user, project and local settings
  // and the plugins. Codex: `config_home`/hooks.json and the project's .codex/hooks.json.
  // Gemini: `gemini_dir`/settings.json and the project's .gemini/settings.json — the user's
  // file in `config_home` (agent_config_home) and the project's.
  const AgentCli* agent = nullptr;
  std::string config_home;  // of a CLI other than Claude Code; "" : the user's file is not read
  // The CLIs whose project hook file `agent` also runs (hook_file_hosts: Claude Code's, for
  // GitHub Copilot CLI). When `agent`'s own files hold no guard and a host's file does, that file
  // is checked as its CLI reads it, with `agent`'s trust of it.
  std::vector<const AgentCli*> hosts;
};

// Rules: settings-invalid, settings-ignored, guard-missing, matcher-misses-mcp,
// matcher-misses-dispatch, matcher-misses-other-cli, matcher-too-broad, timeout,
// binary-missing, guard-does-not-deny, plugin-missing (errors); settings-duplicate-key,
// guard-fail-open, guard-wired-twice (the plugin and a settings entry both guard a tool),
// writer-missing and the writer's findings (warnings); store-unsafe (error). The settings are read
// as Claude Code reads them (settings_file.h); hook commands are resolved with this machine's PATH.
struct CheckResult {
  std::vector<Finding> findings;
  std::vector<std::string> checked_tools;  // the dispatch tools that were required
};
CheckResult check_wiring(const CheckOptions& options);

// True when the hook files `options.agent` reads (those check_wiring reads) hold any of the
// suite's entries — its guard, writer or session-start hook, working or not: the CLIs
// `fleet-hooks check` without --agent checks. Never throws.
bool suite_wired(const CheckOptions& options);

// Of check_wiring's findings, only those that say the agent CLI will not run the suite's hooks
// it reads because they are not trusted or turned off (codex-*, gemini-*); none for Claude
// Code. Runs nothing. For the note after `fleet-hooks install --agent`.
std::vector<Finding> trust_findings(const CheckOptions& options);

}  // namespace fleet
