#include "base/paths.h"

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "base/error.h"
#include "base/ids.h"
#include "platform/system_facts.h"

namespace fleet {

std::string env_value(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

std::string current_directory() {
  char buffer[PATH_MAX];
  if (::getcwd(buffer, sizeof buffer) == nullptr) throw_errno("cannot read the working directory");
  return buffer;
}

std::optional<std::string> real_path(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) return std::nullopt;
  return std::string(resolved);
}

std::string resolved_path(const std::string& path) {
  return real_path(path).value_or(path);
}

bool path_within(const std::string& parent, const std::string& child) {
  if (parent == "/") return child.starts_with("/");
  return child == parent || (child.starts_with(parent) && child[parent.size()] == '/');
}

std::string resolve_project_root(std::string_view hook_cwd) {
  // The store's peer contract (AutoSkillit finds it so, doc/files.md), not one CLI's fact.
  std::string root = env_value("CLAUDE_PROJECT_DIR");
  if (!root.empty()) return root;
  if (!hook_cwd.empty()) return std::string(hook_cwd);
  return current_directory();
}

std::string resolve_state_dir(const std::string& flag, std::string_view hook_cwd) {
  if (!flag.empty()) return flag;  // no need to look for the project
  return state_dir_for_project(flag, resolve_project_root(hook_cwd));
}

std::optional<std::string> project_taken_from_current_directory(const std::string& flag) {
  if (!flag.empty()) return std::nullopt;
  for (const char* name : {"FLEET_HOOKS_STATE_DIR", "AUTOSKILLIT_STATE_DIR", "CLAUDE_PROJECT_DIR"})
    if (!env_value(name).empty()) return std::nullopt;
  return resolve_project_root("");
}

std::string state_dir_for_project(const std::string& flag, const std::string& project_root) {
  if (!flag.empty()) return flag;
  for (const char* name : {"FLEET_HOOKS_STATE_DIR", "AUTOSKILLIT_STATE_DIR"}) {
    std::string dir = env_value(name);
    if (!dir.empty()) return dir;
  }
  std::string dir = project_root + "/.autoskillit/temp";
  const std::string campaign = env_value("AUTOSKILLIT_CAMPAIGN_ID");
  if (!campaign.empty()) {
    if (const auto problem = id_problem("AUTOSKILLIT_CAMPAIGN_ID", campaign)) throw Error(*problem);
    dir += "/" + campaign;
  }
  return dir;
}

std::optional<std::string> resolve_kitchen_id(const std::string& flag) {
  if (!flag.empty()) return flag;
  for (const char* name : {"FLEET_HOOKS_KITCHEN_ID", "AUTOSKILLIT_CAMPAIGN_ID"}) {
    std::string kitchen = env_value(name);
    if (!kitchen.empty()) return kitchen;
  }
  return std::nullopt;
}

std::optional<std::string> executable_directory() {
  const std::optional<std::string> executable = platform::executable_path();
  if (!executable) return std::nullopt;
  const std::string& path = *executable;
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

std::string absolute_path(const std::string& path) {
  if (path.empty()) return path;
  std::string full = path;
  if (path.front() != '/') full = current_directory() + "/" + path;
  std::string normal;
  std::size_t start = 0;
  while (start <= full.size()) {
    std::size_t end = full.find('/', start);
    if (end == std::string::npos) end = full.size();
    const std::string_view part(full.data() + start, end - start);
    if (!part.empty() && part != ".") {
      normal += "/";
      normal += part;
    }
    start = end + 1;
  }
  return normal.empty() ? "/" : normal;
}

std::optional<std::string> directory_problem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return errno == ENOENT ? "does not exist"
                           : std::string("cannot be read: ") + std::strerror(errno);
  }
  if (S_ISDIR(st.st_mode)) return std::nullopt;
  return "is not a directory";
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::string> find_on_path(const std::string& name) {
  const std::string search = env_value("PATH");
  std::size_t start = 0;
  while (start <= search.size()) {
    const std::size_t end = search.find(':', start);
    const std::string dir =
        search.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (is_executable_file(candidate)) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return std::nullopt;
}

std::string provenance_store_path(const std::string& state_dir) {
  return state_dir + "/session_provenance.jsonl";
}

std::string env_or_home(const char* variable, const std::string& below_home) {
  const std::string set = env_value(variable);
  return set.empty() ? env_value("HOME") + below_home : set;
}

}  // namespace fleet
