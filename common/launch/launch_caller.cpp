#include "launch/launch_caller.h"

#include <unistd.h>

#include "agent/agent_cli.h"
#include "process/caller_handover.h"

namespace fleet {

Result<std::string> launch_caller(const std::string& flag, std::span<const AgentCli* const> clis) {
  if (!flag.empty()) return flag;
  const HandedOverCaller handed = caller_from_handover(handover_directory(), ::getpid());
  if (handed.status == HandedOverCaller::Status::found) return handed.caller;
  // Claude Code and Qwen Code give their MCP servers the caller (AgentCli::caller_variable).
  if (handed.status != HandedOverCaller::Status::none)
    return Result<std::string>::failure(handed.problem);
  const Result<std::string> from_environment = caller_from_environment(clis);
  if (!from_environment) return from_environment;
  if (!from_environment->empty()) return *from_environment;
  return Result<std::string>::failure(handed.problem);
}

}  // namespace fleet
