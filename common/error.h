#pragma once
// The one exception type of the library: a message a person can act on.

#include <stdexcept>
#include <string>

namespace fleet {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, int code = 0)
      : std::runtime_error(message), code_(code) {}
  // The errno behind the failure, 0 when there is none.
  int code() const { return code_; }

 private:
  int code_;
};

// Throws Error("<what>: <strerror(errno)>", errno).
[[noreturn]] void throw_errno(const std::string& what);

}  // namespace fleet
