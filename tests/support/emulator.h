#pragma once

#include <string>
// Test support: the tests of a cross-built tree run under a user-mode emulator
// (qemu-aarch64-static for the release-aarch64 preset). A few kernel features reach the
// emulated program differently or not at all; the tests that need one skip themselves there,
// saying which feature and why, and run everywhere else.

namespace fleet::test {

// The emulator the tests run under ("" when they run natively): CMake's
// CMAKE_CROSSCOMPILING_EMULATOR of the build.
const char* emulator();

// Under an emulator: writes into `dir` (created) a `uname` that reports the emulated machine
// ("Linux aarch64"), as the emulated programs see it, and returns "<dir>:" to put first on a
// PATH. Natively: returns "". Host-side scripts of the suite (the plugin's bin/ selector, run
// by the host's /bin/sh) ask `uname`, a host program that would name the host's machine.
std::string emulated_uname_path(const std::string& dir);

// Under an emulator: prints "SKIPPED: under <emulator>: <reason>" and exits with kSkipped
// (CTest reports the test skipped). Natively: returns.
void skip_under_emulator(const char* reason);

// Whether every process start costs tens of milliseconds here: under an emulator, or in a
// build with the sanitizers (their runtime sets up its shadow memory at every start).
bool slow_process_starts();

// A repeated test's count (rounds, writers, a writer's pause): `full` where processes start
// fast, `reduced` where they start slowly (slow_process_starts). There more rounds add
// minutes, not evidence: under an emulator the racing processes run on the host's cores and
// memory order; a sanitizer checks every line the first rounds ran as it checks the last.
int full_or_reduced(int full, int reduced);

}  // namespace fleet::test
