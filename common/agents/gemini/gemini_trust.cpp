#include "agents/gemini/gemini_trust.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

using rapidjson::Value;

const Value* at(const Value& doc, const char* outer, const char* inner) {
  const Value* object = member(doc, outer);
  return object != nullptr ? member(*object, inner) : nullptr;
}

std::string gemini_system_settings_path() {
  const std::string set = env_value("GEMINI_CLI_SYSTEM_SETTINGS_PATH");
  return set.empty() ? "/etc/gemini-cli/settings.json" : set;
}

std::string how_to_trust(const std::string& project_dir, const std::string& folders) {
  return "Trust it: add \"" + project_dir + "\": \"TRUST_FOLDER\" to " + folders +
         ", or run `gemini` in " + project_dir +
         " and trust the folder. `--skip-trust` alone does not load the project's hooks (Gemini "
         "reads the project's settings before it applies that flag). GEMINI_CLI_TRUST_WORKSPACE"
         "=true in Gemini's environment does load them, but no file records it, so check cannot "
         "see that trust and still fails";
}

// The hooks-disabled findings from the settings Gemini merges, in its order.
std::vector<Finding> disabled_findings(const std::vector<std::string>& files,
                                       const std::vector<HookToTrust>& hooks) {
  std::vector<Finding> findings;
  std::optional<std::pair<bool, std::string>> enabled;
  for (const std::string& file : files) {
    const auto doc = lenient_settings(file);
    if (!doc) continue;
    if (const Value* on = at(*doc, "hooksConfig", "enabled"); on && on->IsBool())
      enabled = {on->GetBool(), file};
    const Value* off = at(*doc, "hooksConfig", "disabled");
    if (off == nullptr || !off->IsArray()) continue;
    for (const HookToTrust& suite : hooks) {
      const ConfiguredHook* hook = suite.hook;
      const std::string name = hook->name.empty() ? hook->command : hook->name;
      for (const Value& item : off->GetArray()) {
        if (!item.IsString() || name != item.GetString()) continue;
        findings.push_back({"gemini-hook-disabled", Severity::error,
                            "the hook \"" + name +
                                "\" is listed in hooksConfig.disabled: Gemini "
                                "does not run it. Remove it from that list",
                            file});
      }
    }
  }
  if (enabled && !enabled->first) {
    findings.insert(findings.begin(),
                    {"gemini-hooks-disabled", Severity::error,
                     "hooksConfig.enabled is false: Gemini runs no hook at all, and every "
                     "dispatch runs unguarded. Remove it",
                     enabled->second});
  }
  return findings;
}

}  // namespace

std::optional<bool> gemini_folder_trusted(const std::string& folders, const std::string& location) {
  const Result<rapidjson::Document> parsed = parse_json_object(folders);
  if (!parsed) return std::nullopt;
  const rapidjson::Document& doc = *parsed;
  const std::string where = resolved_path(location);
  std::size_t longest = 0;
  std::optional<std::string> level;
  for (const auto& rule : doc.GetObject()) {
    if (!rule.value.IsString()) continue;
    const std::string path(rule.name.GetString(), rule.name.GetStringLength());
    const std::string trust = rule.value.GetString();
    const std::string folder =
        resolved_path(trust == "TRUST_PARENT" ? parent_directory(path) : path);
    if (!path_within(folder, where) || (level && path.size() <= longest)) continue;
    longest = path.size();
    level = trust;
  }
  if (level == "DO_NOT_TRUST") return false;
  if (level == "TRUST_FOLDER" || level == "TRUST_PARENT") return true;
  return std::nullopt;
}

std::vector<Finding> gemini_trust_findings(const std::string& project_dir,
                                           const std::string& gemini_dir,
                                           const std::vector<HookToTrust>& hooks) {
  if (hooks.empty()) return {};
  const std::string user = gemini_dir + "/settings.json";
  const std::string project = project_dir + "/.gemini/settings.json";
  const std::string system = gemini_system_settings_path();
  bool folder_trust = true;
  for (const std::string& file : {user, system}) {
    const auto doc = lenient_settings(file);
    const Value* trust = doc ? at(*doc, "security", "folderTrust") : nullptr;
    const Value* on = trust ? member(*trust, "enabled") : nullptr;
    if (on != nullptr && on->IsBool()) folder_trust = on->GetBool();
  }
  std::string folders = env_value("GEMINI_CLI_TRUSTED_FOLDERS_PATH");
  if (folders.empty()) folders = gemini_dir + "/trustedFolders.json";
  std::vector<Finding> findings;
  const bool in_project = std::any_of(
      hooks.begin(), hooks.end(), [&](const HookToTrust& h) { return h.hook->file == project; });
  if (folder_trust && in_project) {
    rapidjson::Document unused;
    const SettingsRead read = read_settings(folders, unused);
    std::optional<bool> verdict;
    if (read.status == SettingsRead::Status::ok)
      verdict = gemini_folder_trusted(to_json(unused), project_dir);
    const bool trusted = verdict.value_or(false);
    const bool distrusted = verdict.has_value() && !trusted;
    if (!trusted) {
      findings.push_back(
          {"gemini-folder-untrusted", Severity::error,
           "Gemini CLI loads none of the hooks of " + project + ": the folder " + project_dir +
               (distrusted ? " is marked DO_NOT_TRUST" : " is not trusted") + " in " + folders +
               ", so every dispatch runs unguarded. " + how_to_trust(project_dir, folders),
           folders, true});
    }
  }
  const std::vector<Finding> off = disabled_findings({user, project, system}, hooks);
  findings.insert(findings.end(), off.begin(), off.end());
  return findings;
}

}  // namespace fleet
