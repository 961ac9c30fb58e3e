// Small facts of the running system (platform seam, Linux home).
#include "platform/system_facts.h"

#include <sys/random.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include "base/files.h"

namespace fleet::platform {

std::optional<std::string> executable_path() {
  char buffer[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (n <= 0) return std::nullopt;
  return std::string(buffer, static_cast<std::size_t>(n));
}

bool fill_random(unsigned char* bytes, std::size_t size) {
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::getrandom(bytes + got, size - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<std::string> user_runtime_directory() {
  return "/run/user/" + std::to_string(::geteuid());
}

std::optional<std::string> plugin_machine_directory() {
  const ReadFile read = try_read_regular_file("/proc/sys/kernel/arch", 64);
  if (read.status != FileStatus::ok) return std::nullopt;
  std::string machine = read.content;
  while (!machine.empty() && (machine.back() == '\n' || machine.back() == ' ')) machine.pop_back();
  if (machine.empty()) return std::nullopt;
  return "linux-" + machine;
}

std::optional<std::string> signal_abbreviation(int sig) {
  const char* abbreviation = ::sigabbrev_np(sig);
  if (abbreviation == nullptr) return std::nullopt;
  return std::string(abbreviation);
}

}  // namespace fleet::platform
