#include "environment_child.h"

namespace fleet::test {

std::string environment_child_program() {
  return "/bin/sh";
}

}  // namespace fleet::test
