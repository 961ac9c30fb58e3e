#include "process/pseudo_file.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include "base/files.h"

namespace fleet {

std::optional<std::string> read_pseudo_file(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  std::string text;
  char buffer[8192];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

std::optional<std::string> write_pseudo_file(const std::string& path, const std::string& text) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  ssize_t n = -1;
  if (fd) {
    do {
      n = ::write(fd.get(), text.data(), text.size());
    } while (n < 0 && errno == EINTR);
  }
  if (n == static_cast<ssize_t>(text.size())) return std::nullopt;
  const char* why = n < 0 ? std::strerror(errno) : "short write";
  return "cannot write " + path + ": " + why;
}

}  // namespace fleet
