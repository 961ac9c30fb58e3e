#pragma once
// What `fleet-hooks check` prints: its findings as lines for a person or as JSON, and the
// "ok:" line when nothing is wrong (doc/fleet-hooks.md, "check").
// Failing: nothing here fails.

#include <string>
#include <vector>

#include "agent/agent_cli.h"
#include "base/finding.h"

namespace fleet {

// One line per finding: "<severity> <rule>: <message> (<file>)".
std::string findings_text(const std::vector<Finding>& findings);

// What `fleet-hooks check` prints for a person: findings_text, then, when no finding is an
// error, one "ok:" line naming the dispatch tools (`checked_tools`) the guard protects.
std::string check_report_text(const std::vector<Finding>& findings,
                              const std::vector<std::string>& checked_tools,
                              const AgentCli& agent = claude_code());

// A JSON array of {"rule","severity","message","file"}.
std::string findings_json(const std::vector<Finding>& findings);

bool has_errors(const std::vector<Finding>& findings);

}  // namespace fleet
