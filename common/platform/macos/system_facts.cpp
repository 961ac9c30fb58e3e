// Small facts of the running system (platform seam, macOS home).
#include "platform/system_facts.h"

#include <mach-o/dyld.h>
#include <sys/random.h>
#include <unistd.h>
#include <cctype>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace fleet::platform {

std::optional<std::string> executable_path() {
  std::uint32_t size = 0;
  ::_NSGetExecutablePath(nullptr, &size);
  std::vector<char> path(size + 1, '\0');
  if (size == 0 || ::_NSGetExecutablePath(path.data(), &size) != 0) return std::nullopt;
  char resolved[PATH_MAX];
  if (::realpath(path.data(), resolved) == nullptr) return std::nullopt;
  return std::string(resolved);
}

bool fill_random(unsigned char* bytes, std::size_t size) {
  // getentropy gives at most 256 bytes a call.
  for (std::size_t got = 0; got < size; got += 256) {
    const std::size_t chunk = size - got < 256 ? size - got : 256;
    if (::getentropy(bytes + got, chunk) != 0) return false;
  }
  return true;
}

std::optional<std::string> user_runtime_directory() {
  char path[PATH_MAX];
  const std::size_t length = ::confstr(_CS_DARWIN_USER_TEMP_DIR, path, sizeof path);
  if (length == 0 || length > sizeof path) return std::nullopt;
  std::string directory(path);
  while (directory.size() > 1 && directory.back() == '/') directory.pop_back();
  return directory;
}

// The plugin's hook commands read the machine from /proc/sys/kernel/arch, which a Mac lacks:
// they run the bin/ selector, which picks bin/darwin-<arm64|x86_64>/ itself (plugin/select.sh.in).
std::optional<std::string> plugin_machine_directory() {
  return std::nullopt;
}

std::optional<std::string> signal_abbreviation(int sig) {
  if (sig <= 0 || sig >= NSIG || sys_signame[sig] == nullptr) return std::nullopt;
  std::string name = sys_signame[sig];  // lower case: "term", "kill"
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace fleet::platform
