#include "emulator.h"

#include <cstdio>
#include <cstdlib>

#include "fixtures.h"

namespace fleet::test {

const char* emulator() {
  return FLEET_TEST_EMULATOR;
}

void skip_under_emulator(const char* reason) {
  if (emulator()[0] == '\0') return;
  std::printf("SKIPPED: under %s: %s\n", emulator(), reason);
  std::fflush(stdout);
  std::_Exit(kSkipped);
}

}  // namespace fleet::test
