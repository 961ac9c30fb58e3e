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
                              const std::vector<std::string>& checked_tools, const AgentCli& agent);

// The agent CLIs `fleet-hooks check` checks: `checked`; when it chose them (no --agent),
// those wired in the project, and `unwired` the others.
struct CheckedClis {
  std::vector<const AgentCli*> checked;
  std::vector<const AgentCli*> unwired;
  bool chosen = false;
  bool none_wired = false;  // chosen, and no CLI is wired: `unwired` holds every CLI
};

// The first line of `fleet-hooks check` when it chose the CLIs: which it checks and why, or
// that none is wired in `project_dir` and how to wire one; "" when --agent named them.
std::string checked_clis_text(const CheckedClis& clis, const std::string& project_dir);

// A JSON array of {"rule","severity","message","file"}.
std::string findings_json(const std::vector<Finding>& findings);

bool has_errors(const std::vector<Finding>& findings);

// Whether `findings` hold errors and trusting the wiring fixes each (Finding::fixed_by_trust).
bool only_untrusted(const std::vector<Finding>& findings);

}  // namespace fleet
