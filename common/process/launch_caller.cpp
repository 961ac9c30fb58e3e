#include "process/launch_caller.h"

#include <unistd.h>

#include <optional>

#include "agent/agent_cli.h"
#include "base/json.h"
#include "base/paths.h"
#include "process/agent_process.h"
#include "process/call_handover.h"
#include "process/caller_handover.h"

namespace fleet {
namespace {

// The caller resume-guard handed over for the call `call` (its id or token), or why none.
Result<std::string> caller_handed_over_for(std::string_view call) {
  const HandedOverCaller handed = caller_of_call(handover_directory(), call);
  if (handed.status == HandedOverCaller::Status::found) return handed.caller;
  return Result<std::string>::failure(handed.problem);
}

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
    return caller_handed_over_for(*call);
  }
  return std::nullopt;
}

// The caller the call `arguments` name by the call token of one of `clis`
// (McpCallBinding::token_argument); nullopt when they hold none. A token no guard handed over
// names no caller: the launch is refused, never answered from the ancestry.
std::optional<Result<std::string>> caller_from_arguments(const rapidjson::Value& arguments,
                                                         std::span<const AgentCli* const> clis) {
  for (const AgentCli* cli : clis) {
    const std::string key(cli->mcp_call.token_argument);
    if (key.empty() || !binds_call_token(*cli)) continue;
    const rapidjson::Value* token = member(arguments, key.c_str());
    if (token == nullptr) continue;
    if (!token->IsString() || token->GetStringLength() == 0) {
      return Result<std::string>::failure("the call's argument " + key +
                                          " is not a call token resume-guard handed over");
    }
    return caller_handed_over_for(std::string_view(token->GetString(), token->GetStringLength()));
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

// The caller `call` names (its _meta, or its arguments' call token); nullopt when it names
// none; a failure when it is not what its option takes.
std::optional<Result<std::string>> caller_named_by_call(const DispatchCall& call,
                                                        std::span<const AgentCli* const> clis) {
  rapidjson::Document meta_only;
  const rapidjson::Value* meta = nullptr;
  const rapidjson::Value* arguments = nullptr;
  Result<rapidjson::Document> params = parse_json_object(call.params.empty() ? "{}" : call.params);
  if (!params) {
    return Result<std::string>::failure(
        "--mcp-call is not the call's tools/call params as a JSON object (" + params.problem() +
        ")");
  }
  if (!call.meta.empty()) {
    Result<rapidjson::Document> parsed = parse_json_object(call.meta);
    if (!parsed) {
      return Result<std::string>::failure("--mcp-meta is not the call's _meta as a JSON object (" +
                                          parsed.problem() + ")");
    }
    meta_only = std::move(*parsed);
    meta = &meta_only;
  } else if (const rapidjson::Value* m = member(*params, "_meta"); m != nullptr && m->IsObject()) {
    meta = m;
  }
  if (const rapidjson::Value* a = member(*params, "arguments"); a != nullptr && a->IsObject())
    arguments = a;
  if (meta != nullptr) {
    if (auto caller = caller_from_meta(*meta, clis)) return caller;
  }
  if (arguments != nullptr) return caller_from_arguments(*arguments, clis);
  return std::nullopt;
}

// A refusal when the dispatcher passed the whole call (--mcp-call) and it carries no call token,
// though the nearest agent CLI above this launch gives one to every dispatch call its guard lets
// through (binds_call_token): the call came from another process than that CLI (another L3
// reaching a dispatcher service started from its shell), and the handover there would name the
// wrong caller. nullopt otherwise.
std::optional<Result<std::string>> call_without_token(const DispatchCall& call,
                                                      const LaunchAncestry& above,
                                                      std::span<const AgentCli* const> clis) {
  if (call.params.empty() || above.agent.empty()) return std::nullopt;
  for (const AgentCli* cli : clis) {
    if (cli->name != above.agent || !binds_call_token(*cli)) continue;
    return Result<std::string>::failure(
        "the dispatch call carries no call token, though " + std::string(cli->display_name) +
        " (pid " + std::to_string(above.agent_pid) + ") above this launch gets one (the argument " +
        std::string(cli->mcp_call.token_argument) +
        ") from resume-guard for every dispatch call it lets through: the call came from another "
        "process (another L3 reaching a dispatcher shared with it, whose handover would name the "
        "wrong caller: give each L3 its own dispatcher), or no resume-guard judged it (run "
        "fleet-hooks check --agent " +
        std::string(cli->name) + ")");
  }
  return std::nullopt;
}

}  // namespace

std::string uncertain_caller(std::string_view what, std::string_view problem,
                             std::string_view nothing) {
  return std::string(what) + " needs the caller, and it is not certain" +
         (problem.empty() ? std::string() : ": " + std::string(problem)) + "; " +
         std::string(nothing) +
         ". Wire resume-guard on the dispatch tool (fleet-hooks install), or pass "
         "--caller-session-id <the dispatching session's id>";
}

std::string launch_state_dir(const std::string& flag, const std::string& caller) {
  if (!caller.empty() && project_taken_from_current_directory(flag)) {
    if (auto judged = state_dir_of_caller(handover_directory(), caller)) return *judged;
  }
  return resolve_state_dir(flag, "");
}

Result<std::string> launch_caller(const std::string& flag, const CallerClis& known,
                                  const DispatchCall& call) {
  if (!flag.empty()) return flag;
  if (auto named = caller_named_by_call(call, known.clis)) return *named;
  const auto recognize = [&known](const ProcessLink& link) {
    const AgentProfile* agent = agent_of_process(link, known.profiles);
    return agent == nullptr ? std::string() : std::string(agent->name);
  };
  const LaunchAncestry above = launch_ancestry(::getpid(), recognize);
  if (auto foreign = call_without_token(call, above, known.clis)) return *foreign;
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
