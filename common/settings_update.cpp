#include "settings_update.h"

#include <unistd.h>

#include "error.h"
#include "files.h"
#include "hook_wiring.h"
#include "settings_file.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxSettingsBytes = 16 * 1024 * 1024;

SettingsUpdate finish(const std::string& path, const rapidjson::Document& settings,
                      std::string summary) {
  SettingsUpdate update{path, settings_text(settings), true, std::move(summary)};
  std::string current, ignored;
  if (try_read_regular_file(path, kMaxSettingsBytes, current, ignored) == 0 &&
      current == update.text) {
    update.changed = false;
    update.summary = "unchanged: " + path;
  }
  return update;
}

}  // namespace

SettingsUpdate plan_install(const std::string& path, const std::string& bin_dir) {
  for (const SuiteHook& hook : kSuiteHooks) {
    const std::string binary = bin_dir + "/" + hook.executable;
    if (::access(binary.c_str(), X_OK) != 0) {
      throw Error(binary + " is missing or not executable; pass --bin-dir");
    }
  }
  rapidjson::Document settings;
  load_settings(path, settings);
  install_suite_hooks(settings, bin_dir);
  return finish(
      path, settings,
      "installed resume-guard (PreToolUse) and provenance-writer hook (PostToolUse) from " +
          bin_dir + " into " + path);
}

SettingsUpdate plan_uninstall(const std::string& path) {
  rapidjson::Document settings;
  load_settings(path, settings);
  const int removed = uninstall_suite_hooks(settings);
  return finish(path, settings,
                "removed " + std::to_string(removed) + " fleet-hooks entries from " + path);
}

void apply_update(const SettingsUpdate& update) {
  if (update.changed) write_settings(update.path, update.text);
}

}  // namespace fleet
