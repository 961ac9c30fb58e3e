#pragma once
// Test support: the program platform_test's "arguments and environment" runs as a child
// (tests/support/<system>/environment_child.cpp, chosen by tests/platform.cmake).

#include <string>

namespace fleet::test {

// A program that, run with argv {"sh", "-c", "read line", …} and FLEET_PLATFORM_TEST=yes in its
// environment, waits on its standard input until it is killed. Linux: /bin/sh. macOS: this
// test program (clean_env_main.cpp waits so), since under SIP macOS withholds the environment
// of its own code-signing-restricted programs, /bin/sh among them (doc/platforms.md).
std::string environment_child_program();

}  // namespace fleet::test
