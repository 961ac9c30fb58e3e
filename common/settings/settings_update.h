#pragma once
// `fleet-hooks install` and `uninstall` on a settings file: compute the resulting file, then
// write it only when it changes (so a second run leaves the file, and its backups, byte for
// byte as they were).
// Failing: everything here throws Error (caught by the program's main); the note after an
// install is a std::optional.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "settings/hook_wiring.h"
#include "settings/settings_file.h"

namespace fleet {

struct SettingsUpdate {
  std::string path;
  std::string text;      // the file as it would be afterwards
  bool changed = false;  // differs from what is on disk now
  std::string summary;   // one line for a person
  // What install changed in the user's own entries (install_suite_hooks), a sentence each.
  std::vector<std::string> notes;
  // Uninstall of a file the suite made (it and every backup of it held nothing but the
  // suite's entries): these files are removed instead of writing `text`, and then their
  // directory when that leaves it empty — nothing the suite made is left behind.
  std::vector<std::string> removed_files;
  // Whether writing `text` keeps the previous content in a backup (write_settings): not when
  // that content is `text` and the suite's entries alone, as settings_text writes them — the
  // bytes taken out are the suite's, which install writes again.
  KeepBackup backup = KeepBackup::yes;
  // Uninstall that gives the user's file back as a backup holds it: the backups that hold
  // nothing it does not hold again but the suite's entries, removed after the write.
  std::vector<std::string> dropped_backups;
  // The directory the file's path starts from (the project): removing the file removes the
  // directories between them that it leaves empty (.github/hooks/ and .github/); "" : only the
  // file's own directory.
  std::string base_dir;
};

// Throws Error unless `bin_dir` holds executable resume-guard and provenance-writer.
void require_suite_binaries(const std::string& bin_dir);

// The file with the suite's hooks installed. With a `bin_dir`, it must hold executable
// resume-guard and provenance-writer. Writes nothing. Throws Error.
SettingsUpdate plan_install(const std::string& path, const WiringOptions& options);

// The file (of `agent`) without the suite's hooks; a missing file stays missing. When that leaves
// the settings of a backup (nothing else changed since), the backup's bytes: the user's own
// formatting comes back. When the file and each of its backups held nothing but the suite's
// hooks (the suite created it), the file and its backups are to be removed
// (SettingsUpdate::removed_files). Writes nothing. Throws Error.
SettingsUpdate plan_uninstall(const std::string& path, const AgentCli& agent);

// What `fleet-hooks install` or `uninstall` was asked to do.
struct SettingsRequest {
  std::string project_dir;  // absolute
  SettingsScope scope = SettingsScope::project;
  std::string bin_dir;  // --bin-dir as given, "" when not given
  std::vector<std::string> tools;
  bool fail_open_if_missing = false;
  // Whose file: its settings file of `scope` (settings_path; a CLI without settings scopes has
  // only the project's AgentCli::project_hook_file).
  const AgentCli* agent = nullptr;
};

// Why `request` cannot be carried out: a scope other than the project's with an agent CLI
// that has only the project's file (a usage error, naming the CLIs of `clis` that have such
// files); nullopt when it can.
std::optional<std::string> scope_problem(const SettingsRequest& request,
                                         std::span<const AgentCli* const> clis);

// The file `request` changes (settings_path). Throws Error.
std::string request_path(const SettingsRequest& request);

// plan_install for the settings file of `request.scope`. Local and user settings name the
// executables in `bin_dir` (default: the directory of the running program); the project's
// settings are committed, so they name no path of this machine (a given `bin_dir` is only
// checked to hold the suite). Writes nothing. Throws Error.
SettingsUpdate plan_install(const SettingsRequest& request);

// plan_uninstall for the settings file of `request.scope`. Writes nothing. Throws Error.
SettingsUpdate plan_uninstall(const SettingsRequest& request);

// After a portable (project) install: a sentence for the user when resume-guard is not on
// PATH here (the hooks then block every dispatch on this machine), naming the directory of
// the suite (`bin_dir`, default: the running program's); nullopt when it is on PATH or the
// install was not into the project's settings. Throws Error when the running program's
// directory cannot be found.
std::optional<std::string> install_note(const SettingsRequest& request);

// Writes `update` (see write_settings) when it changes the file, or removes its
// removed_files. Throws Error.
void apply_update(const SettingsUpdate& update);

enum class SettingsAction { install, uninstall };

// What `fleet-hooks install` or `uninstall` does: plan_install or plan_uninstall, then
// apply_update, holding the file's lock (lock_settings) from the read to the write, so that
// runs on one file at the same time take turns and none loses another's change. With
// `dry_run`, only plans (no lock, nothing written or created). Throws Error.
SettingsUpdate update_settings(const SettingsRequest& request, SettingsAction action, bool dry_run);

}  // namespace fleet
