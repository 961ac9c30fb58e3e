#include "settings/settings_update.h"

#include <unistd.h>

#include <cerrno>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "settings/hook_sources.h"
#include "settings/plugin_wiring.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

// Where the running program (and so the suite) is installed. Throws Error.
std::string program_directory() {
  std::optional<std::string> dir = executable_directory();
  if (!dir) throw Error("cannot find where this program is installed");
  return *dir;
}

SettingsUpdate finish(const std::string& path, const SettingsRead& read,
                      const rapidjson::Document& settings, std::string summary) {
  SettingsUpdate update;
  update.path = path;
  update.text = (read.bom ? std::string(kUtf8Bom) : "") + settings_text(settings);
  update.changed = true;
  update.summary = std::move(summary);
  const ReadFile current = try_read_regular_file(read.file, kMaxSettingsBytes);
  if (current.status == FileStatus::ok && current.content == update.text) {
    update.changed = false;
    update.summary = "unchanged: " + path;
  }
  return update;
}

// True when `content`, the file `read` as it is now, is `settings` as settings_text writes them
// (a final line break aside): rewriting it drops none of the user's bytes.
bool written_as_settings_text(const std::string& content, const SettingsRead& read,
                              const rapidjson::Document& settings) {
  const std::string text = (read.bom ? std::string(kUtf8Bom) : "") + settings_text(settings);
  return content == text || content + "\n" == text;
}

// The backups of `file` that hold nothing the file will hold again (`text`, whose settings are
// `settings`) but the suite's entries: `text` byte for byte (the backup install kept of the
// user's file), or those settings with the suite's entries, as settings_text writes them (the
// backup a later install kept of an earlier one's wiring).
std::vector<std::string> backups_held_again(const std::string& file,
                                            const rapidjson::Document& settings,
                                            const std::string& text, const AgentCli& agent) {
  std::vector<std::string> held;
  const std::string wanted = settings_text(settings);
  for (const std::string& backup : settings_backups(file)) {
    const ReadFile read = try_read_regular_file(backup, kMaxSettingsBytes);
    if (read.status != FileStatus::ok) continue;
    if (read.content == text) {
      held.push_back(backup);
      continue;
    }
    Result<rapidjson::Document> doc = parse_json_object(read.content);
    try {
      if (!doc || settings_text(*doc) != read.content) continue;
      if (uninstall_suite_hooks(*doc, agent) > 0 && settings_text(*doc) == wanted)
        held.push_back(backup);
    } catch (const Error&) {  // a string settings_text cannot write: not the suite's backup
    }
  }
  return held;
}

// True when the settings file `file` (a backup) holds nothing but the suite's hooks of `agent`.
bool holds_only_suite_hooks(const std::string& file, const AgentCli& agent) {
  rapidjson::Document settings;
  try {
    load_settings(file, settings, agent);
  } catch (const Error&) {
    return false;
  }
  return uninstall_suite_hooks(settings, agent) > 0 && settings.ObjectEmpty();
}

// The files to remove when uninstalling leaves `settings` of `read` empty and the suite made
// the file: it and every backup of it held only the suite's hooks. None when the path is a
// symlink (the user made it).
std::vector<std::string> files_the_suite_made(const std::string& path, const SettingsRead& read,
                                              const rapidjson::Document& settings,
                                              const AgentCli& agent) {
  if (!settings.ObjectEmpty() || read.file != path) return {};
  std::vector<std::string> files = settings_backups(read.file);
  for (const std::string& backup : files) {
    if (!holds_only_suite_hooks(backup, agent)) return {};
  }
  files.insert(files.begin(), read.file);
  return files;
}

}  // namespace

void require_suite_binaries(const std::string& bin_dir) {
  for (const SuiteHook& hook : kSuiteHooks) {
    const std::string binary = bin_dir + "/" + hook.executable;
    if (::access(binary.c_str(), X_OK) != 0) {
      throw Error(binary + " is missing or not executable; pass --bin-dir");
    }
  }
}

SettingsUpdate plan_install(const std::string& path, const WiringOptions& options) {
  if (!options.bin_dir.empty()) require_suite_binaries(options.bin_dir);
  rapidjson::Document settings;
  const SettingsRead read = load_settings(path, settings, *options.agent);
  std::vector<std::string> notes = install_suite_hooks(settings, options);
  // Say where the hooks will find the executables, and (for the portable form) whether they
  // do find them here.
  std::string from = "from " + options.bin_dir;
  if (options.bin_dir.empty()) {
    const std::optional<std::string> here = find_suite_program("resume-guard");
    from = here ? "run by name from PATH or where the install routes put it (here: " + *here + ")"
                : "run by name from PATH or where the install routes put it (resume-guard is NOT "
                  "found here)";
  }
  std::string tools = "dispatch_food_truck";
  for (const std::string& tool : options.tools) tools += ", " + tool;
  const AgentCli& agent = *options.agent;
  std::string session_start;
  if (!agent.session_start.matcher.empty()) {
    session_start = ", provenance-writer session-start (" + std::string(agent.session_start.event) +
                    " " + std::string(agent.session_start.matcher) + ")";
  }
  SettingsUpdate update = finish(
      path, read, settings,
      "installed resume-guard (" + std::string(agent.pre_tool_event) + ", " +
          std::string(options.fail_open_if_missing ? "fail-open" : "fail-closed") +
          " when missing) and provenance-writer hook (" + std::string(agent.post_tool_event) +
          ") for " + tools + session_start + ", " + from + ", into " + path);
  update.notes = std::move(notes);
  return update;
}

SettingsUpdate plan_uninstall(const std::string& path, const AgentCli& agent) {
  rapidjson::Document settings;
  const SettingsRead read = load_settings(path, settings, agent);
  SettingsUpdate update;
  update.path = path;
  update.changed = false;
  if (read.status == SettingsRead::Status::missing) {
    update.summary = "nothing to remove: " + path + " does not exist";
    return update;
  }
  const std::string current = try_read_regular_file(read.file, kMaxSettingsBytes).content;
  const bool canonical = written_as_settings_text(current, read, settings);
  const int removed = uninstall_suite_hooks(settings, agent);
  if (removed == 0) {  // left exactly as it is, formatting included
    update.summary = "nothing to remove: no fleet-hooks entries in " + path;
    update.text = current;
    return update;
  }
  update = finish(path, read, settings,
                  "removed " + std::to_string(removed) + " fleet-hooks entries from " + path);
  if (canonical) update.backup = KeepBackup::no;
  // Nothing else changed since a backup: that backup's bytes, the user's formatting; the
  // backups that hold nothing else now go (the install's).
  if (auto original = backup_with_settings(read.file, update.text)) {
    update.text = *original;
    update.dropped_backups = backups_held_again(read.file, settings, *original, agent);
    return update;
  }
  update.removed_files = files_the_suite_made(path, read, settings, agent);
  if (!update.removed_files.empty()) {
    update.summary += "; it held nothing else, so it is removed";
    if (update.removed_files.size() > 1) update.summary += ", with its backups";
  }
  return update;
}

namespace {

// What install writes for `request`: local and user settings name the suite's directory.
// Throws Error for a directory that does not hold the suite.
WiringOptions wiring_options(const SettingsRequest& request) {
  WiringOptions wiring;
  wiring.tools = request.tools;
  wiring.fail_open_if_missing = request.fail_open_if_missing;
  wiring.agent = request.agent;
  // The project's settings are committed: they name no path of this machine.
  if (request.scope != SettingsScope::project) {
    wiring.bin_dir = absolute_path(request.bin_dir.empty() ? program_directory() : request.bin_dir);
  } else if (!request.bin_dir.empty()) {
    require_suite_binaries(absolute_path(request.bin_dir));
  }
  return wiring;
}

}  // namespace

std::optional<std::string> scope_problem(const SettingsRequest& request,
                                         std::span<const AgentCli* const> clis) {
  if (has_settings_scopes(*request.agent) || request.scope == SettingsScope::project)
    return std::nullopt;
  return "--scope local and user are " +
         agent_cli_list(agent_clis_with(clis, has_settings_scopes), &AgentCli::display_name, ", ",
                        " and ") +
         "'s settings files; for --agent " + std::string(request.agent->name) +
         " only the project's " + std::string(request.agent->project_hook_file) +
         " is wired: drop --scope";
}

std::string request_path(const SettingsRequest& request) {
  return settings_path(request.scope, request.project_dir, *request.agent);
}

SettingsUpdate plan_install(const SettingsRequest& request) {
  return plan_install(request_path(request), wiring_options(request));
}

SettingsUpdate plan_uninstall(const SettingsRequest& request) {
  return plan_uninstall(request_path(request), *request.agent);
}

std::optional<std::string> install_note(const SettingsRequest& request) {
  if (request.scope != SettingsScope::project) return std::nullopt;
  const std::string bin_dir =
      request.bin_dir.empty() ? program_directory() : absolute_path(request.bin_dir);
  if (find_suite_program("resume-guard")) return std::nullopt;
  return "resume-guard is not on PATH here (nor where the install routes put it), so this "
         "project's hooks block every dispatch on this machine until it is: add " +
         bin_dir + " to PATH (e.g. in ~/.profile) and start " +
         std::string(request.agent->display_name) + " again";
}

void apply_update(const SettingsUpdate& update) {
  if (!update.changed) return;
  if (update.removed_files.empty()) {
    write_settings(update.path, update.text, update.backup);
    for (const std::string& backup : update.dropped_backups) {
      if (::unlink(backup.c_str()) != 0 && errno != ENOENT) throw_errno("cannot remove " + backup);
    }
    return;
  }
  for (const std::string& file : update.removed_files) {
    if (::unlink(file.c_str()) != 0 && errno != ENOENT) throw_errno("cannot remove " + file);
  }
  // The directories too when nothing else is in them (.claude/, .codex/, .github/hooks/ and
  // .github/ the suite made).
  remove_empty_directories(parent_directory(update.path), update.base_dir);
}

SettingsUpdate update_settings(const SettingsRequest& request, SettingsAction action,
                               bool dry_run) {
  const std::string path = request_path(request);
  if (wired_by_plugin(*request.agent)) {  // a plugin file, not hook entries (OpenCode)
    SettingsUpdate update =
        plan_plugin_update(request.project_dir, *request.agent, action, request.tools);
    if (!dry_run) apply_plugin_update(update);
    return update;
  }
  const bool install = action == SettingsAction::install;
  const WiringOptions wiring = install ? wiring_options(request) : WiringOptions{};
  const AgentCli& agent = *request.agent;
  if (dry_run) return install ? plan_install(path, wiring) : plan_uninstall(path, agent);
  // Held from the read to the rename: installs on one file take turns, none is lost.
  const std::optional<UniqueFd> lock = lock_settings(path, install);
  SettingsUpdate update = install ? plan_install(path, wiring) : plan_uninstall(path, agent);
  if (request.scope != SettingsScope::user) update.base_dir = request.project_dir;
  apply_update(update);
  return update;
}

}  // namespace fleet
