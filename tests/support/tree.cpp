#include "tree.h"

#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "fixtures.h"
#include "temp_dir.h"

namespace fleet::test {

std::vector<std::string> snapshot_tree(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> entries;
  std::error_code error;
  if (!fs::exists(fs::symlink_status(root, error))) return {"<missing>"};
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::file_status status = it->symlink_status();
    std::string line = fs::relative(it->path(), root).string();
    line += " perms=" + std::to_string(static_cast<unsigned>(status.permissions()));
    if (fs::is_symlink(status)) {
      line += " symlink -> " + fs::read_symlink(it->path()).string();
    } else if (fs::is_directory(status)) {
      line += " dir";
    } else {
      line += " file " + read_file(it->path().string());
    }
    entries.push_back(line);
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

std::vector<std::string> suite_paths(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> found;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(root, error);
       it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    bool suite = name.find("fleet-hooks") != std::string::npos;
    for (const char* binary : kSuiteBinaries)
      suite = suite || name.find(binary) != std::string::npos;
    if (suite) found.push_back(fs::relative(it->path(), root).string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::string on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return name;
}

}  // namespace fleet::test
