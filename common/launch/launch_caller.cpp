#include "launch/launch_caller.h"

#include <unistd.h>

#include <optional>

#include "agent/agent_cli.h"
#include "base/json.h"
#include "base/paths.h"
#include "launch/agent_process.h"
#include "process/call_handover.h"
#include "process/caller_handover.h"

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

// The caller the nearest agent CLI above this launch names to its MCP servers (its
// AgentCli::caller_variable, in this process's environment), when that CLI is known (`handed`
// names it) and did not inherit the variable itself; "" when no CLI's caller variable is set.
Result<std::string> caller_of_nearest_cli(const LaunchAncestry& above,
                                          std::span<const AgentCli* const> clis) {
  std::string set;  // "VARIABLE=value" of each caller variable set
  const AgentCli* nearest = nullptr;
  for (const AgentCli* cli : clis) {
    if (cli->name == above.agent) nearest = cli;
    const std::string value = cli->caller_variable.empty()
                                  ? std::string()
                                  : env_value(std::string(cli->caller_variable).c_str());
    if (!value.empty())
      set += (set.empty() ? "" : ", ") + std::string(cli->caller_variable) + "=" + value;
  }
  if (set.empty()) return std::string();
  const std::string why = "so " + set + " is not taken for the caller: a process inherits a " +
                          "CLI's variable from any CLI above it";
  if (nearest == nullptr) {
    return Result<std::string>::failure("no agent CLI process was recognised above this launch, " +
                                        why);
  }
  const std::string named =
      std::string(nearest->display_name) + " (pid " + std::to_string(above.agent_pid) + ")";
  const std::string variable(nearest->caller_variable);
  const std::string value = variable.empty() ? "" : env_value(variable.c_str());
  if (value.empty()) {
    return Result<std::string>::failure("the agent CLI above this launch is " + named +
                                        ", which names no caller to its MCP servers, " + why);
  }
  if (process_environment_variable(above.agent_pid, variable) == value) {
    return Result<std::string>::failure("the agent CLI above this launch, " + named +
                                        ", was itself started with " + variable + "=" + value +
                                        " (it inherited it), " + why);
  }
  return value;
}

}  // namespace

std::string launch_state_dir(const std::string& flag, const std::string& caller) {
  if (!caller.empty() && project_taken_from_current_directory(flag)) {
    if (auto judged = state_dir_of_caller(handover_directory(), caller)) return *judged;
  }
  return resolve_state_dir(flag, "");
}

Result<std::string> launch_caller(const std::string& flag, const CallerClis& known,
                                  const std::string& mcp_meta) {
  if (!flag.empty()) return flag;
  if (!mcp_meta.empty()) {
    const Result<rapidjson::Document> meta = parse_json_object(mcp_meta);
    if (!meta) {
      return Result<std::string>::failure("--mcp-meta is not the call's _meta as a JSON object (" +
                                          meta.problem() + ")");
    }
    if (auto caller = caller_from_meta(*meta, known.clis)) return *caller;
  }
  const auto recognize = [&known](const ProcessLink& link) {
    const AgentProfile* agent = agent_of_process(link, known.profiles);
    return agent == nullptr ? std::string() : std::string(agent->name);
  };
  const LaunchAncestry above = launch_ancestry(::getpid(), recognize);
  const HandedOverCaller handed = caller_from_handover(handover_directory(), above);
  if (handed.status == HandedOverCaller::Status::found) return handed.caller;
  // Claude Code, Qwen Code and Copilot CLI give their MCP servers the caller.
  if (handed.status != HandedOverCaller::Status::none)
    return Result<std::string>::failure(handed.problem);
  const Result<std::string> from_environment = caller_of_nearest_cli(above, known.clis);
  if (!from_environment) return from_environment;
  if (!from_environment->empty()) return *from_environment;
  return Result<std::string>::failure(handed.problem);
}

}  // namespace fleet
