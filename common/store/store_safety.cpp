#include "store/store_safety.h"

#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>

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
// `subject` names it in the message ("the provenance store /p/s.jsonl"); `path` is the file
// the fix acts on.
StoreSafety private_path(const std::string& subject, const std::string& path, const struct stat& st,
                         const char* private_mode, const char* could) {
  const uid_t me = ::geteuid();
  if (st.st_uid != me) {
    return unsafe(subject + " is owned by uid " + std::to_string(st.st_uid) +
                      ", not by this user (uid " + std::to_string(me) + "), who " + could,
                  "use a state directory of your own (--state-dir or FLEET_HOOKS_STATE_DIR), or "
                  "chown " +
                      std::to_string(me) + " " + path);
  }
  if ((st.st_mode & 022) != 0) {
    return unsafe(subject + " is writable by group or others (mode " + octal_mode(st.st_mode) +
                      "), who " + could,
                  std::string("chmod ") + private_mode + " " + path);
  }
  return {};
}

// The absolute path `link` resolves to; "" when it cannot be resolved.
std::string resolved_path(const std::string& link) {
  char* resolved = ::realpath(link.c_str(), nullptr);
  if (resolved == nullptr) return "";
  std::string path(resolved);
  std::free(resolved);
  return path;
}

constexpr const char* kCouldReplaceStore = "could put a forged store in place of the real one";

// The state directory `directory`, when it exists: a directory of this user's that others
// cannot write. A symbolic link (`.autoskillit/temp` pointing into a private tree) is judged
// by the directory it resolves to, and named as a link when it is refused.
StoreSafety directory_safety(const std::string& directory) {
  struct stat st {};
  if (::lstat(directory.c_str(), &st) != 0) return {};  // not created yet
  const std::string subject = "the state directory " + directory;
  if (!S_ISLNK(st.st_mode)) {
    if (!S_ISDIR(st.st_mode)) {
      return unsafe(subject + " is not a directory", "point --state-dir at a directory");
    }
    return private_path(subject, directory, st, "700", kCouldReplaceStore);
  }
  const std::string target = resolved_path(directory);
  const std::string link = subject + " is a symbolic link to ";
  const char* fix =
      "point the link at a directory of your own (mode 700), or replace the link "
      "with one";
  if (target.empty() || ::stat(target.c_str(), &st) != 0) {
    return unsafe(link + "a path that does not exist", fix);
  }
  if (!S_ISDIR(st.st_mode)) return unsafe(link + target + ", which is not a directory", fix);
  return private_path(subject + " (a symbolic link to " + target + ")", target, st, "700",
                      kCouldReplaceStore);
}

}  // namespace

StoreSafety store_safety(const std::string& store_path) {
  if (StoreSafety result = directory_safety(parent_directory(store_path)); !result.safe) {
    return result;
  }
  struct stat st {};
  if (::lstat(store_path.c_str(), &st) != 0) return {};  // not created yet
  if (S_ISLNK(st.st_mode)) {
    return unsafe("the provenance store " + store_path + " is unreadable: it is a symbolic link",
                  "replace it with the regular file it points to");
  }
  if (!S_ISREG(st.st_mode)) {
    return unsafe("the provenance store " + store_path + " is unreadable: it is not a regular file",
                  "move it away; the next record creates the store");
  }
  return private_path("the provenance store " + store_path, store_path, st, "600",
                      "could forge ownership records");
}

}  // namespace fleet
