#include "launch/stdout_spool.h"

#include <poll.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/error.h"
#include "base/paths.h"
#include "platform/anonymous_file.h"

namespace fleet {
namespace {

constexpr std::size_t kChunk = 64 * 1024;

UniqueFd unlinked_temporary_file() {
  std::string directory = env_value("TMPDIR");
  if (directory.empty()) directory = "/tmp";
  UniqueFd fd = platform::open_anonymous_file(directory);
  if (!fd) throw_errno("cannot create a temporary file in " + directory + " for the stdout spool");
  return fd;
}

// Writes all of `data` to `fd`, waiting while a non-blocking `fd` is full. Throws Error.
void write_fully(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n >= 0) {
      data += n;
      size -= static_cast<std::size_t>(n);
    } else if (errno == EAGAIN) {
      struct pollfd writable = {fd, POLLOUT, 0};
      ::poll(&writable, 1, -1);
    } else if (errno != EINTR) {
      throw_errno("cannot write the final attempt's stdout");
    }
  }
}

}  // namespace

StdoutSpool::StdoutSpool(std::size_t limit)
    : file_(unlinked_temporary_file()), limit_(std::max<std::size_t>(limit, 1)) {}

void StdoutSpool::append(const char* data, std::size_t size) {
  received_ += size;
  if (problem_) return;
  if (size > limit_) {  // only the last `limit_` bytes can be kept
    stored_ += size - limit_;
    data += size - limit_;
    size = limit_;
  }
  while (size > 0) {
    const auto at = static_cast<std::size_t>(stored_ % limit_);
    const std::size_t piece = std::min(size, limit_ - at);
    const ssize_t n = ::pwrite(file_.get(), data, piece, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      problem_ = std::string("the stdout spool could not be written (") +
                 (n < 0 ? std::strerror(errno) : "no space") + "): what came after its first " +
                 std::to_string(stored_) + " bytes is missing";
      return;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
    stored_ += static_cast<std::uint64_t>(n);
  }
}

std::uint64_t StdoutSpool::kept() const {
  return std::min<std::uint64_t>(stored_, limit_);
}

std::uint64_t StdoutSpool::oldest_position() const {
  return stored_ > limit_ ? stored_ % limit_ : 0;
}

void StdoutSpool::copy(std::uint64_t from, std::uint64_t to, int fd, std::uint64_t& written) const {
  char buffer[kChunk];
  while (from < to) {
    const std::uint64_t at = (oldest_position() + from) % limit_;
    const std::size_t piece =
        static_cast<std::size_t>(std::min<std::uint64_t>({to - from, limit_ - at, sizeof buffer}));
    const ssize_t n = ::pread(file_.get(), buffer, piece, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_errno("cannot read the stdout spool");
    if (n == 0) throw Error("the stdout spool is shorter than what was written to it");
    write_fully(fd, buffer, static_cast<std::size_t>(n));
    from += static_cast<std::uint64_t>(n);
    written += static_cast<std::uint64_t>(n);
  }
}

std::uint64_t StdoutSpool::first_whole_line() const {
  if (stored_ <= limit_) return 0;
  char buffer[kChunk];
  for (std::uint64_t scanned = 0; scanned < kept();) {
    const std::uint64_t at = (oldest_position() + scanned) % limit_;
    const std::size_t piece = static_cast<std::size_t>(
        std::min<std::uint64_t>({kept() - scanned, limit_ - at, sizeof buffer}));
    const ssize_t n = ::pread(file_.get(), buffer, piece, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (const void* end = std::memchr(buffer, '\n', static_cast<std::size_t>(n))) {
      const std::uint64_t next =
          scanned + static_cast<std::uint64_t>(static_cast<const char*>(end) - buffer) + 1;
      return next < kept() ? next : 0;  // a tail that is one cut line: all of it
    }
    scanned += static_cast<std::uint64_t>(n);
  }
  return 0;  // no line end kept: the whole tail
}

SpoolDelivery StdoutSpool::deliver(int fd) const {
  SpoolDelivery delivery;
  delivery.problem = problem_;
  delivery.truncated = stored_ > limit_;
  try {
    copy(first_whole_line(), kept(), fd, delivery.bytes);
  } catch (const Error& e) {
    delivery.problem = e.what();
  }
  delivery.dropped = received_ - delivery.bytes;
  return delivery;
}

}  // namespace fleet
