#pragma once
// `fleet-hooks check`: is the suite wired into Claude Code so that it protects the dispatch
// tool, and is its store safe? Reads the effective hook configuration (user, project and
// local settings: Claude Code runs the hooks of all three) and reports findings.

#include <string>
#include <vector>

namespace fleet {

struct Finding {
  std::string rule;      // e.g. "guard-missing"
  std::string severity;  // "error" or "warning"
  std::string message;
  std::string file;  // the settings file or store concerned, "" when none
};

struct CheckOptions {
  std::string project_dir;
  std::string user_settings;  // "" for none
  std::string state_dir;      // "" resolves as everywhere else, for project_dir
};

// Rules: settings-invalid, guard-missing, matcher-misses-mcp, matcher-misses-dispatch,
// matcher-too-broad, timeout, binary-missing, guard-does-not-deny (errors); writer-missing
// and the writer's matcher/timeout findings (warnings); store-unsafe (error).
std::vector<Finding> check_wiring(const CheckOptions& options);

// One line per finding: "<severity> <rule>: <message> (<file>)".
std::string findings_text(const std::vector<Finding>& findings);

// A JSON array of {"rule","severity","message","file"}.
std::string findings_json(const std::vector<Finding>& findings);

bool has_errors(const std::vector<Finding>& findings);

}  // namespace fleet
