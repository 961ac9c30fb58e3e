#include "process/output_relay.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <cerrno>

namespace fleet {
namespace {

constexpr std::size_t kChunk = 65536;

}  // namespace

OutputRelay::OutputRelay(UniqueFd source, int destination, std::size_t tail_limit)
    : source_(std::move(source)), destination_(destination), tail_limit_(tail_limit) {
  const int flags = ::fcntl(source_.get(), F_GETFL);
  if (flags >= 0) ::fcntl(source_.get(), F_SETFL, flags | O_NONBLOCK);
}

void OutputRelay::pump() {
  pump_once();
}

void OutputRelay::drain() {
  while (pump_once()) {
  }
}

bool OutputRelay::pump_once() {
  if (!source_) return false;
  char buffer[kChunk];
  const ssize_t n = ::read(source_.get(), buffer, sizeof buffer);
  if (n < 0) {
    if (errno == EINTR) return true;
    if (errno == EAGAIN) return false;
    source_.reset();
    return false;
  }
  if (n == 0) {
    source_.reset();
    return false;
  }
  const auto size = static_cast<std::size_t>(n);
  tail_.append(buffer, size);
  if (tail_.size() > 2 * tail_limit_) tail_.erase(0, tail_.size() - tail_limit_);
  forward(buffer, size);
  return static_cast<bool>(source_);
}

void OutputRelay::forward(const char* data, std::size_t size) {
  if (observer_) observer_(data, size);
  if (sink_) {
    sink_(data, size);
    return;
  }
  while (size > 0 && source_) {
    const ssize_t n = ::write(destination_, data, size);
    if (n >= 0) {
      data += n;
      size -= static_cast<std::size_t>(n);
    } else if (errno == EAGAIN) {
      struct pollfd wait_writable = {destination_, POLLOUT, 0};
      ::poll(&wait_writable, 1, -1);
    } else if (errno == EPIPE && replacement_ != nullptr) {
      const int next = replacement_(replacement_context_);
      replacement_ = nullptr;
      if (next < 0) {
        source_.reset();
      } else {
        destination_ = next;
      }
    } else if (errno != EINTR) {
      source_.reset();  // EPIPE and friends: nobody reads what we would pass on
    }
  }
}

std::string OutputRelay::tail() const {
  return tail_.size() > tail_limit_ ? tail_.substr(tail_.size() - tail_limit_) : tail_;
}

}  // namespace fleet
