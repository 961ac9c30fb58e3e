#include "store/store_temporary.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "base/error.h"

namespace fleet {
namespace {

constexpr std::size_t kRandomSuffix = 6;  // mkostemp's XXXXXX

std::string base_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Every temporary's name starts with <store> and this infix, which no other program or
// person is expected to give a file: cleanup removes nothing else (a user's
// session_provenance.jsonl.old.240101 or .bak is never touched).
constexpr std::string_view kInfix = ".fleet-tmp-";

// <store>.fleet-tmp-<kind>.XXXXXX with a kind made of lower-case letters.
bool is_temporary_of(std::string_view name, std::string_view store) {
  if (!name.starts_with(store) || !name.substr(store.size()).starts_with(kInfix)) return false;
  const std::string_view rest = name.substr(store.size() + kInfix.size());
  const auto dot = rest.find('.');
  if (dot == std::string_view::npos || dot == 0 || rest.size() - dot - 1 != kRandomSuffix) {
    return false;
  }
  for (const char c : rest.substr(0, dot)) {
    if (c < 'a' || c > 'z') return false;
  }
  return true;
}

}  // namespace

StoreTemporary create_store_temporary(const std::string& store_path, const char* kind) {
  StoreTemporary temporary;
  temporary.path = store_path + std::string(kInfix) + kind + ".XXXXXX";
  temporary.fd = UniqueFd(::mkostemp(temporary.path.data(), O_CLOEXEC));
  if (!temporary.fd) throw_errno("cannot create a temporary file beside " + store_path);
  if (::flock(temporary.fd.get(), LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::unlink(temporary.path.c_str());
    throw Error("cannot lock " + temporary.path + ": " + std::strerror(error));
  }
  return temporary;
}

std::size_t remove_stale_temporaries(const std::string& store_path) {
  const std::string dir_path = parent_directory(store_path);
  const std::string store = base_name(store_path);
  DIR* dir = ::opendir(dir_path.c_str());
  if (dir == nullptr) return 0;
  std::size_t removed = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (!is_temporary_of(name, store)) continue;
    const int fd = ::openat(::dirfd(dir), entry->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    // A writer holding it locked is alive: leave it. Unlink while holding the lock.
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        ::unlinkat(::dirfd(dir), entry->d_name, 0) == 0) {
      ++removed;
    }
    ::close(fd);
  }
  ::closedir(dir);
  return removed;
}

}  // namespace fleet
