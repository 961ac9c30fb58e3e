#include "settings/plugin_wiring.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "base/word_list.h"
#include "hook/tool_names.h"
#include "settings/hook_sources.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxPluginBytes = 1024 * 1024;

std::string shipped(const AgentCli& agent) {
  return std::string(agent.plugin.contents());
}

std::string install_command(const std::string& project_dir, const AgentCli& agent,
                            const std::vector<std::string>& tools = {}) {
  std::string command =
      "fleet-hooks install --project " + project_dir + " --agent " + std::string(agent.name);
  for (const std::string& tool : tools) {
    if (tool != kDispatchToolName) command += " --tool " + tool;
  }
  return command;
}

// `tools` without dispatch_food_truck (the plugin always guards it) and without repeats.
std::vector<std::string> more_tools(const std::vector<std::string>& tools) {
  std::vector<std::string> more;
  for (const std::string& tool : tools) {
    if (tool != kDispatchToolName && std::find(more.begin(), more.end(), tool) == more.end())
      more.push_back(tool);
  }
  return more;
}

// The plugin's line listing `more` (PluginWiring::tools_line), with the newlines around it.
std::string tools_line(const AgentCli& agent, const std::vector<std::string>& more) {
  rapidjson::Document names(rapidjson::kArrayType);
  for (const std::string& tool : more)
    names.PushBack(json_string(tool, names.GetAllocator()), names.GetAllocator());
  std::string line(1, '\n');
  line.append(agent.plugin.tools_line).append(to_json(names)).append(";\n");
  return line;
}

// The plugin as install writes it for the --tool names `more`: the shipped bytes with its
// tools line listing them.
std::string plugin_text(const AgentCli& agent, const std::vector<std::string>& more) {
  std::string text = shipped(agent);
  const std::string empty = tools_line(agent, {});
  const std::size_t at = text.find(empty);
  if (at == std::string::npos) {
    throw Error("the " + std::string(agent.display_name) +
                " plugin this fleet-hooks ships has no line '" + empty.substr(1, empty.size() - 2) +
                "' to name the --tool names in (a broken build)");
  }
  return text.replace(at, empty.size(), tools_line(agent, more));
}

// The --tool names the plugin file `content` lists, when it holds exactly what install writes
// for them; nullopt for any other bytes.
std::optional<std::vector<std::string>> installed_tools(const std::string& content,
                                                        const AgentCli& agent) {
  std::string start(1, '\n');
  start.append(agent.plugin.tools_line);
  const std::size_t at = content.find(start);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t begin = at + start.size();
  const std::size_t end = content.find('\n', begin);
  if (end == std::string::npos || end == begin || content[end - 1] != ';') return std::nullopt;
  const Result<rapidjson::Document> names = parse_json(content.substr(begin, end - 1 - begin));
  if (!names.ok() || !names->IsArray()) return std::nullopt;
  std::vector<std::string> tools;
  for (const rapidjson::Value& name : names->GetArray()) {
    if (!name.IsString() || !is_valid_tool_name(name.GetString())) return std::nullopt;
    tools.emplace_back(name.GetString(), name.GetStringLength());
  }
  if (more_tools(tools) != tools || plugin_text(agent, tools) != content) return std::nullopt;
  return tools;
}

}  // namespace

std::string plugin_file(const std::string& project_dir, const AgentCli& agent) {
  return project_dir + "/" + std::string(agent.plugin.folder) + "/" +
         std::string(agent.plugin.file_name);
}

SettingsUpdate plan_plugin_update(const std::string& project_dir, const AgentCli& agent,
                                  SettingsAction action, const std::vector<std::string>& tools) {
  SettingsUpdate update;
  update.path = plugin_file(project_dir, agent);
  const ReadFile current = try_read_regular_file(update.path, kMaxPluginBytes);
  const bool present = current.status != FileStatus::missing;
  if (action == SettingsAction::uninstall) {
    update.changed = present;
    if (present) update.removed_files = {update.path};
    update.summary = present ? "removed the fleet-hooks plugin " + update.path
                             : "nothing to remove: " + update.path + " does not exist";
    return update;
  }
  const std::vector<std::string> more = more_tools(tools);
  update.text = plugin_text(agent, more);
  update.changed = !(current.status == FileStatus::ok && current.content == update.text);
  std::vector<std::string> guarded = {std::string(kDispatchToolName)};
  guarded.insert(guarded.end(), more.begin(), more.end());
  update.summary = update.changed ? "wrote the fleet-hooks plugin for " +
                                        std::string(agent.display_name) + ", guarding " +
                                        word_list(guarded, ", ", ", ") + ", into " + update.path
                                  : "unchanged: " + update.path;
  return update;
}

void apply_plugin_update(const SettingsUpdate& update) {
  if (!update.changed) return;
  const std::string folder = parent_directory(update.path);
  if (update.removed_files.empty()) {
    // Created 0755 like a settings file's folder: the CLI, maybe run by another user, reads it.
    const std::string above = parent_directory(folder);
    for (const std::string& dir : {above, folder}) {
      if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) throw_errno("cannot create " + dir);
    }
    return write_settings(update.path, update.text);
  }
  for (const std::string& file : update.removed_files) {
    if (::unlink(file.c_str()) != 0 && errno != ENOENT) throw_errno("cannot remove " + file);
  }
  // The plugin folder, then the CLI's folder, when nothing else is left in them.
  remove_empty_directories(folder, parent_directory(parent_directory(folder)));
}

bool plugin_present(const std::string& project_dir, const AgentCli& agent) {
  struct stat st {};
  return ::lstat(plugin_file(project_dir, agent).c_str(), &st) == 0;
}

PluginCheck check_plugin(const std::string& project_dir, const AgentCli& agent,
                         const std::vector<std::string>& required) {
  const std::string path = plugin_file(project_dir, agent);
  const std::string name(agent.name);
  const std::string cli(agent.display_name);
  PluginCheck check;
  check.checked_tools = {std::string(kDispatchToolName)};
  const ReadFile current = try_read_regular_file(path, kMaxPluginBytes);
  const std::optional<std::vector<std::string>> more =
      current.status == FileStatus::ok ? installed_tools(current.content, agent) : std::nullopt;
  if (more) check.checked_tools.insert(check.checked_tools.end(), more->begin(), more->end());
  if (current.status == FileStatus::missing) {
    check.findings.push_back({name + "-plugin-missing", Severity::error,
                              "no fleet-hooks plugin: " + cli +
                                  " runs the dispatch tool unguarded; run " +
                                  install_command(project_dir, agent, required),
                              path});
  } else if (!more) {
    check.findings.push_back({name + "-plugin-differs", Severity::error,
                              "the plugin is not one this fleet-hooks writes (another version, or "
                              "edited), and " +
                                  cli + " skips a plugin that fails to load without a word; run " +
                                  install_command(project_dir, agent, required) +
                                  " to write it again",
                              path});
  } else {
    for (const std::string& tool : required) {
      if (std::find(check.checked_tools.begin(), check.checked_tools.end(), tool) !=
          check.checked_tools.end())
        continue;
      std::vector<std::string> wanted = check.checked_tools;
      wanted.insert(wanted.end(), required.begin(), required.end());
      check.findings.push_back({"guard-missing", Severity::error,
                                "the fleet-hooks plugin does not guard " + tool + " (" +
                                    mcp_tool_name("<server>", tool, agent) + "): run " +
                                    install_command(project_dir, agent, more_tools(wanted)),
                                path});
    }
  }
  for (const std::string& tool : required) {  // --tool adds to what the plugin guards
    if (std::find(check.checked_tools.begin(), check.checked_tools.end(), tool) ==
        check.checked_tools.end())
      check.checked_tools.push_back(tool);
  }
  if (!find_suite_program("resume-guard")) {
    check.findings.push_back({"binary-missing", Severity::error,
                              "resume-guard is not on PATH here (nor where the install routes put "
                              "it): the plugin refuses every dispatch "
                              "of " +
                                  cli + " on this machine until it is",
                              path});
  }
  return check;
}

}  // namespace fleet
