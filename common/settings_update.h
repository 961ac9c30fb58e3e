#pragma once
// `fleet-hooks install` and `uninstall` on a settings file: compute the resulting file, then
// write it only when it changes (so a second run leaves the file, and its backups, byte for
// byte as they were).

#include <string>

#include "hook_wiring.h"

namespace fleet {

struct SettingsUpdate {
  std::string path;
  std::string text;      // the file as it would be afterwards
  bool changed = false;  // differs from what is on disk now
  std::string summary;   // one line for a person
};

// Throws Error unless `bin_dir` holds executable resume-guard and provenance-writer.
void require_suite_binaries(const std::string& bin_dir);

// The file with the suite's hooks installed. With a `bin_dir`, it must hold executable
// resume-guard and provenance-writer. Writes nothing. Throws Error.
SettingsUpdate plan_install(const std::string& path, const WiringOptions& options);

// The file without the suite's hooks; a missing file stays missing. Writes nothing. Throws
// Error.
SettingsUpdate plan_uninstall(const std::string& path);

// After a portable (project) install: a sentence for the user when resume-guard is not on
// PATH here (the hooks then block every dispatch on this machine), naming `bin_dir`; "" when
// it is.
std::string portable_install_note(const std::string& bin_dir);

// Writes `update` (see write_settings) when it changes the file. Throws Error.
void apply_update(const SettingsUpdate& update);

}  // namespace fleet
