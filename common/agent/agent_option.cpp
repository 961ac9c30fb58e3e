#include "agent/agent_option.h"

#include <string>
#include <vector>

namespace fleet {

CLI::Option* add_agent_option(CLI::App& app, const AgentCli*& agent) {
  std::vector<std::string> names;
  for (const AgentCli* cli : agent_clis()) names.emplace_back(cli->name);
  return app
      .add_option_function<std::string>(
          "--agent", [&agent](const std::string& name) { agent = find_agent_cli(name); },
          "The agent CLI that runs this hook: its hook input is read and answered in its "
          "dialect (default: claude)")
      ->check(CLI::IsMember(names));
}

}  // namespace fleet
