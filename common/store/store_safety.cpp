#include "store/store_safety.h"

#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>

#include "base/files.h"

namespace fleet {
namespace {

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

StoreSafety unsafe(std::string problem, std::string fix) {
  return {false, std::move(problem), std::move(fix)};
}

// The problem of one existing path that must be private to this user, or a safe result.
StoreSafety private_path(const std::string& path, const struct stat& st, const char* what,
                         const char* private_mode, const char* could) {
  const uid_t me = ::geteuid();
  if (st.st_uid != me) {
    return unsafe(std::string(what) + " " + path + " is owned by uid " + std::to_string(st.st_uid) +
                      ", not by this user (uid " + std::to_string(me) + "), who " + could,
                  "use a state directory of your own (--state-dir or FLEET_HOOKS_STATE_DIR), or "
                  "chown " +
                      std::to_string(me) + " " + path);
  }
  if ((st.st_mode & 022) != 0) {
    return unsafe(std::string(what) + " " + path + " is writable by group or others (mode " +
                      octal_mode(st.st_mode) + "), who " + could,
                  std::string("chmod ") + private_mode + " " + path);
  }
  return {};
}

}  // namespace

StoreSafety store_safety(const std::string& store_path) {
  const std::string directory = parent_directory(store_path);
  struct stat st {};
  if (::lstat(directory.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      return unsafe("the state directory " + directory + " is not a directory",
                    "point --state-dir at a directory");
    }
    StoreSafety result = private_path(directory, st, "the state directory", "700",
                                      "could put a forged store in place of the real one");
    if (!result.safe) return result;
  }
  if (::lstat(store_path.c_str(), &st) != 0) return {};  // not created yet
  if (S_ISLNK(st.st_mode)) {
    return unsafe("the provenance store " + store_path + " is unreadable: it is a symbolic link",
                  "replace it with the regular file it points to");
  }
  if (!S_ISREG(st.st_mode)) {
    return unsafe("the provenance store " + store_path + " is unreadable: it is not a regular file",
                  "move it away; the next record creates the store");
  }
  return private_path(store_path, st, "the provenance store", "600",
                      "could forge ownership records");
}

}  // namespace fleet
