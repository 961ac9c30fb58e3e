#include "agents/copilot/copilot_trust.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "settings/hook_sources.h"
#include "settings/settings_file.h"
#include "settings/trust_written.h"

namespace fleet {
namespace {

// `folder` without the trailing slashes a person may write ("/" stays).
std::string without_trailing_slash(std::string folder) {
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  return folder;
}

// Whether config.json at `config` lists `project` (resolved, as Copilot sees its working
// directory) or a folder holding it in "trustedFolders". Entries are compared as written.
bool folder_trusted(const std::string& config, const std::string& project) {
  const auto doc = lenient_settings(config);
  const rapidjson::Value* folders = doc ? member(*doc, "trustedFolders") : nullptr;
  if (folders == nullptr || !folders->IsArray()) return false;
  return std::any_of(folders->Begin(), folders->End(), [&](const rapidjson::Value& folder) {
    return folder.IsString() && path_within(without_trailing_slash(folder.GetString()), project);
  });
}

bool disables_all_hooks(const std::string& file) {
  const auto doc = lenient_settings(file);
  const rapidjson::Value* off = doc ? member(*doc, "disableAllHooks") : nullptr;
  return off != nullptr && off->IsBool() && off->GetBool();
}

constexpr std::size_t kMaxCopilotConfigBytes = 16 * 1024 * 1024;
constexpr std::size_t kNowhere = std::string::npos;

// Where config.json's top-level object and its "trustedFolders" array are in the text (offsets
// just past a '{' or '[', or of an entry's opening quote), read with RapidJSON's SAX reader.
struct TrustedFoldersScan : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, TrustedFoldersScan> {
  explicit TrustedFoldersScan(const rapidjson::StringStream& stream) : in(stream) {}

  bool Default() { return value(false); }
  // Called with the stream still at the string's opening quote (the reader reads a string
  // through a copy of the stream).
  bool String(const char* text, rapidjson::SizeType length, bool) {
    if (depth == 2 && in_array) {
      folders.emplace_back(text, length);
      last_entry_start = in.Tell();
      entry_starts.push_back(last_entry_start);
    }
    return value(true);
  }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    if (depth == 1) {
      next_is_folders = std::string_view(text, length) == "trustedFolders";
      if (next_is_folders) {
        key_start = in.Tell();
        first_member = !has_members;
      }
      has_members = true;
    }
    return true;
  }
  bool StartObject() {
    if (depth == 0) object_open = in.Tell();
    return open(false);
  }
  bool StartArray() { return open(true); }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  const rapidjson::StringStream& in;
  int depth = 0;
  bool has_members = false;
  bool next_is_folders = false;
  bool in_array = false;
  bool found = false;
  bool malformed = false;  // "trustedFolders" is not an array of strings
  std::size_t object_open = kNowhere;
  std::size_t array_open = kNowhere;
  std::size_t last_entry_start = kNowhere;
  std::size_t key_start = kNowhere;  // the opening quote of the "trustedFolders" key
  std::size_t array_end = kNowhere;  // just past its ']'
  bool first_member = false;         // it is the object's first member
  std::vector<std::string> folders;
  std::vector<std::size_t> entry_starts;  // each entry's opening quote

 private:
  // A value at the current depth: "trustedFolders" itself when its key came just before.
  bool value(bool is_string) {
    if (depth == 1 && next_is_folders) {  // "trustedFolders": <not an array>
      found = malformed = true;
      next_is_folders = false;
    } else if (depth == 2 && in_array && !is_string) {
      malformed = true;
    }
    return true;
  }
  bool open(bool is_array) {
    if (depth == 1 && next_is_folders && is_array) {
      found = in_array = true;
      array_open = in.Tell();
      folders.clear();  // a later duplicate key is the one read
      entry_starts.clear();
      last_entry_start = kNowhere;
      next_is_folders = false;
    } else if (depth >= 1) {
      value(false);
    }
    ++depth;
    return true;
  }
  bool close() {
    --depth;
    if (depth == 1 && in_array) array_end = in.Tell();
    if (depth == 1) in_array = false;
    return true;
  }
};

// The offset just past the JSON string whose opening quote is at `quote` in `text`.
std::size_t string_end(const std::string& text, std::size_t quote) {
  std::size_t at = quote + 1;
  while (at < text.size() && text[at] != '"') at += text[at] == '\\' ? 2 : 1;
  return std::min(at + 1, text.size());
}

// Why config.json's text, read from `stream` into `scan`, cannot be changed: it is not an
// object, or its "trustedFolders" is not an array of strings; nullopt when it can.
std::optional<std::string> scan_problem(TrustedFoldersScan& scan, rapidjson::StringStream& stream) {
  rapidjson::Reader reader;
  constexpr unsigned kFlags = rapidjson::kParseCommentsFlag | rapidjson::kParseTrailingCommasFlag |
                              rapidjson::kParseValidateEncodingFlag;
  if (!reader.Parse<kFlags>(stream, scan) || scan.object_open == kNowhere)
    return "it is not a JSON object (comments allowed)";
  if (scan.malformed) return "its \"trustedFolders\" is not an array of strings";
  return std::nullopt;
}

bool blank_between(const std::string& text, std::size_t begin, std::size_t end) {
  return text.find_first_not_of(" \t\r\n", begin) >= end;
}

// The range of `text` that holds the whole "trustedFolders" member of `scan` with the comma
// that joins it to the others: what with_trusted_folder inserted when the member was missing.
std::pair<std::size_t, std::size_t> member_range(const std::string& text,
                                                 const TrustedFoldersScan& scan) {
  const std::size_t after = text.find_first_not_of(" \t\r\n", scan.array_end);
  if (scan.first_member && blank_between(text, scan.object_open, scan.key_start)) {
    if (after != std::string::npos && text[after] == ',') return {scan.object_open, after + 1};
    return {scan.object_open, scan.array_end};
  }
  const std::size_t comma = text.find_last_not_of(" \t\r\n", scan.key_start - 1);
  if (comma != std::string::npos && text[comma] == ',') return {comma, scan.array_end};
  return {scan.key_start, scan.array_end};
}

}  // namespace

Result<std::string> without_trusted_folder(const std::string& config, const std::string& folder) {
  rapidjson::StringStream stream(config.c_str());
  TrustedFoldersScan scan(stream);
  if (const auto problem = scan_problem(scan, stream))
    return Result<std::string>::failure(*problem);
  const auto at = std::find(scan.folders.begin(), scan.folders.end(), folder);
  if (at == scan.folders.end()) return config;
  const std::size_t i = static_cast<std::size_t>(at - scan.folders.begin());
  std::string text = config;
  const auto& starts = scan.entry_starts;
  if (starts.size() == 1) {
    const auto [begin, end] = member_range(config, scan);
    text.erase(begin, end - begin);
  } else if (i > 0) {
    const std::size_t begin = string_end(config, starts[i - 1]);
    text.erase(begin, string_end(config, starts[i]) - begin);
  } else {
    text.erase(starts[0], starts[1] - starts[0]);
  }
  return text;
}

Result<std::string> with_trusted_folder(const std::string& config, const std::string& folder) {
  const std::string entry = to_json(rapidjson::Value(
      rapidjson::StringRef(folder.data(), static_cast<rapidjson::SizeType>(folder.size()))));
  if (config.find_first_not_of(" \t\r\n") == std::string::npos)
    return "{\n  \"trustedFolders\": [\n    " + entry + "\n  ]\n}\n";
  rapidjson::StringStream stream(config.c_str());
  TrustedFoldersScan scan(stream);
  if (const auto problem = scan_problem(scan, stream))
    return Result<std::string>::failure(*problem);
  for (const std::string& trusted : scan.folders) {
    if (path_within(without_trailing_slash(trusted), folder)) return config;
  }
  std::string text = config;
  if (!scan.found) {
    text.insert(scan.object_open, "\n  \"trustedFolders\": [\n    " + entry + "\n  ]" +
                                      (scan.has_members ? "," : ""));
  } else if (scan.last_entry_start == kNowhere) {
    text.insert(scan.array_open, "\n    " + entry + "\n  ");
  } else {
    text.insert(string_end(config, scan.last_entry_start), ",\n    " + entry);
  }
  return text;
}

TrustUpdate trust_copilot_folder(const std::string& project_dir, const std::string& copilot_dir,
                                 bool dry_run) {
  TrustUpdate update;
  update.path = copilot_config_path(copilot_dir);
  update.project = resolved_path(project_dir);
  const std::optional<UniqueFd> lock = dry_run ? std::nullopt : lock_settings(update.path, true);
  const ReadFile current =
      try_read_regular_file(resolved_path(update.path), kMaxCopilotConfigBytes);
  if (current.status == FileStatus::failed) throw Error(current.problem + "; nothing was trusted");
  const Result<std::string> text = with_trusted_folder(current.content, update.project);
  if (!text)
    throw Error("cannot add " + update.project + " to the trusted folders of " + update.path +
                ": " + text.problem() + "; fix it, or trust the folder from copilot itself " +
                "(nothing was trusted)");
  update.text = *text;
  update.changed = *text != current.content;
  update.project_trusted = update.changed;
  update.created = current.status == FileStatus::missing;
  if (update.changed && !dry_run) write_settings(update.path, *text);
  return update;
}

TrustUpdate untrust_copilot_folder(const std::string& project_dir, const std::string& copilot_dir,
                                   const WrittenTrust* written, bool dry_run) {
  TrustUpdate update;
  update.path = copilot_config_path(copilot_dir);
  update.project = resolved_path(project_dir);
  if (written == nullptr) return update;
  const std::optional<UniqueFd> lock = dry_run ? std::nullopt : lock_settings(update.path, false);
  const std::string file = resolved_path(update.path);
  const ReadFile current = try_read_regular_file(file, kMaxCopilotConfigBytes);
  if (current.status == FileStatus::failed) throw Error(current.problem + "; nothing was removed");
  if (current.status != FileStatus::ok) return update;
  const Result<std::string> text = without_trusted_folder(current.content, update.project);
  if (!text) return update;  // left as it is: the check says what is wrong with it
  update.text = *text;
  update.changed = update.project_trusted = *text != current.content;
  // A config.json install created and Copilot never wrote to: `{}` again, so it goes.
  std::string rest = *text;
  std::erase_if(rest, [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; });
  update.created = update.changed && written->created && rest == "{}";
  if (!update.changed || dry_run) return update;
  if (!update.created) {
    write_settings(update.path, update.text, KeepBackup::no);
    drop_backups_holding(file, update.text);
    return update;
  }
  if (::unlink(file.c_str()) != 0 && errno != ENOENT) throw_errno("cannot remove " + file);
  ::rmdir(parent_directory(file).c_str());  // the directory install made for it
  return update;
}

std::string copilot_config_path(const std::string& copilot_dir) {
  return copilot_dir + "/config.json";
}

std::vector<Finding> copilot_trust_findings(const std::string& project_dir,
                                            const std::string& copilot_dir,
                                            const std::vector<HookToTrust>& hooks) {
  const std::string project = resolved_path(project_dir);
  const std::string in_repository = project_dir + "/";
  std::vector<std::string> repository_files;
  for (const HookToTrust& suite : hooks) {
    const std::string& file = suite.hook->file;
    if (file.starts_with(in_repository) &&
        std::find(repository_files.begin(), repository_files.end(), file) == repository_files.end())
      repository_files.push_back(file);
  }
  if (repository_files.empty()) return {};
  std::vector<Finding> findings;
  const std::string config = copilot_config_path(copilot_dir);
  if (!folder_trusted(config, project)) {
    findings.push_back(
        {"copilot-folder-untrusted", Severity::error,
         "GitHub Copilot CLI runs none of the hooks of " + repository_files.front() +
             ": the folder " + project + " is not in \"trustedFolders\" of " + config +
             " (nor is a folder holding it), so it skips them without a word and every "
             "dispatch runs unguarded. Trust it: fleet-hooks install --agent copilot --trust "
             "--project " +
             project_dir + ", or run `copilot` in " + project_dir + " and trust the folder",
         config, true});
  }
  // Where GitHub Copilot CLI 1.0.102 reads "disableAllHooks" ("Disable all hooks, both
  // user-level and repo-level"): the repository's settings, the user's, the managed ones.
  std::vector<std::string> switches = {copilot_dir + "/settings.json", copilot_dir + "/config.json",
                                       "/etc/github-copilot/managed-settings.json",
                                       project_dir + "/.github/copilot/settings.json",
                                       project_dir + "/.github/copilot/settings.local.json"};
  switches.insert(switches.end(), repository_files.begin(), repository_files.end());
  for (const std::string& file : switches) {
    if (!disables_all_hooks(file)) continue;
    const bool own =
        std::find(repository_files.begin(), repository_files.end(), file) != repository_files.end();
    findings.push_back({"copilot-hooks-disabled", Severity::error,
                        "\"disableAllHooks\": true in " + file + ": GitHub Copilot CLI runs " +
                            (own ? "none of the hooks of that file" : "no hook") +
                            ", and every dispatch runs unguarded. Remove it",
                        file});
  }
  return findings;
}

}  // namespace fleet
