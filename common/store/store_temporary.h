#pragma once
// Temporary files beside the provenance store (a compaction's new store, a rebuilt index):
// created while the store's lock is held and flock'ed by their writer for as long as it
// writes them, so that a temporary nobody holds locked is one whose writer died — and the
// next compaction or append removes it. Their names carry a fixed infix (.fleet-tmp-) so
// that cleanup never mistakes a user's own file beside the store for one of them.
// Failing: creating a temporary throws Error; removing stale ones never throws (it is
// housekeeping: what cannot be removed is left for the next one).

#include <cstddef>
#include <string>

#include "base/files.h"

namespace fleet {

// A temporary just created: its path, and the descriptor that holds it locked.
struct StoreTemporary {
  UniqueFd fd;
  std::string path;
};

// Creates <store_path>.fleet-tmp-<kind>.XXXXXX (mode 0600) and takes flock(LOCK_EX) on it;
// the lock lasts as long as the returned descriptor. Throws Error.
StoreTemporary create_store_temporary(const std::string& store_path, const char* kind);

// To be called with the store's lock held: removes the temporaries of `store_path` (of any
// kind) that no process holds locked. Only names of the form above are candidates; files
// named by the naming of earlier releases (<store>.<kind>.XXXXXX) are left alone, since
// they cannot be told from a user's own files. Never throws; returns how many it removed.
std::size_t remove_stale_temporaries(const std::string& store_path);

}  // namespace fleet
