#pragma once
// The texts of the programs' help and messages that name the agent CLIs, written from their
// rows (agent_clis(), agent_profiles()), so that a new CLI's home changes them too. Each is
// a phrase the caller places in its own sentence.
// Failing: nothing; a text about CLIs of which none has the fact is "".

#include <string>
#include <string_view>

#include "agent/agent_cli.h"

namespace fleet {

// Each CLI with the file install wires in a project: "claude (.claude/settings.json), codex
// (.codex/hooks.json), … or opencode (.opencode/plugins/fleet-hooks-guard.js)".
std::string wired_files_text();

// The same, with what else `check` reads before the CLI runs that file's hooks:
// "…, codex (.codex/hooks.json and its trust), …".
std::string checked_wiring_text();

// Where `install --trust` writes each CLI's trust: "with --agent codex, the project and the
// suite's own hooks in $CODEX_HOME/config.toml; with --agent copilot, …".
std::string trust_written_text();

// The names of the CLIs whose trust `install --trust` writes: "Codex or GitHub Copilot CLI".
std::string trust_writers_text();

// `--agent` with each of those CLIs: "--agent codex or --agent copilot".
std::string trust_writer_options_text();

// The one step that trusts `agent`'s wiring of `project_dir`: "fleet-hooks install --project
// DIR --agent codex --trust" for a CLI whose trust install writes, else "run `gemini` in DIR and
// trust the folder".
std::string trust_step(const AgentCli& agent, const std::string& project_dir);

// The user's own hook file of each CLI that has one: "~/.claude/settings.json, …".
std::string user_hook_files_text();

// The CLIs with local and user settings files (fleet-hooks --scope): "Claude Code".
std::string scoped_clis_text();

// Those files: "local (.claude/settings.local.json) or user (~/.claude/settings.json, or
// $CLAUDE_CONFIG_DIR/settings.json when set)".
std::string scope_files_text();

// The default CLI's hook event `event` (&AgentCli::post_tool_event), then each CLI's that
// differs: "PostToolUse (Gemini CLI: AfterTool)".
std::string hook_event_text(std::string_view AgentCli::*event);

// The CLIs that pick their own session ids, with the hook that records their launch:
// "Codex CLI's SessionStart hook and OpenCode's plugin's chat.message handler".
std::string start_hooks_text();

// The names of those CLIs: "Codex CLI and OpenCode".
std::string self_naming_clis_text();

// The CLIs whose MCP calls carry what names their caller (AgentCli::mcp_call), each with what:
// "Claude Code: its call id; Codex CLI: its session".
std::string mcp_call_clis_text();

// The transcript record types that may carry a completion marker, each once:
// "assistant, event_msg, gemini, … or text".
std::string record_types_text();

// Where the completion watch reads each CLI's turns by default: its session file
// (AgentProfile::session_file_shown), or, for the CLIs without one, last, their stdout:
// "claude: ~/.claude/projects/<munged cwd>/<session id>.jsonl; codex: …; qwen and opencode:
// their stdout".
std::string session_files_text();

// The plugin directories a CLI loads hooks from, each with its command: "Claude Code plugin
// directory loaded with claude --plugin-dir".
std::string plugin_dirs_text();

}  // namespace fleet
