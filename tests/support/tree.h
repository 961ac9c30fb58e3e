#pragma once
// Test support: a directory tree as a comparable list of entries, and the path of a command
// on PATH (run_process does not search PATH).

#include <string>
#include <vector>

namespace fleet::test {

// One line per entry below `root`, sorted: relative path, permission bits, type and, for a
// regular file, its content. {"<missing>"} when root does not exist.
std::vector<std::string> snapshot_tree(const std::string& root);

// The first executable `name` in $PATH; `name` itself when there is none.
std::string on_path(const std::string& name);

}  // namespace fleet::test
