#include "store/rotating_jsonl.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <ctime>

#include "base/error.h"
#include "store/jsonl_append.h"

namespace fleet {
namespace {

// Splits what `fd` holds past what was read into lines for `on_line`, keeping an unterminated
// rest in `partial`.
void read_lines(int fd, std::string& partial, const RotatingJsonlTail::OnLine& on_line) {
  char buffer[16384];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // end of file, or a file that cannot be read: nothing more
    partial.append(buffer, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (std::size_t end; (end = partial.find('\n', start)) != std::string::npos; start = end + 1)
      on_line(std::string_view(partial).substr(start, end - start));
    partial.erase(0, start);
  }
}

std::optional<UniqueFd> open_for_reading(const std::string& path) {
  OpenedFile opened = try_open_regular_file(path, O_RDONLY);
  if (opened.status != FileStatus::ok) return std::nullopt;
  return std::move(opened.fd);
}

}  // namespace

std::string rotated_path(const std::string& path) {
  return path + ".1";
}

void append_rotating_jsonl(const std::string& path, std::string_view line,
                           std::uint64_t limit_bytes) {
  const auto rotate = [&](int, const FileFingerprint& before, std::uint64_t appended) {
    if (before.size + appended < limit_bytes) return;
    if (::rename(path.c_str(), rotated_path(path).c_str()) != 0)
      throw_errno("cannot rotate " + path + " to " + rotated_path(path));
  };
  append_jsonl(path, line, {}, rotate);
}

bool RotatingJsonlTail::replaced() const {
  struct stat by_fd {};
  struct stat by_path {};
  if (::fstat(fd_.get(), &by_fd) != 0) return true;
  if (::lstat(path_.c_str(), &by_path) != 0) return true;
  return by_fd.st_dev != by_path.st_dev || by_fd.st_ino != by_path.st_ino;
}

void RotatingJsonlTail::drain(const OnLine& on_line) {
  read_lines(fd_.get(), partial_, on_line);
}

// The file at fd_ will not grow any more: its last lines, a torn tail included.
void RotatingJsonlTail::finish_file(const OnLine& on_line) {
  drain(on_line);
  if (!partial_.empty()) on_line(partial_);
  partial_.clear();
  fd_.reset();
}

void RotatingJsonlTail::read_new(const OnLine& on_line) {
  if (!started_) {
    started_ = true;
    // The current file first: a rotation while the rotated one is read repeats lines rather
    // than losing them.
    if (auto current = open_for_reading(path_)) fd_ = std::move(*current);
    if (auto rotated = open_for_reading(rotated_path(path_))) {
      found_ = true;
      std::string rest;
      read_lines(rotated->get(), rest, on_line);
      if (!rest.empty()) on_line(rest);
    }
  }
  if (fd_) {
    found_ = true;
    drain(on_line);
    if (!replaced()) return;
    finish_file(on_line);
  }
  if (auto current = open_for_reading(path_)) {
    found_ = true;
    fd_ = std::move(*current);
    drain(on_line);
  }
}

void RotatingJsonlTail::follow(const OnLine& on_line, const volatile std::sig_atomic_t& stop,
                               int interval_ms) {
  while (stop == 0) {
    read_new(on_line);
    struct timespec wait {
      interval_ms / 1000, static_cast<long>(interval_ms % 1000) * 1000000L
    };
    if (stop == 0) ::nanosleep(&wait, nullptr);  // a signal ends the wait early
  }
}

}  // namespace fleet
