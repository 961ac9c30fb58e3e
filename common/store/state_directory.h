#pragma once
// The state directory (the provenance store, pending launches, launch records): live data of
// this machine, never meant for a project's git. The default one, inside the project
// (<project>/.autoskillit/temp[/<campaign>]), holds a .gitignore of `*` when the suite creates
// it, as tools' caches do, so that `git status` in the project does not show it (doc/files.md).
// A directory named with --state-dir or the environment is the user's choice (a committed
// policy fixture, say) and gets none.
// Failing: a directory that cannot be created, or its .gitignore written, throws Error.

#include <string>

namespace fleet {

// Creates `dir` (and its missing parents) when it does not exist; a default state directory
// (one inside a .autoskillit/temp) it creates gets a `.gitignore` holding `*`. An existing
// directory is left as it is. Throws Error.
void ensure_state_directory(const std::string& dir);

}  // namespace fleet
