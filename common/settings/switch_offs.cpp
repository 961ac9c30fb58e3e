#include "settings/switch_offs.h"

#include <algorithm>

#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

// `text` in double quotes, as a finding names a settings key ("hooks.disabled").
std::string in_quotes(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  return out.append("\"").append(text).append("\"");
}

using rapidjson::Value;

constexpr std::size_t kMaxEnvFileBytes = 1 << 20;

std::string home_path(std::string_view path) {
  return path.starts_with("~/") ? env_value("HOME") + std::string(path.substr(1))
                                : std::string(path);
}

// Every file of `agent` that may hold a switch: the hook files, then the others it reads.
std::vector<std::string> settings_files(const AgentCli& agent, const std::string& project_dir,
                                        const std::vector<std::string>& hook_files) {
  std::vector<std::string> files = hook_files;
  for (std::string_view file : agent.switches.files.project)
    files.push_back(project_dir + "/" + std::string(file));
  for (std::string_view file : agent.switches.files.system) {
    if (!file.ends_with("/")) {
      files.emplace_back(file);
      continue;
    }
    std::vector<std::string> drop_ins = names_newest_first(std::string(file));
    std::sort(drop_ins.begin(), drop_ins.end());
    for (const std::string& name : drop_ins) {
      if (name.ends_with(".json")) files.push_back(std::string(file) + name);
    }
  }
  std::vector<std::string> unique;
  for (const std::string& file : files) {
    if (std::find(unique.begin(), unique.end(), file) == unique.end()) unique.push_back(file);
  }
  return unique;
}

std::string what_it_changes(std::string_view name, const AgentCli& agent) {
  for (std::string_view own : agent.switches.variables) {
    if (name == own)
      return "how " + std::string(agent.display_name) +
             " runs its hooks (with it, not at all or "
             "not as wired)";
  }
  if (name == "PATH")
    return "which resume-guard its hooks run (a repository's own program on a PATH it sets)";
  return "what the suite's hooks do (the store the guard judges with, the kitchen, the project or "
         "the caller)";
}

bool is_system_file(const AgentCli& agent, const std::string& file) {
  for (std::string_view system : agent.switches.files.system) {
    if (system.ends_with("/") ? file.starts_with(system) : file == system) return true;
  }
  return false;
}

void setting_findings(const AgentCli& agent, const std::string& file,
                      std::vector<Finding>& findings) {
  const std::optional<rapidjson::Document> doc = lenient_settings(file);
  if (!doc) return;
  const std::string cli(agent.display_name);
  for (const HooksOffSetting& setting : agent.switches.off_settings) {
    if (setting.system_only && !is_system_file(agent, file)) continue;
    const Value* value = member_at_path(*doc, setting.path);
    if (value == nullptr || !value->IsBool() || value->GetBool() != setting.off) continue;
    findings.push_back({std::string(agent.name) + "-hooks-disabled", Severity::error,
                        in_quotes(setting.path) + ": " + (setting.off ? "true" : "false") + ": " +
                            cli +
                            " runs no hook at all, and every dispatch runs unguarded. Remove it",
                        file});
  }
  if (agent.switches.env_member.empty()) return;
  const Value* env = member_at_path(*doc, agent.switches.env_member);
  if (env == nullptr || !env->IsObject()) return;
  for (const auto& entry : env->GetObject()) {
    const std::string name(entry.name.GetString(), entry.name.GetStringLength());
    if (!suite_variable(name, agent)) continue;
    findings.push_back({"hook-environment", Severity::error,
                        in_quotes(agent.switches.env_member) + " sets " + name + " for " + cli +
                            "'s hooks, which changes " + what_it_changes(name, agent) +
                            ". Remove it from " + in_quotes(agent.switches.env_member),
                        file});
  }
}

// The .env files of `agent` that exist to be read, as paths.
std::vector<std::string> env_files(const AgentCli& agent, const std::string& project_dir,
                                   const std::string& config_home) {
  std::vector<std::string> files;
  for (std::string_view name : agent.switches.files.env_files)
    files.push_back(name.starts_with("~/") ? home_path(name)
                                           : project_dir + "/" + std::string(name));
  if (!config_home.empty()) {
    for (std::string_view name : agent.switches.files.config_env_files)
      files.push_back(config_home + "/" + std::string(name));
  }
  return files;
}

void env_file_findings(const AgentCli& agent, const std::string& project_dir,
                       const std::string& config_home, std::vector<Finding>& findings) {
  for (const std::string& file : env_files(agent, project_dir, config_home)) {
    const ReadFile read = try_read_regular_file(file, kMaxEnvFileBytes);
    if (read.status != FileStatus::ok) continue;
    for (const std::string& variable : env_file_names(read.content)) {
      if (!suite_variable(variable, agent)) continue;
      findings.push_back({"hook-environment", Severity::error,
                          "sets " + variable + ": " + std::string(agent.display_name) +
                              " loads this file into its environment, which its hooks inherit, "
                              "and that changes " +
                              what_it_changes(variable, agent) + ". Remove it from the file",
                          file});
    }
  }
}

}  // namespace

bool suite_variable(std::string_view name, const AgentCli& agent) {
  static constexpr std::string_view kExact[] = {"PATH", "HOME", "TMPDIR", "XDG_RUNTIME_DIR",
                                                "CLAUDE_PROJECT_DIR"};
  if (std::find(std::begin(kExact), std::end(kExact), name) != std::end(kExact)) return true;
  if (name.starts_with("FLEET_HOOKS_") || name.starts_with("AUTOSKILLIT_")) return true;
  for (std::string_view own : agent.switches.variables) {
    if (name == own) return true;
  }
  return (!agent.project_dir_variable.empty() && name == agent.project_dir_variable) ||
         (!agent.caller_variable.empty() && name == agent.caller_variable);
}

std::vector<std::string> env_file_names(std::string_view text) {
  std::vector<std::string> names;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (line.starts_with("export ")) line.remove_prefix(7);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    const std::size_t eq = line.find('=');
    if (line.empty() || line.front() == '#' || eq == std::string_view::npos) continue;
    std::string_view name = line.substr(0, eq);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.remove_suffix(1);
    const bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
             c == '_' || c == '.' || c == '-';
    });
    if (valid) names.emplace_back(name);
  }
  return names;
}

std::vector<Finding> switch_off_findings(const AgentCli& agent, const std::string& project_dir,
                                         const std::vector<std::string>& hook_files,
                                         const std::string& config_home) {
  std::vector<Finding> findings;
  for (const std::string& file : settings_files(agent, project_dir, hook_files))
    setting_findings(agent, file, findings);
  env_file_findings(agent, project_dir, config_home, findings);
  return findings;
}

}  // namespace fleet
