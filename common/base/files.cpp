#include "base/files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/error.h"

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

OpenedFile try_open_regular_file(const std::string& path, int flags, mode_t mode) {
  OpenedFile opened;
  const auto fail = [&](std::string problem, FileStatus status = FileStatus::failed) {
    opened.fd.reset();
    opened.status = status;
    opened.problem = std::move(problem);
    return std::move(opened);
  };
  // O_NONBLOCK so that a FIFO planted at the path cannot make the open hang.
  opened.fd.reset(::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode));
  if (!opened.fd) {
    const int code = errno;
    if (code == ELOOP) {
      return fail(path +
                  " is a symbolic link; refusing to follow it (replace it with a regular file)");
    }
    if (code == ENXIO) return fail(path + " is not a regular file; refusing to use it");
    return fail("cannot open " + path + ": " + std::strerror(code),
                code == ENOENT ? FileStatus::missing : FileStatus::failed);
  }
  struct stat st {};
  if (::fstat(opened.fd.get(), &st) != 0) {
    return fail("cannot stat " + path + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) return fail(path + " is not a regular file; refusing to use it");
  if (::fcntl(opened.fd.get(), F_SETFL, flags & O_APPEND) != 0) {  // clears O_NONBLOCK
    return fail("cannot configure " + path + ": " + std::strerror(errno));
  }
  return opened;
}

UniqueFd open_regular_file(const std::string& path, int flags, mode_t mode) {
  OpenedFile opened = try_open_regular_file(path, flags, mode);
  if (opened.status != FileStatus::ok) throw Error(opened.problem);
  return std::move(opened.fd);
}

std::optional<UniqueFd> open_regular_file_if_exists(const std::string& path, int flags,
                                                    mode_t mode) {
  OpenedFile opened = try_open_regular_file(path, flags, mode);
  if (opened.status == FileStatus::missing) return std::nullopt;
  if (opened.status != FileStatus::ok) throw Error(opened.problem);
  return std::move(opened.fd);
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

ReadFile try_read_regular_file(const std::string& path, std::size_t max_bytes) {
  ReadFile read;
  OpenedFile opened = try_open_regular_file(path, O_RDONLY, 0);
  if (opened.status != FileStatus::ok) {
    read.status = opened.status;
    read.problem = std::move(opened.problem);
    return read;
  }
  const auto fail = [&](std::string problem) {
    read.status = FileStatus::failed;
    read.content.clear();
    read.problem = std::move(problem);
    return std::move(read);
  };
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(opened.fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot read " + path + ": " + std::strerror(errno));
    if (n == 0) return read;
    if (read.content.size() + static_cast<std::size_t>(n) > max_bytes) {
      return fail(path + " is larger than " + std::to_string(max_bytes) + " bytes");
    }
    read.content.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string read_regular_file(const std::string& path, std::size_t max_bytes) {
  ReadFile read = try_read_regular_file(path, max_bytes);
  if (read.status != FileStatus::ok) throw Error(read.problem);
  return std::move(read.content);
}

std::optional<std::string> read_regular_file_if_exists(const std::string& path,
                                                       std::size_t max_bytes) {
  ReadFile read = try_read_regular_file(path, max_bytes);
  if (read.status == FileStatus::missing) return std::nullopt;
  if (read.status != FileStatus::ok) throw Error(read.problem);
  return std::move(read.content);
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

void remove_empty_directories(const std::string& dir, const std::string& top) {
  const bool below_top = dir.starts_with(top + "/");
  for (std::string at = dir; ::rmdir(at.c_str()) == 0 && below_top;) {
    at = parent_directory(at);
    if (at.size() <= top.size()) return;
  }
}

std::vector<std::string> names_newest_first(const std::string& directory) {
  std::vector<std::string> names;
  std::error_code error;
  for (std::filesystem::directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.rbegin(), names.rend());
  return names;
}

}  // namespace fleet
