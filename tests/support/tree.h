#pragma once
// Test support: a directory tree as a comparable list of entries, what of the suite it holds,
// and the path of a command on PATH (run_process does not search PATH).

#include <string>
#include <vector>

namespace fleet::test {

// One line per entry below `root`, sorted: relative path, permission bits, type and, for a
// regular file, its content. {"<missing>"} when root does not exist.
std::vector<std::string> snapshot_tree(const std::string& root);

// The paths below `root` (relative to it, sorted) whose names hold "fleet-hooks" or the name
// of one of the suite's executables (kSuiteBinaries): what a route that removed the suite must
// not leave behind. Empty when root does not exist.
std::vector<std::string> suite_paths(const std::string& root);

// The first executable `name` in $PATH; `name` itself when there is none.
std::string on_path(const std::string& name);

}  // namespace fleet::test
