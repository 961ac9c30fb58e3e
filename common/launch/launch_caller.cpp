#include "launch/launch_caller.h"

#include <unistd.h>

#include "base/paths.h"
#include "process/caller_handover.h"

namespace fleet {

Result<std::string> launch_caller(const std::string& flag) {
  if (!flag.empty()) return flag;
  const HandedOverCaller handed = caller_from_handover(handover_directory(), ::getpid());
  if (handed.status == HandedOverCaller::Status::found) return handed.caller;
  // Claude Code gives its MCP servers the caller; no other CLI does (doc/agents.md).
  std::string from_environment = env_value("CLAUDE_CODE_SESSION_ID");
  if (handed.status == HandedOverCaller::Status::none && !from_environment.empty())
    return from_environment;
  return Result<std::string>::failure(handed.problem);
}

}  // namespace fleet
