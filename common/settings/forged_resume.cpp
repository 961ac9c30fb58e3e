#include "settings/forged_resume.h"

#include <unistd.h>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/json.h"
#include "hook/hook_protocol.h"
#include "hook/tool_names.h"
#include "process/child_process.h"
#include "process/subprocess.h"
#include "settings/hook_wiring.h"

namespace fleet {

// True when `out` is `agent`'s deny (hook_protocol.h's pre_tool_use_deny).
namespace {

constexpr const char* kForgedSession = "f0f0f0f0-0000-4000-8000-00000000f0f0";

bool is_deny(const std::string& out, const AgentCli& agent) {
  const Result<rapidjson::Document> output = parse_json_object(out);
  if (!output) return false;
  const rapidjson::Value* decision = &*output;
  if (*agent.deny.wrapper != '\0') decision = member(*output, agent.deny.wrapper);
  return decision != nullptr && string_member(*decision, agent.deny.decision_key) == "deny";
}

}  // namespace

ForgeryOutcome run_forgery(const ConfiguredHook& hook, const std::string& tool,
                           const std::string& project_dir, const AgentCli& agent) {
  char state_template[] = "/tmp/fleet-hooks-check-XXXXXX";
  if (::mkdtemp(state_template) == nullptr)
    return {false, "cannot create a temporary state directory"};
  const std::string state = state_template;
  const std::string input = pre_tool_use_input(
      kForgedSession, mcp_tool_name("kitchen", tool, agent), kForgedSession, project_dir, agent);

  std::vector<std::string> env = {"FLEET_HOOKS_STATE_DIR=" + state};
  if (!agent.project_dir_variable.empty())
    env.push_back(std::string(agent.project_dir_variable) + "=" + project_dir);
  if (!hook.plugin_root.empty())
    env.push_back(std::string(agent.hook_plugins.root_variable) + "=" + hook.plugin_root);
  const double seconds =
      hook.timeout ? *hook.timeout / hook_timeout_value(agent, 1) : kHookTimeoutSeconds;
  CommandResult result;
  try {
    result = run_shell_command(hook.command, input, environment_with(env),
                               std::chrono::milliseconds(static_cast<long long>(seconds * 1000)));
  } catch (const Error& e) {
    ::rmdir(state.c_str());
    return {false, e.what()};
  }
  ::rmdir(state.c_str());
  if (result.timed_out) return {false, "it did not answer within its timeout"};
  if (result.exit_code == exit_status::hook_blocks) {
    if (!result.err.starts_with("fleet-hooks: ")) return {true, ""};
    return {true, "", result.err};
  }
  if (result.exit_code == 0 && is_deny(result.out, agent)) return {true, ""};
  return {false, "exit " + std::to_string(result.exit_code) + ", stdout '" +
                     result.out.substr(0, 200) + "', stderr '" + result.err.substr(0, 200) + "'"};
}

}  // namespace fleet
