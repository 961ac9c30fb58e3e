#include "agent/agent_cli.h"

#include <cstdlib>

#include "base/error.h"
#include "base/word_list.h"

namespace fleet {

std::optional<std::string> known_config_home(const AgentCli& agent) {
  if (!agent.config_home_variable.empty()) {
    const char* set = std::getenv(std::string(agent.config_home_variable).c_str());
    if (set != nullptr && *set != '\0') return set;
  }
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0')
    return std::string(home) + "/" + std::string(agent.config_home_default);
  return std::nullopt;
}

std::string agent_config_home(const AgentCli& agent) {
  if (std::optional<std::string> home = known_config_home(agent)) return *home;
  const std::string variable(agent.config_home_variable);
  throw Error((variable.empty() ? "HOME is not set" : "neither " + variable + " nor HOME is set") +
              ", so where " + std::string(agent.display_name) +
              " keeps its configuration is unknown: set " +
              (variable.empty() ? "HOME" : variable + " (or HOME)") + " and run it again");
}

std::vector<McpToolNameForm> hook_file_mcp_forms(const AgentCli& agent) {
  std::vector<McpToolNameForm> forms = {agent.mcp};
  for (const HookFileReader& reader : agent.also_read_by) forms.push_back(reader.mcp);
  return forms;
}

int hook_timeout_value(const AgentCli& agent, int seconds) {
  return agent.timeout_unit == TimeoutUnit::milliseconds ? seconds * 1000 : seconds;
}

std::vector<const AgentCli*> agent_clis_with(std::span<const AgentCli* const> clis,
                                             bool (*has)(const AgentCli&)) {
  std::vector<const AgentCli*> chosen;
  for (const AgentCli* agent : clis) {
    if (has(*agent)) chosen.push_back(agent);
  }
  return chosen;
}

std::string agent_cli_list(std::span<const AgentCli* const> clis, std::string_view AgentCli::*field,
                           std::string_view separator, std::string_view last_separator,
                           std::string_view prefix) {
  std::vector<std::string> values;
  for (const AgentCli* agent : clis) {
    if (!(agent->*field).empty())
      values.push_back(std::string(prefix) + std::string(agent->*field));
  }
  return word_list(values, separator, last_separator);
}

Result<std::string> caller_from_environment(std::span<const AgentCli* const> clis) {
  std::string caller;
  std::string named;  // "VARIABLE=value" of each variable set
  for (const AgentCli* agent : clis) {
    if (agent->caller_variable.empty()) continue;
    const std::string variable(agent->caller_variable);
    const char* value = std::getenv(variable.c_str());
    if (value == nullptr || *value == '\0') continue;
    named += (named.empty() ? "" : ", ") + variable + "=" + value;
    if (!caller.empty() && caller != value) {
      return Result<std::string>::failure(
          "the environment names different calling sessions (" + named +
          "): a CLI started from another CLI's shell inherits its variable too, so which one "
          "called is not certain");
    }
    caller = value;
  }
  return caller;
}

}  // namespace fleet
