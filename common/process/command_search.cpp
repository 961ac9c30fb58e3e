#include "process/command_search.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "base/exit_status.h"

namespace fleet {

int ExecFailure::exit_status() const {
  return error == ENOENT ? exit_status::not_found : exit_status::not_executable;
}

std::string ExecFailure::reason() const {
  return std::strerror(error);
}

std::vector<std::string> exec_candidates(const std::string& name) {
  if (name.find('/') != std::string::npos) return {name};
  const char* path = std::getenv("PATH");
  const std::string search = path != nullptr ? path : "/usr/local/bin:/bin:/usr/bin";
  std::vector<std::string> candidates;
  std::size_t start = 0;
  for (;;) {
    const std::size_t colon = search.find(':', start);
    const std::string directory = search.substr(start, colon - start);
    candidates.push_back((directory.empty() ? std::string(".") : directory) + "/" + name);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return candidates;
}

// As the exec search (spawn.cpp): a candidate that does not exist goes on to the next; one
// that exists but cannot be executed is remembered (EACCES) and the search goes on.
std::optional<ExecFailure> find_command(const std::string& name) {
  if (name.empty()) return ExecFailure{ENOENT};
  int result = ENOENT;
  for (const std::string& candidate : exec_candidates(name)) {
    struct stat st {};
    if (::stat(candidate.c_str(), &st) != 0) {
      if (errno == EACCES) result = EACCES;  // a directory on the way we may not search
      continue;
    }
    if (S_ISREG(st.st_mode) && ::faccessat(AT_FDCWD, candidate.c_str(), X_OK, AT_EACCESS) == 0)
      return std::nullopt;
    result = EACCES;
  }
  return ExecFailure{result};
}

}  // namespace fleet
