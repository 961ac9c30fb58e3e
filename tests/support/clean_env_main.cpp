// doctest main for the suite's tests: removes every variable the suite reads from the
// environment first, so a developer's or CI's environment cannot change an outcome.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "process.h"

extern char** environ;

int main(int argc, char** argv) {
  // The child of platform_test's "arguments and environment": this program, which macOS shows
  // the environment of (it withholds that of its own code-signing-restricted programs, /bin/sh
  // among them, under SIP), waits on its standard input until it is killed.
  if (const char* child = std::getenv("FLEET_PLATFORM_TEST");
      child && std::strcmp(child, "yes") == 0) {
    char byte = 0;
    while (::read(0, &byte, 1) > 0) {
    }
    return 0;
  }
  std::vector<std::string> names;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (fleet::test::is_suite_variable(*entry)) {
      const char* eq = std::strchr(*entry, '=');
      names.emplace_back(*entry, eq ? static_cast<std::size_t>(eq - *entry) : std::strlen(*entry));
    }
  }
  for (const auto& name : names) ::unsetenv(name.c_str());
  doctest::Context context(argc, argv);
  return context.run();
}
