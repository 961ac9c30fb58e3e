#include "subcommand.h"

#include <algorithm>
#include <cstdio>

#include "base/exit_status.h"
#include "base/files.h"
#include "base/paths.h"
#include "hook/tool_names.h"

namespace fleet_hooks {

void print(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

void add_agents_option(CLI::App& sub, std::vector<std::string>& agents, const std::string& help) {
  std::vector<std::string> names;
  for (const fleet::AgentCli* agent : fleet::agent_clis()) names.emplace_back(agent->name);
  // `--agent codex,gemini` is one word: say how to name two.
  const CLI::Validator one_per_option(
      [](const std::string& value) -> std::string {
        if (value.find(',') == std::string::npos) return "";
        return "names one agent CLI: repeat --agent for each (--agent codex --agent gemini)";
      },
      "", "one-agent");
  sub.add_option("--agent", agents, help)
      ->check(one_per_option)
      ->check(CLI::IsMember(names))
      ->allow_extra_args(false)
      ->option_text(fleet::agent_cli_names("|"));
}

std::vector<const fleet::AgentCli*> agents_named(const std::vector<std::string>& agents) {
  std::vector<const fleet::AgentCli*> named;
  for (const std::string& name : agents) {
    const fleet::AgentCli* agent = fleet::find_agent_cli(name);
    if (agent != nullptr && std::find(named.begin(), named.end(), agent) == named.end())
      named.push_back(agent);
  }
  if (named.empty()) named.push_back(&fleet::default_agent_cli());
  return named;
}

std::optional<int> reject_bad_tools(const std::string& subcommand,
                                    const std::vector<std::string>& tools) {
  for (const std::string& tool : tools) {
    if (fleet::is_valid_tool_name(tool)) continue;
    std::fprintf(stderr,
                 "fleet-hooks %s: --tool must be a tool name (1-128 letters, digits, _ and -), "
                 "not '%s'\n",
                 subcommand.c_str(), tool.c_str());
    return fleet::exit_status::usage;
  }
  return std::nullopt;
}

namespace {

// The agent CLI whose project folder (the first part of its project_hook_file: ".claude")
// `dir` is, nullptr when none.
const fleet::AgentCli* cli_folder_named(const std::string& dir) {
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    const std::string_view file = agent->project_hook_file;
    if (dir.ends_with("/" + std::string(file.substr(0, file.find('/'))))) return agent;
  }
  return nullptr;
}

}  // namespace

ProjectArgument project_argument(const std::string& subcommand, const std::string& project,
                                 bool settings_of_project) {
  ProjectArgument argument{fleet::absolute_path(project), std::nullopt};
  if (fleet::directory_problem(argument.dir)) {
    std::fprintf(stderr, "fleet-hooks %s: the project directory %s does not exist (--project)\n",
                 subcommand.c_str(), argument.dir.c_str());
    argument.exit_status = fleet::exit_status::usage;
  } else if (const fleet::AgentCli* agent =
                 settings_of_project ? cli_folder_named(argument.dir) : nullptr) {
    const std::string_view file = agent->project_hook_file;
    const std::string folder(file.substr(0, file.find('/')));
    std::fprintf(stderr,
                 "fleet-hooks %s: --project %s is a project's %s directory, not a project "
                 "(its settings would be %s/%s); pass the project: --project %s (nothing was "
                 "changed)\n",
                 subcommand.c_str(), argument.dir.c_str(), folder.c_str(), argument.dir.c_str(),
                 std::string(file).c_str(), fleet::parent_directory(argument.dir).c_str());
    argument.exit_status = fleet::exit_status::usage;
  }
  return argument;
}

StateDirArgument state_dir_argument(const std::string& subcommand, const std::string& state_dir) {
  StateDirArgument argument{fleet::absolute_path(fleet::state_dir_for_project(
                                state_dir, fleet::resolve_project_root(""))),
                            std::nullopt};
  if (state_dir.empty()) return argument;
  if (const auto problem = fleet::directory_problem(argument.dir)) {
    std::fprintf(stderr, "fleet-hooks %s: state directory %s %s (--state-dir)\n",
                 subcommand.c_str(), argument.dir.c_str(), problem->c_str());
    argument.exit_status = fleet::exit_status::usage;
  }
  return argument;
}

}  // namespace fleet_hooks
