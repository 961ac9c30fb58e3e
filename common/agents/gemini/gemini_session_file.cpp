#include "agents/gemini/gemini_session_file.h"

#include <fcntl.h>
#include <unistd.h>
#include <cctype>
#include <optional>
#include <string_view>

#include <rapidjson/document.h>

#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"

namespace fleet {
namespace {

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

std::string gemini_session_file(const std::string& session_id, const std::string& cwd) {
  if (session_id.size() < 8) return "";
  const std::string project =
      gemini_project_folder(env_or_home("GEMINI_CLI_HOME", "") + "/.gemini", cwd);
  if (project.empty()) return "";
  const std::string chats = project + "/chats";
  std::string suffix = "-";
  suffix.append(session_id, 0, 8);
  suffix += ".jsonl";
  for (const std::string& name : names_newest_first(chats)) {
    if (name.starts_with("session-") && name.ends_with(suffix) &&
        header_names(chats + "/" + name, session_id)) {
      return chats + "/" + name;
    }
  }
  return "";
}

}  // namespace fleet
