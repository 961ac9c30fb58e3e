#pragma once
// `fleet-hooks install` and `uninstall` on a settings file: compute the resulting file, then
// write it only when it changes (so a second run leaves the file byte for byte as it was).

#include <string>

namespace fleet {

struct SettingsUpdate {
  std::string path;
  std::string text;      // the file as it would be afterwards
  bool changed = false;  // differs from what is on disk now
  std::string summary;   // one line for a person
};

// The file with the suite's hooks installed from `bin_dir`, which must hold executable
// resume-guard and provenance-writer. Writes nothing. Throws Error.
SettingsUpdate plan_install(const std::string& path, const std::string& bin_dir);

// The file without the suite's hooks. Writes nothing. Throws Error.
SettingsUpdate plan_uninstall(const std::string& path);

// Writes `update` (with a .bak of the previous file) when it changes the file. Throws Error.
void apply_update(const SettingsUpdate& update);

}  // namespace fleet
