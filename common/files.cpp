#include "files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include "error.h"

namespace fleet {

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) reset(other.release());
  return *this;
}

UniqueFd::~UniqueFd() {
  reset();
}

int UniqueFd::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

int try_open_regular_file(const std::string& path, int flags, mode_t mode, UniqueFd& fd,
                          std::string& error) {
  const auto fail = [&](int code, std::string message) {
    fd.reset();
    error = std::move(message);
    return code;
  };
  // O_NONBLOCK so that a FIFO planted at the path cannot make the open hang.
  fd.reset(::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode));
  if (!fd) {
    const int code = errno;
    if (code == ELOOP) {
      return fail(code, path +
                            " is a symbolic link; refusing to follow it (replace it with a "
                            "regular file)");
    }
    if (code == ENXIO) return fail(code, path + " is not a regular file; refusing to use it");
    return fail(code, "cannot open " + path + ": " + std::strerror(code));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    const int code = errno;
    return fail(code, "cannot stat " + path + ": " + std::strerror(code));
  }
  if (!S_ISREG(st.st_mode))
    return fail(EINVAL, path + " is not a regular file; refusing to use it");
  if (::fcntl(fd.get(), F_SETFL, flags & O_APPEND) != 0) {  // clears O_NONBLOCK
    const int code = errno;
    return fail(code, "cannot configure " + path + ": " + std::strerror(code));
  }
  return 0;
}

UniqueFd open_regular_file(const std::string& path, int flags, mode_t mode) {
  UniqueFd fd;
  std::string error;
  if (const int code = try_open_regular_file(path, flags, mode, fd, error); code != 0) {
    throw Error(error, code);
  }
  return fd;
}

void write_all(int fd, std::string_view data, const std::string& what) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("cannot write " + what);
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

int try_read_regular_file(const std::string& path, std::size_t max_bytes, std::string& content,
                          std::string& error) {
  UniqueFd fd;
  if (const int code = try_open_regular_file(path, O_RDONLY, 0, fd, error); code != 0) return code;
  content.clear();
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int code = errno;
      error = "cannot read " + path + ": " + std::strerror(code);
      return code;
    }
    if (n == 0) return 0;
    if (content.size() + static_cast<std::size_t>(n) > max_bytes) {
      error = path + " is larger than " + std::to_string(max_bytes) + " bytes";
      return EFBIG;
    }
    content.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string read_regular_file(const std::string& path, std::size_t max_bytes) {
  std::string content;
  std::string error;
  if (const int code = try_read_regular_file(path, max_bytes, content, error); code != 0) {
    throw Error(error, code);
  }
  return content;
}

void replace_file_atomically(const std::string& path, std::string_view content,
                             Durability durability, mode_t mode, const FileOwner* owner) {
  struct stat existing {};
  if (::lstat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    throw Error(path +
                (S_ISLNK(existing.st_mode) ? " is a symbolic link" : " is not a regular file") +
                "; refusing to replace it");
  }
  const std::string directory = parent_directory(path);
  ensure_directory(directory);
  std::string temporary = path + ".tmp.XXXXXX";
  UniqueFd fd(::mkostemp(temporary.data(), O_CLOEXEC));
  if (!fd) throw_errno("cannot create a temporary file beside " + path);
  try {
    if (owner != nullptr && ::fchown(fd.get(), owner->uid, owner->gid) != 0) {
      throw_errno("cannot give " + path + " its owner " + std::to_string(owner->uid) + ":" +
                  std::to_string(owner->gid) + " (run this as that user, or as root)");
    }
    if (::fchmod(fd.get(), mode) != 0) throw_errno("cannot set the mode of " + temporary);
    write_all(fd.get(), content, temporary);
    if (durability == Durability::survives_crash && ::fsync(fd.get()) != 0) {
      throw_errno("cannot sync " + temporary);
    }
    if (::rename(temporary.c_str(), path.c_str()) != 0) throw_errno("cannot replace " + path);
  } catch (const Error&) {
    ::unlink(temporary.c_str());
    throw;
  }
  if (durability == Durability::process_lifetime) return;
  UniqueFd dir(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir) ::fsync(dir.get());  // best effort: the rename is done either way
}

UniqueFd lock_file(const std::string& path) {
  ensure_directory(parent_directory(path));
  UniqueFd fd = open_regular_file(path, O_RDWR | O_CREAT, 0600);
  lock_exclusive(fd.get(), path);
  return fd;
}

void lock_exclusive(int fd, const std::string& what) {
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) throw_errno("cannot lock " + what);
  }
}

void ensure_directory(const std::string& path) {
  if (path.empty()) return;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw Error(path + " exists and is not a directory");
    return;
  }
  const std::string parent = parent_directory(path);
  if (parent != path && parent != "." && parent != "/") ensure_directory(parent);
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    throw_errno("cannot create directory " + path);
  }
}

std::string parent_directory(const std::string& path) {
  std::size_t end = path.size();
  while (end > 1 && path[end - 1] == '/') --end;
  const std::size_t slash = path.rfind('/', end - 1);
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace fleet
