#include "agents/qwen/qwen_trust.h"

#include <algorithm>
#include <optional>

#include "agents/gemini/gemini_trust.h"
#include "base/json.h"
#include "base/paths.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

using rapidjson::Value;

// A settings file of Qwen Code as it reads it (comments allowed); nullopt when missing or not
// readable as JSON.
std::optional<rapidjson::Document> qwen_settings(const std::string& path) {
  rapidjson::Document doc;
  const SettingsRead read = read_settings(path, doc);
  if (read.status != SettingsRead::Status::ok &&
      !(read.status == SettingsRead::Status::ignored && parses_with_comments(read.file)))
    return std::nullopt;
  return doc;
}

// The value at `path` (member names) in `doc`, nullptr when it is not there.
const Value* at(const Value& doc, std::initializer_list<const char*> path) {
  const Value* value = &doc;
  for (const char* name : path) {
    value = value->IsObject() ? member(*value, name) : nullptr;
    if (value == nullptr) return nullptr;
  }
  return value;
}

std::string qwen_system_settings_path() {
  const std::string set = env_value("QWEN_CODE_SYSTEM_SETTINGS_PATH");
  return set.empty() ? "/etc/qwen-code/settings.json" : set;
}

// The last of `files` (in Qwen Code's merge order) that sets the boolean at `path`, and its value.
std::optional<std::pair<bool, std::string>> last_set(const std::vector<std::string>& files,
                                                     std::initializer_list<const char*> path) {
  std::optional<std::pair<bool, std::string>> found;
  for (const std::string& file : files) {
    const auto doc = qwen_settings(file);
    const Value* value = doc ? at(*doc, path) : nullptr;
    if (value != nullptr && value->IsBool()) found = {value->GetBool(), file};
  }
  return found;
}

}  // namespace

std::vector<Finding> qwen_trust_findings(const std::string& project_dir,
                                         const std::string& qwen_dir,
                                         const std::vector<HookToTrust>& hooks) {
  if (hooks.empty()) return {};
  const std::string user = qwen_dir + "/settings.json";
  const std::string project = project_dir + "/.qwen/settings.json";
  const std::string system = qwen_system_settings_path();
  std::vector<Finding> findings;
  const auto folder_trust = last_set({user, system}, {"security", "folderTrust", "enabled"});
  const bool in_project = std::any_of(
      hooks.begin(), hooks.end(), [&](const HookToTrust& h) { return h.hook->file == project; });
  if (folder_trust && folder_trust->first && in_project) {
    std::string folders = env_value("QWEN_CODE_TRUSTED_FOLDERS_PATH");
    if (folders.empty()) folders = qwen_dir + "/trustedFolders.json";
    std::optional<bool> verdict;
    if (const auto rules = qwen_settings(folders))
      verdict = gemini_folder_trusted(to_json(*rules), project_dir);
    if (!verdict.value_or(false)) {
      findings.push_back(
          {"qwen-folder-untrusted", Severity::error,
           "Qwen Code loads none of " + project +
               " (its hooks and its MCP servers): folder "
               "trust is on (" +
               folder_trust->second + ") and the folder " + project_dir +
               (verdict.has_value() ? " is marked DO_NOT_TRUST" : " is not trusted") + " in " +
               folders + ", so every dispatch runs unguarded, without a warning. Trust it: add \"" +
               project_dir + "\": \"TRUST_FOLDER\" to " + folders + ", or run `qwen` in " +
               project_dir + " and trust the folder",
           folders, true});
    }
  }
  if (const auto off = last_set({user, project, system}, {"disableAllHooks"}); off && off->first) {
    findings.push_back({"qwen-hooks-disabled", Severity::error,
                        "disableAllHooks is true: Qwen Code runs no hook at all, and every "
                        "dispatch runs unguarded. Remove it",
                        off->second});
  }
  return findings;
}

}  // namespace fleet
