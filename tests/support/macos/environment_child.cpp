#include "environment_child.h"

#include "platform/system_facts.h"

namespace fleet::test {

// This test program: KERN_PROCARGS2 shows its environment, which it does not show of Apple's
// restricted /bin/sh under SIP.
std::string environment_child_program() {
  return platform::executable_path().value_or("");
}

}  // namespace fleet::test
