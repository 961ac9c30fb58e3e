#include "launch/session_files.h"

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <filesystem>
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

// The folder below Gemini's tmp directory that belongs to `cwd` ("" when none does yet).
std::string gemini_project_folder(const std::string& tmp, const std::string& cwd) {
  for (const std::string& name : names_in(tmp)) {
    const auto owner = read_regular_file_if_exists(tmp + "/" + name + "/.project_root", 1 << 16);
    if (!owner) continue;
    std::string_view path = *owner;
    while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.remove_suffix(1);
    if (path == cwd) return tmp + "/" + name;
  }
  return "";
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
  for (const std::string& year : names_in(sessions)) {
    for (const std::string& month : names_in(sessions + "/" + year)) {
      const std::string month_dir = sessions + "/" + year + "/" + month;
      for (const std::string& day : names_in(month_dir)) {
        for (const std::string& name : names_in(month_dir + "/" + day)) {
          if (name.starts_with("rollout-") && name.ends_with(suffix))
            return month_dir + "/" + day + "/" + name;
        }
      }
    }
  }
  return "";
}

std::string gemini_session_file(const std::string& session_id, const std::string& cwd) {
  if (session_id.size() < 8) return "";
  const std::string tmp = home_or("GEMINI_CLI_HOME", "") + "/.gemini/tmp";
  const std::string project = gemini_project_folder(tmp, cwd);
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
