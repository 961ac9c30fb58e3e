#include "launch/session_files.h"

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "launch/claude_project_folder.h"

namespace fleet {
namespace {

namespace fs = std::filesystem;

// The names in `directory`, newest name first (dated names sort by date); none when it cannot
// be read.
std::vector<std::string> names_in(const std::string& directory) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.rbegin(), names.rend());
  return names;
}

std::string home_or(const char* variable, const std::string& below_home) {
  const std::string set = env_value(variable);
  return set.empty() ? env_value("HOME") + below_home : set;
}

// The first line of `path` names `session_id` as its "sessionId" (Gemini's session header).
bool header_names(const std::string& path, const std::string& session_id) {
  const OpenedFile file = try_open_regular_file(path, O_RDONLY);
  if (!file.fd) return false;
  std::string text(64 * 1024, '\0');
  const ssize_t n = ::pread(file.fd.get(), text.data(), text.size(), 0);
  if (n <= 0) return false;
  text.resize(static_cast<std::size_t>(n));
  const Result<rapidjson::Document> header = parse_json_object(text.substr(0, text.find('\n')));
  return header && string_member(*header, "sessionId") == std::string_view(session_id);
}

// The time (in seconds) a UUIDv7 was made, from its first 48 bits (milliseconds since the
// epoch); nullopt for another id.
std::optional<std::time_t> uuid_v7_time(std::string_view id) {
  if (id.size() != 36 || id[8] != '-' || id[13] != '-' || id[14] != '7') return std::nullopt;
  std::uint64_t milliseconds = 0;
  for (const char c : std::string(id.substr(0, 8)) + std::string(id.substr(9, 4))) {
    const auto digit = std::string_view("0123456789abcdef")
                           .find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (digit == std::string_view::npos) return std::nullopt;
    milliseconds = milliseconds * 16 + digit;
  }
  return static_cast<std::time_t>(milliseconds / 1000);
}

// Whether Gemini's project folder `folder` belongs to `cwd` (its .project_root names it).
// nullopt when the folder has no .project_root.
std::optional<bool> owned_by(const std::string& folder, const std::string& cwd) {
  const auto owner = read_regular_file_if_exists(folder + "/.project_root", 1 << 16);
  if (!owner) return std::nullopt;
  std::string_view path = *owner;
  while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.remove_suffix(1);
  return path == cwd;
}

// Gemini's short name for a project folder's base name (lower case, runs of anything but
// [a-z0-9] as one "-", none at either end; "project" when nothing is left).
std::string gemini_slug(std::string_view base) {
  std::string slug;
  for (const char c : base) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool kept = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9');
    if (kept) {
      slug.push_back(lower);
    } else if (!slug.empty() && slug.back() != '-') {
      slug.push_back('-');
    }
  }
  if (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "project" : slug;
}

// The folder below Gemini's tmp directory that belongs to `cwd` ("" when none does yet), found
// the way gemini-cli 0.61.0 names it: the short name projects.json maps `cwd` to, else the
// names it gives a new project (<slug>, <slug>-1, …) up to the first that does not exist.
// Never a listing of every project's folder.
std::string gemini_project_folder(const std::string& gemini_dir, const std::string& cwd) {
  const std::string tmp = gemini_dir + "/tmp";
  if (const auto registry = read_regular_file_if_exists(gemini_dir + "/projects.json", 1 << 22)) {
    const Result<rapidjson::Document> json = parse_json_object(*registry);
    if (json && json->HasMember("projects") && (*json)["projects"].IsObject()) {
      if (const auto name = string_member((*json)["projects"], cwd.c_str());
          name && owned_by(tmp + "/" + std::string(*name), cwd).value_or(false))
        return tmp + "/" + std::string(*name);
    }
  }
  const std::string slug = gemini_slug(cwd.substr(cwd.find_last_of('/') + 1));
  for (int n = 0;; ++n) {
    const std::string folder = tmp + "/" + (n == 0 ? slug : slug + "-" + std::to_string(n));
    const std::optional<bool> ours = owned_by(folder, cwd);
    if (!ours) return "";
    if (*ours) return folder;
  }
}

}  // namespace

std::string claude_session_file(const std::string& session_id, const std::string& cwd) {
  const std::string base = home_or("CLAUDE_CONFIG_DIR", "/.claude");
  return base + "/projects/" + claude_project_folder(cwd) + "/" + session_id + ".jsonl";
}

std::string codex_session_file(const std::string& session_id, const std::string&) {
  if (session_id.empty()) return "";
  const std::string sessions = home_or("CODEX_HOME", "/.codex") + "/sessions";
  std::string suffix = "-";
  suffix += session_id;
  suffix += ".jsonl";
  const std::string compressed_suffix = suffix + std::string(kCompressedSuffix);
  std::string compressed;  // a rollout Codex keeps compressed, when no plain one is found
  for (const std::string& day : codex_rollout_days(session_id, std::time(nullptr))) {
    const std::string folder = sessions + "/" + day;
    for (const std::string& name : names_in(folder)) {
      if (!name.starts_with("rollout-")) continue;
      if (name.ends_with(suffix)) return folder + "/" + name;
      if (name.ends_with(compressed_suffix) && compressed.empty()) compressed = folder + "/" + name;
    }
  }
  return compressed;
}

std::vector<std::string> codex_rollout_days(const std::string& session_id, std::time_t now) {
  constexpr std::time_t kDay = 24 * 60 * 60;
  std::vector<std::time_t> moments = {now, now - kDay};
  if (const std::optional<std::time_t> started = uuid_v7_time(session_id)) {
    moments.insert(moments.end(), {*started - kDay, *started, *started + kDay});
  }
  std::vector<std::string> days;
  for (const std::time_t moment : moments) {
    std::tm local{};
    char day[16];
    if (::localtime_r(&moment, &local) == nullptr ||
        std::strftime(day, sizeof day, "%Y/%m/%d", &local) == 0)
      continue;
    if (std::ranges::find(days, day) == days.end()) days.emplace_back(day);
  }
  return days;
}

std::string gemini_session_file(const std::string& session_id, const std::string& cwd) {
  if (session_id.size() < 8) return "";
  const std::string project =
      gemini_project_folder(home_or("GEMINI_CLI_HOME", "") + "/.gemini", cwd);
  if (project.empty()) return "";
  const std::string chats = project + "/chats";
  std::string suffix = "-";
  suffix.append(session_id, 0, 8);
  suffix += ".jsonl";
  for (const std::string& name : names_in(chats)) {
    if (name.starts_with("session-") && name.ends_with(suffix) &&
        header_names(chats + "/" + name, session_id)) {
      return chats + "/" + name;
    }
  }
  return "";
}

}  // namespace fleet
