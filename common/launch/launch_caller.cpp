#include "launch/launch_caller.h"

#include <unistd.h>

#include <optional>

#include "agent/agent_cli.h"
#include "base/json.h"
#include "base/paths.h"
#include "process/call_handover.h"

namespace fleet {
namespace {

// The caller `meta` (a call's _meta) names through the McpCallBinding of one of `clis`;
// nullopt when it names nothing they know.
std::optional<Result<std::string>> caller_from_meta(const rapidjson::Value& meta,
                                                    std::span<const AgentCli* const> clis) {
  for (const AgentCli* cli : clis) {
    const McpCallBinding& binding = cli->mcp_call;
    if (binding.session_path.empty()) continue;
    const rapidjson::Value* session = member_at_path(meta, binding.session_path);
    if (session != nullptr && session->IsString() && session->GetStringLength() > 0)
      return Result<std::string>(std::string(session->GetString(), session->GetStringLength()));
  }
  for (const AgentCli* cli : clis) {
    const McpCallBinding& binding = cli->mcp_call;
    if (binding.call_id_key.empty()) continue;
    const auto call = string_member(meta, std::string(binding.call_id_key).c_str());
    if (!call || call->empty()) continue;
    const HandedOverCaller handed = caller_of_call(handover_directory(), *call);
    if (handed.status == HandedOverCaller::Status::found) return Result<std::string>(handed.caller);
    return Result<std::string>::failure(handed.problem);
  }
  return std::nullopt;
}

}  // namespace

std::string launch_state_dir(const std::string& flag, const std::string& caller) {
  if (!caller.empty() && project_taken_from_current_directory(flag)) {
    if (auto judged = state_dir_of_caller(handover_directory(), caller)) return *judged;
  }
  return resolve_state_dir(flag, "");
}

Result<std::string> launch_caller(const std::string& flag, std::span<const AgentCli* const> clis,
                                  const std::string& mcp_meta) {
  if (!flag.empty()) return flag;
  if (!mcp_meta.empty()) {
    const Result<rapidjson::Document> meta = parse_json_object(mcp_meta);
    if (!meta) {
      return Result<std::string>::failure("--mcp-meta is not the call's _meta as a JSON object (" +
                                          meta.problem() + ")");
    }
    if (auto caller = caller_from_meta(*meta, clis)) return *caller;
  }
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
