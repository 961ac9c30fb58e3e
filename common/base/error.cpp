#include "base/error.h"

#include <cerrno>
#include <cstring>

namespace fleet {

void throw_errno(const std::string& what) {
  const int saved = errno;
  throw Error(what + ": " + std::strerror(saved));
}

}  // namespace fleet
