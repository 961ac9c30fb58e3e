#pragma once
// Whether the provenance store can be trusted: a store that other users can write, or that
// lives in a directory they can write (where they could put another file in its place), may
// hold forged ownership records. resume-guard treats such a store like an unreadable one
// (it advises; with --strict it denies), provenance-writer refuses to append to it, and
// `fleet-hooks check` reports it (store-unsafe).
// Failing: never throws; an unsafe store is a StoreSafety with `safe` false, what is wrong
// and how to fix it.

#include <string>

namespace fleet {

struct StoreSafety {
  bool safe = true;
  std::string problem;  // what is wrong, naming the path ("" when safe)
  std::string fix;      // the command or step that makes it safe ("" when safe)
};

// Checks the store at `store_path` and its directory: each, when it exists, must be owned by
// the effective user and not writable by group or others; the store must be a regular file
// (a symlink is refused). A state directory that is a symbolic link is judged by the
// directory it resolves to, and a link to anything else is refused as a symbolic link. A
// store that does not exist yet is safe when its directory is. Never throws.
StoreSafety store_safety(const std::string& store_path);

}  // namespace fleet
