#include "agents/copilot/copilot_session_file.h"

#include "base/paths.h"

namespace fleet {

std::string copilot_session_file(const std::string& session_id, const std::string&) {
  if (session_id.empty()) return "";
  return env_or_home("COPILOT_HOME", "/.copilot") + "/session-state/" + session_id +
         "/events.jsonl";
}

}  // namespace fleet
