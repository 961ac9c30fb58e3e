#pragma once
// The agent CLIs the suite knows, one line per CLI in agents.cpp, and their lookups by the name
// `--agent` takes. Each CLI's rows (its AgentCli and AgentProfile) are in its home,
// common/agents/<name>/ (doc/development.md, "Adding a CLI"). Only the programs and this
// folder include this header: the floors below get the table they act for.
// The homes' rows (<name>_cli.cpp, <name>_profile.cpp) look alike by design, and a search
// for repeated code pairs them: each fills the same table with one CLI's facts, which is the
// seam, and there is no logic in them to share.
// Failing: an unknown name is nullptr.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_cli.h"
#include "agent/agent_profile.h"

namespace fleet {

// The CLI the programs speak when no --agent is given: the first of agent_clis(), the one row
// whose AgentCli::is_default is set.
const AgentCli& default_agent_cli();

// Claude Code's table (agents/claude/claude_cli.h).
const AgentCli& claude_code();

// Every CLI the suite knows, default_agent_cli() first.
std::span<const AgentCli* const> agent_clis();

// The CLI `name` names (AgentCli::name), nullptr for any other word.
const AgentCli* find_agent_cli(std::string_view name);

// The CLIs whose project hook file `reader` also runs the hooks of (AgentCli::also_read_by):
// Claude Code's, for GitHub Copilot CLI.
std::vector<const AgentCli*> hook_file_hosts(const AgentCli& reader);

// The names of agent_clis() joined by `separator` ("claude|codex|gemini").
std::string agent_cli_names(std::string_view separator);

// The display names of agent_clis() joined by `separator` ("Claude Code, Codex CLI, …").
std::string agent_cli_display_names(std::string_view separator);

// The profile of the CLI a launch runs when --agent is not given (Claude Code).
const AgentProfile& claude_profile();

// The profile named `name` (AgentProfile::name), nullptr for any other word.
const AgentProfile* find_agent_profile(std::string_view name);

// Every profile, claude_profile() first.
std::span<const AgentProfile* const> agent_profiles();

}  // namespace fleet
