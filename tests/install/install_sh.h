#pragma once
// Test support for the install tests: install.sh run by its path as a user runs it, from a
// working directory of their own, with their HOME and PATH.

#include <string>
#include <vector>

#include "process.h"

namespace fleet::test {

// The path of the repository's install.sh.
extern const std::string kInstallSh;

// This process's PATH ("/usr/bin:/bin" when it has none).
std::string user_path();

// install.sh run with `args` from `cwd` with its own HOME (fleet-hooks check reads the user's
// settings) and `path` as PATH ("" keeps this process's PATH).
RunResult install_sh(const std::vector<std::string>& args, const std::string& cwd,
                     const std::string& home, const std::string& path = "");

// A PATH whose first directory, `dir` (created), holds a `cmake` that only creates the file
// `trace` and fails: install.sh run with it shows whether it started a build.
std::string path_with_tracing_cmake(const std::string& dir, const std::string& trace);

}  // namespace fleet::test
