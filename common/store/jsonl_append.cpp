#include "store/jsonl_append.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include "base/error.h"
#include "base/files.h"
#include "platform/file_sync.h"

namespace fleet {
namespace {

constexpr int kMaxReopenAttempts = 16;

// True when `fd` is still the file that `path` names.
bool still_at_path(int fd, const std::string& path) {
  struct stat by_fd {};
  struct stat by_path {};
  if (::fstat(fd, &by_fd) != 0) throw_errno("cannot stat " + path);
  if (::lstat(path.c_str(), &by_path) != 0) {
    if (errno == ENOENT) return false;
    throw_errno("cannot stat " + path);
  }
  return by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino;
}

bool ends_with_newline(int fd, off_t size, const std::string& path) {
  if (size == 0) return true;
  char last = 0;
  ssize_t n;
  do {
    n = ::pread(fd, &last, 1, size - 1);
  } while (n < 0 && errno == EINTR);
  if (n != 1) throw_errno("cannot read the end of " + path);
  return last == '\n';
}

}  // namespace

namespace {

std::optional<UniqueFd> open_locked(const std::string& path, bool create) {
  for (int attempt = 0; attempt < kMaxReopenAttempts; ++attempt) {
    std::optional<UniqueFd> fd =
        open_regular_file_if_exists(path, O_RDWR | O_APPEND | (create ? O_CREAT : 0));
    if (!fd) return std::nullopt;
    lock_exclusive(fd->get(), path);
    if (still_at_path(fd->get(), path)) return fd;  // else replaced while we waited: reopen
  }
  throw Error(path + " kept being replaced while waiting for its lock; try again");
}

}  // namespace

UniqueFd open_locked_jsonl(const std::string& path) {
  std::optional<UniqueFd> fd = open_locked(path, true);
  if (!fd) throw Error("cannot open " + path + ": " + std::strerror(ENOENT));
  return std::move(*fd);
}

std::optional<UniqueFd> open_locked_jsonl_if_exists(const std::string& path) {
  return open_locked(path, false);
}

void append_jsonl(const std::string& path, std::string_view line, const AppendOptions& options,
                  const WhileLocked& while_locked) {
  if (line.find('\n') != std::string_view::npos) {
    throw Error("refusing to append a record that contains a newline");
  }
  ensure_directory(parent_directory(path));
  UniqueFd fd = open_locked_jsonl(path);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw_errno("cannot stat " + path);
  std::string buffer;
  buffer.reserve(line.size() + 2);
  if (!ends_with_newline(fd.get(), st.st_size, path)) buffer += '\n';
  buffer.append(line);
  buffer += '\n';
  try {
    write_all(fd.get(), buffer, path);
    if (options.fsync && platform::sync_file_data(fd.get()) != 0)
      throw_errno("cannot sync " + path);
  } catch (const Error&) {
    // We still hold the lock: nobody appended after us, so cutting back is safe.
    if (::ftruncate(fd.get(), st.st_size) != 0) {
      // Nothing more to do: the next writer terminates the torn tail.
    }
    throw;
  }
  if (while_locked) while_locked(fd.get(), fingerprint_of(fd.get(), st), buffer.size());
}  // closing the descriptor releases the lock

}  // namespace fleet
