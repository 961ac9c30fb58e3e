#include "settings/hook_sources.h"

#include <unistd.h>
#include <algorithm>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "platform/system_facts.h"
#include "settings/hook_wiring.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

void collect_from(const rapidjson::Value& doc, const std::string& file,
                  const std::string& plugin_root, const AgentCli& agent,
                  std::vector<ConfiguredHook>& out) {
  const rapidjson::Value* hooks = member(doc, "hooks");
  for (const SuiteHook* suite : suite_hooks_for(agent)) {
    const std::string event = suite_hook_event(*suite, agent);
    const rapidjson::Value* groups = hooks ? member(*hooks, event.c_str()) : nullptr;
    if (groups == nullptr || !groups->IsArray()) continue;
    int group_index = -1;
    for (const auto& group : groups->GetArray()) {
      ++group_index;
      const std::string matcher(string_member(group, "matcher").value_or(""));
      const rapidjson::Value* entries = member(group, "hooks");
      if (entries == nullptr || !entries->IsArray()) continue;
      int entry_index = -1;
      for (const auto& entry : entries->GetArray()) {
        ++entry_index;
        const auto command = string_member(entry, "command");
        if (!command) continue;
        const auto parsed = parse_hook_command(*command);
        if (!parsed) continue;
        ConfiguredHook hook;
        hook.file = file;
        hook.event = event;
        hook.matcher = matcher;
        hook.command = std::string(*command);
        hook.parsed = *parsed;
        hook.plugin_root = plugin_root;
        hook.name = std::string(string_member(entry, "name").value_or(""));
        hook.group_index = group_index;
        hook.entry_index = entry_index;
        if (const rapidjson::Value* timeout = member(entry, "timeout");
            timeout && timeout->IsNumber()) {
          hook.timeout = timeout->GetDouble();
        }
        if (const auto type = string_member(entry, "type")) hook.type = std::string(*type);
        out.push_back(std::move(hook));
      }
    }
  }
}

// The install path of plugin `key` ("fleet-hooks@<marketplace>") recorded by the plugin
// command of `source`; nullopt when it is not installed.
std::optional<std::string> installed_plugin(const std::string& config_dir, const std::string& key,
                                            const HookPlugins& source) {
  rapidjson::Document doc;
  const SettingsRead read =
      read_settings(config_dir + "/" + std::string(source.installed_file), doc);
  if (read.status != SettingsRead::Status::ok) return std::nullopt;
  const rapidjson::Value* plugins = member(doc, "plugins");
  const rapidjson::Value* installs = plugins ? member(*plugins, key.c_str()) : nullptr;
  if (installs == nullptr || !installs->IsArray()) return std::nullopt;
  for (const auto& install : installs->GetArray()) {
    if (const auto path = string_member(install, "installPath")) return std::string(*path);
  }
  return std::nullopt;
}

// Where the local marketplace of this installation is (`<prefix>/share/fleet-hooks` beside the
// `<prefix>/bin` this program runs from), or how to find it when it is not there.
std::string marketplace_hint(const HookPlugins& plugins) {
  if (const std::optional<std::string> bin = executable_directory()) {
    if (const std::size_t slash = bin->find_last_of('/'); slash != std::string::npos && slash > 0) {
      const std::string share = bin->substr(0, slash) + "/share/fleet-hooks";
      const std::string marketplace = share + "/" + std::string(plugins.marketplace_file);
      if (::access(marketplace.c_str(), R_OK) == 0) return share;
    }
  }
  return "<prefix>/share/fleet-hooks";
}

std::string lost_hooks(const rapidjson::Value& doc, const std::string& file,
                       const AgentCli& agent) {
  std::vector<ConfiguredHook> lost;
  collect_from(doc, file, "", agent, lost);
  std::string list;
  for (const ConfiguredHook& hook : lost) {
    list += (list.empty() ? "" : ", ") + hook.event + " " +
            command_executable_name(hook.command).value_or("(no command)");
  }
  return list.empty() ? "no " + std::string(agent.pre_tool_event) + " or " +
                            std::string(agent.post_tool_event) + " hook"
                      : list;
}

// Reads one settings file into `doc`; true when its hooks are to be collected. What the CLI
// cannot use, or uses otherwise than it reads, is a finding.
bool read_hook_settings(const std::string& file, const AgentCli& agent, rapidjson::Document& doc,
                        std::vector<Finding>& findings) {
  const std::string cli(agent.display_name);
  const SettingsRead read = read_settings(file, doc);
  switch (read.status) {
    case SettingsRead::Status::missing:
      return false;
    case SettingsRead::Status::invalid:
      findings.push_back({"settings-invalid", Severity::error,
                          read.problem + "; " + cli + " cannot use it: fix it", file});
      return false;
    case SettingsRead::Status::ignored:
      // Gemini reads comments (not trailing commas): `doc` holds what it reads.
      if (agent.settings_comments && parses_with_comments(read.file)) break;
      findings.push_back({"settings-ignored", Severity::error,
                          file + " is not plain JSON (" + read.not_plain + "), so " + cli + " " +
                              std::string(agent.on_not_plain_json) +
                              ": these hooks never run: " + lost_hooks(doc, file, agent) +
                              ". Remove the comments and trailing commas",
                          file});
      return false;
    case SettingsRead::Status::ok:
      break;
  }
  for (const std::string& key : read.duplicate_keys) {
    findings.push_back({"settings-duplicate-key", Severity::warning,
                        "the key " + key + " appears more than once; " + cli +
                            " uses only the last one, and so does this check. Merge them into "
                            "one",
                        file});
  }
  return true;
}

// The suite's plugin enabled in settings `doc` (of `file`): its directory added to `plugins`
// once, or a finding when it is not installed for this user.
void add_enabled_plugins(const rapidjson::Value& doc, const std::string& file,
                         const HookSourceOptions& options, std::vector<std::string>& plugins,
                         std::vector<Finding>& findings) {
  const HookPlugins& source = options.agent->hook_plugins;
  const std::string& config_dir = options.config_dir;
  const rapidjson::Value* enabled = member(doc, "enabledPlugins");
  if (enabled == nullptr || !enabled->IsObject()) return;
  for (const auto& plugin : enabled->GetObject()) {
    const std::string key(plugin.name.GetString(), plugin.name.GetStringLength());
    if (!key.starts_with(std::string(kPluginName) + "@") || !plugin.value.IsTrue()) continue;
    const std::optional<std::string> root = installed_plugin(config_dir, key, source);
    if (!root) {
      const std::string marketplace = marketplace_hint(source);
      const std::string command(source.command);
      findings.push_back(
          {"plugin-missing", Severity::error,
           "the plugin " + key + " is enabled but not installed for this user (" + config_dir +
               "/plugins): its hooks do not run. Run `" + command + " plugin marketplace add " +
               marketplace + "` and `" + command + " plugin install " + key + "`" +
               (marketplace.starts_with("<")
                    ? " (<prefix> is where fleet-hooks is installed: the directory above the "
                      "bin/ that holds it, e.g. ~/.local, or /usr for the .deb)"
                    : ""),
           file});
    } else if (std::find(plugins.begin(), plugins.end(), *root) == plugins.end()) {
      plugins.push_back(*root);
    }
  }
}

}  // namespace

HookSources collect_hooks(const HookSourceOptions& options) {
  HookSources sources;
  std::vector<std::string> plugins = options.plugin_dirs;
  const AgentCli& agent = *options.agent;
  for (const std::string& file : options.settings_files) {
    rapidjson::Document doc;
    if (!read_hook_settings(file, agent, doc, sources.findings)) continue;
    collect_from(doc, file, "", agent, sources.hooks);
    if (loads_hook_plugins(agent))
      add_enabled_plugins(doc, file, options, plugins, sources.findings);
  }
  for (const std::string& root : plugins) {
    const std::string hooks_file(agent.hook_plugins.hooks_file);
    const std::string file = root + "/" + hooks_file;
    rapidjson::Document doc;
    const SettingsRead read = read_settings(file, doc);
    if (read.status != SettingsRead::Status::ok) {
      sources.findings.push_back({"plugin-missing", Severity::error,
                                  read.status == SettingsRead::Status::missing
                                      ? root + " is not a " + std::string(agent.display_name) +
                                            " plugin with hooks (no " + hooks_file + ")"
                                      : read.problem,
                                  file});
      continue;
    }
    collect_from(doc, file, root, agent, sources.hooks);
  }
  return sources;
}

namespace {

// What kMachineDirectory in `path` (at `at`) stands for on this machine, as the plugin's
// command computes it: "linux-<the kernel's machine>/" when the binary is there, else "".
std::string machine_directory(const std::string& path, std::size_t at) {
  const std::optional<std::string> machine = platform::plugin_machine_directory();
  if (!machine) return "";
  const std::string directory = *machine + "/";
  std::string binary = path;
  binary.replace(at, kMachineDirectory.size(), directory);
  return ::access(binary.c_str(), X_OK) == 0 ? directory : "";
}

// The first of kInstallDirectories holding `name` as an executable file, as the guarded form's
// loop finds it.
std::optional<std::string> find_in_install_directories(const std::string& name) {
  for (const InstallDirectory& dir : kInstallDirectories) {
    const std::string path =
        (dir.home.empty() ? std::string(dir.shell) : env_value("HOME") + std::string(dir.home)) +
        "/" + name;
    if (is_executable_file(path)) return path;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> find_suite_program(const std::string& name) {
  if (std::optional<std::string> found = find_on_path(name)) return found;
  return find_in_install_directories(name);
}

std::optional<std::string> resolve_hook_executable(const ConfiguredHook& hook,
                                                   const std::string& project_dir,
                                                   const AgentCli& agent) {
  std::optional<std::string> executable = command_executable(hook.command);
  if (!executable) return std::nullopt;
  std::string& path = *executable;
  const std::pair<std::string_view, const std::string&> vars[] = {
      {agent.project_dir_variable, project_dir},
      {agent.hook_plugins.root_variable, hook.plugin_root}};
  for (const auto& [name, value] : vars) {
    if (name.empty()) continue;
    const std::string bare = std::string("$").append(name);
    for (const std::string& var : {std::string("${").append(name).append("}"), bare}) {
      for (std::size_t at; (at = path.find(var)) != std::string::npos;)
        path.replace(at, var.size(), value);
    }
  }
  if (const std::size_t at = path.find(kMachineDirectory); at != std::string::npos)
    path.replace(at, kMachineDirectory.size(), machine_directory(path, at));
  if (path.starts_with("~/")) path = env_value("HOME") + path.substr(1);
  if (path.find('/') != std::string::npos) return path;
  return hook.parsed.searches_install_directories ? find_suite_program(path) : find_on_path(path);
}

}  // namespace fleet
