#pragma once
// `fleet-hooks compact`: rewrite the provenance store without its damaged lines and later
// duplicates, atomically and under the store's lock, so that no guard decision changes and
// nothing a concurrent writer appends is lost.
// Failing: a compaction that cannot be done throws Error (the store is then left as it was);
// a store that does not exist is a report, not a failure.

#include <cstdint>
#include <string>

namespace fleet {

struct CompactionReport {
  bool existed = false;
  std::uint64_t kept = 0;
  std::uint64_t dropped_damaged = 0;     // lines readers skip anyway
  std::uint64_t dropped_duplicates = 0;  // later records of a session (the first one wins)
};

// Holds the store's lock (the one appends take) while it reads every line, writes the kept
// lines (byte for byte) to a temporary file, syncs it, indexes it and renames it over the
// store. Writers waiting for the lock then find the new file and append to it. Throws Error.
CompactionReport compact_store(const std::string& store_path);

// The report for a person: "<store>: kept N records, dropped …", or that there was no store.
std::string compaction_text(const CompactionReport& report, const std::string& store_path);

}  // namespace fleet
