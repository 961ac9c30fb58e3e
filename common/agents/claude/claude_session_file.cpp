#include "agents/claude/claude_session_file.h"

#include "agents/claude/claude_project_folder.h"
#include "base/paths.h"

namespace fleet {

std::string claude_session_file(const std::string& session_id, const std::string& cwd) {
  const std::string base = env_or_home("CLAUDE_CONFIG_DIR", "/.claude");
  return base + "/projects/" + claude_project_folder(cwd) + "/" + session_id + ".jsonl";
}

}  // namespace fleet
