#include "files.h"

#include <fcntl.h>
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
