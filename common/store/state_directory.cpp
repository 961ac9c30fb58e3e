#include "store/state_directory.h"

#include <sys/stat.h>

#include "base/files.h"

namespace fleet {

void ensure_state_directory(const std::string& dir) {
  struct stat st {};
  const bool created = !dir.empty() && ::stat(dir.c_str(), &st) != 0;
  ensure_directory(dir);  // refuses what is not a directory
  const bool default_dir =
      dir.ends_with("/.autoskillit/temp") || dir.find("/.autoskillit/temp/") != std::string::npos;
  // Everything in it, this file included: nothing of it shows in `git status`.
  if (created && default_dir)
    replace_file_atomically(dir + "/.gitignore", "*\n", Durability::survives_crash, 0644);
}

}  // namespace fleet
