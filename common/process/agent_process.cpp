#include "process/agent_process.h"

#include <array>

namespace fleet {
namespace {

// Programs that run a script named by their first argument that is not an option.
constexpr std::array<std::string_view, 3> kScriptRuntimes{"node", "nodejs", "bun"};
constexpr std::array<std::string_view, 3> kScriptSuffixes{".js", ".mjs", ".cjs"};

std::string_view base_name(std::string_view path) {
  return path.substr(path.find_last_of('/') + 1);
}

std::string_view without_script_suffix(std::string_view name) {
  for (const std::string_view suffix : kScriptSuffixes) {
    if (name.size() > suffix.size() && name.ends_with(suffix))
      return name.substr(0, name.size() - suffix.size());
  }
  return name;
}

bool names_program(const AgentProfile& agent, std::string_view name) {
  for (const std::string_view program : agent.programs) {
    if (name == program) return true;
  }
  return false;
}

// Whether `path` lies in one of `agent`'s npm packages: ".../node_modules/<package>/...".
bool in_package(const AgentProfile& agent, std::string_view path) {
  for (const std::string_view package : agent.packages) {
    const std::string folder = "node_modules/" + std::string(package) + "/";
    if (path.find(folder) != std::string_view::npos) return true;
  }
  return false;
}

bool is_script_runtime(std::string_view program) {
  for (const std::string_view runtime : kScriptRuntimes) {
    if (program == runtime) return true;
  }
  return false;
}

// The script a runtime's arguments run: the first that is not an option ("" : none).
std::string_view script_of(const std::vector<std::string>& arguments) {
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    if (!arguments[i].starts_with("-")) return arguments[i];
  }
  return {};
}

}  // namespace

const AgentProfile* agent_of_command(std::string_view name,
                                     const std::vector<std::string>& arguments,
                                     std::span<const AgentProfile* const> profiles) {
  const std::string_view program = arguments.empty() ? std::string_view() : arguments.front();
  const std::string_view script = is_script_runtime(base_name(program)) || is_script_runtime(name)
                                      ? script_of(arguments)
                                      : std::string_view();
  for (const AgentProfile* agent : profiles) {
    if (names_program(*agent, name) || names_program(*agent, base_name(program)) ||
        in_package(*agent, program))
      return agent;
    if (!script.empty() && (names_program(*agent, without_script_suffix(base_name(script))) ||
                            in_package(*agent, script)))
      return agent;
  }
  return nullptr;
}

const AgentProfile* agent_of_process(const ProcessLink& link,
                                     std::span<const AgentProfile* const> profiles) {
  return agent_of_command(link.name, process_arguments(link.pid), profiles);
}

}  // namespace fleet
