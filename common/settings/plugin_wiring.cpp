#include "settings/plugin_wiring.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "base/error.h"
#include "base/files.h"
#include "base/paths.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxPluginBytes = 1024 * 1024;

std::string shipped(const AgentCli& agent) {
  return std::string(agent.plugin.contents());
}

std::string install_command(const std::string& project_dir, const AgentCli& agent) {
  return "fleet-hooks install --project " + project_dir + " --agent " + std::string(agent.name);
}

}  // namespace

std::string plugin_file(const std::string& project_dir, const AgentCli& agent) {
  return project_dir + "/" + std::string(agent.plugin.folder) + "/" +
         std::string(agent.plugin.file_name);
}

SettingsUpdate plan_plugin_update(const std::string& project_dir, const AgentCli& agent,
                                  SettingsAction action) {
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
  update.text = shipped(agent);
  update.changed = !(current.status == FileStatus::ok && current.content == update.text);
  update.summary = update.changed ? "wrote the fleet-hooks plugin for " +
                                        std::string(agent.display_name) + " into " + update.path
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
  if (::rmdir(folder.c_str()) == 0) ::rmdir(parent_directory(folder).c_str());
}

bool plugin_present(const std::string& project_dir, const AgentCli& agent) {
  struct stat st {};
  return ::lstat(plugin_file(project_dir, agent).c_str(), &st) == 0;
}

std::vector<Finding> plugin_findings(const std::string& project_dir, const AgentCli& agent) {
  const std::string path = plugin_file(project_dir, agent);
  const std::string name(agent.name);
  const std::string cli(agent.display_name);
  std::vector<Finding> findings;
  const ReadFile current = try_read_regular_file(path, kMaxPluginBytes);
  if (current.status == FileStatus::missing) {
    findings.push_back({name + "-plugin-missing", Severity::error,
                        "no fleet-hooks plugin: " + cli +
                            " runs the dispatch tool unguarded; run " +
                            install_command(project_dir, agent),
                        path});
  } else if (current.status != FileStatus::ok || current.content != shipped(agent)) {
    findings.push_back({name + "-plugin-differs", Severity::error,
                        "the plugin is not the one this fleet-hooks ships (another version, or "
                        "edited), and " +
                            cli + " skips a plugin that fails to load without a word; run " +
                            install_command(project_dir, agent) + " to write it again",
                        path});
  }
  if (!find_on_path("resume-guard")) {
    findings.push_back({"binary-missing", Severity::error,
                        "resume-guard is not on PATH here: the plugin refuses every dispatch "
                        "of " +
                            cli + " on this machine until it is",
                        path});
  }
  return findings;
}

}  // namespace fleet
