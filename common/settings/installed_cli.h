#pragma once
// What `fleet-hooks check --agent NAME` learns from the agent CLI installed on this machine
// (doc/fleet-hooks.md, "check"): whether it is newer than the version the suite's facts about
// it were checked with (AgentCli::version_checked), and, for Codex, whether Codex itself
// reports the suite's hooks as trusted (codex_hooks_list.h).
// Failing: nothing throws; a CLI that is not installed, or does not answer, adds nothing but
// a warning.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_cli.h"
#include "base/finding.h"

namespace fleet {

// The first dotted version number in `text` ("codex-cli 0.169.0" → "0.169.0"); nullopt when
// none.
std::optional<std::string> version_in(std::string_view text);

// Whether the dotted version `a` is newer than `b`, number by number.
bool version_newer(const std::string& a, const std::string& b);

// The findings about `agent` as installed (its program, AgentCli::name, found on PATH):
// agent-cli-newer (warning: `<name> --version` is newer than version_checked, naming both),
// and for a CLI whose hook trust is Codex's, codex_reported_findings(project_dir,
// !has_errors(own)). Nothing when the program is not on PATH.
std::vector<Finding> installed_cli_findings(const AgentCli& agent, const std::string& project_dir,
                                            const std::vector<Finding>& own);

}  // namespace fleet
