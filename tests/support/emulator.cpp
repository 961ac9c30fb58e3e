#include "emulator.h"

#include <cstdio>
#include <cstdlib>

#include <sys/stat.h>

#include "fixtures.h"
#include "temp_dir.h"

namespace fleet::test {

const char* emulator() {
  return FLEET_TEST_EMULATOR;
}

std::string emulated_uname_path(const std::string& dir) {
  if (emulator()[0] == '\0') return "";
  ::mkdir(dir.c_str(), 0755);
  write_script(dir + "/uname", std::string("echo 'Linux ") + FLEET_TEST_MACHINE + "'");
  return dir + ":";
}

bool slow_process_starts() {
  return emulator()[0] != '\0' || FLEET_TEST_SANITIZED;
}

int full_or_reduced(int full, int reduced) {
  return slow_process_starts() ? reduced : full;
}

void skip_under_emulator(const char* reason) {
  if (emulator()[0] == '\0') return;
  std::printf("SKIPPED: under %s: %s\n", emulator(), reason);
  std::fflush(stdout);
  std::_Exit(kSkipped);
}

}  // namespace fleet::test
