#pragma once
// The one exception type of the library: a message a person can act on. It is how a failure
// the caller does not branch on travels to the program's main (exit_status.h states the
// rule); it carries no code to branch on.

#include <stdexcept>
#include <string>

namespace fleet {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Throws Error("<what>: <strerror(errno)>").
[[noreturn]] void throw_errno(const std::string& what);

}  // namespace fleet
