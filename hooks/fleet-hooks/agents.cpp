// fleet-hooks agents: the agent CLIs this build knows (common/agents/agents.h), one line each,
// for people and for scripts (install.sh reads it instead of keeping its own list).

#include <string>

#include "base/exit_status.h"
#include "subcommand.h"

namespace fleet_hooks {
namespace {

// NAME, the project file install wires, the CLI's name and the version its facts were checked
// with, separated by tabs; the default CLI's line first.
std::string agents_text() {
  std::string text;
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    for (const std::string_view field :
         {agent->name, agent->project_hook_file, agent->display_name, agent->version_checked}) {
      text.append(field).push_back('\t');
    }
    text.back() = '\n';
  }
  return text;
}

}  // namespace

Subcommand add_agents(CLI::App& program) {
  CLI::App* sub = program.add_subcommand("agents",
                                         "List the agent CLIs --agent takes: name, project file, "
                                         "CLI, version checked (tab-separated)");
  return {sub, [] {
            print(agents_text());
            return fleet::exit_status::ok;
          }};
}

}  // namespace fleet_hooks
