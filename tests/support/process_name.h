#pragma once
// Test support: names the calling process, where the system lets a process name itself
// (tests/support/<system>/process_name.cpp, chosen by tests/platform.cmake).

namespace fleet::test {

// Linux: the process's command name (prctl PR_SET_NAME, 15 bytes kept). macOS: nothing, since
// a process is named after its executable there and cannot rename itself.
void name_this_process(const char* name);

}  // namespace fleet::test
