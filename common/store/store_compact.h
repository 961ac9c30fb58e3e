#pragma once
// `fleet-hooks compact`: rewrite the provenance store without its damaged lines and later
// duplicates, atomically and under the store's lock, so that no guard decision changes and
// nothing a concurrent writer appends is lost — also one that takes no lock.
// Failing: a compaction that cannot be done throws Error (the store is then left as it was);
// a store that does not exist is a report, not a failure.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace fleet {

struct CompactionReport {
  bool existed = false;
  std::uint64_t kept = 0;
  std::uint64_t dropped_damaged = 0;     // lines readers skip anyway
  std::uint64_t dropped_duplicates = 0;  // later records of a session (the first one wins)
  std::uint64_t carried_over = 0;        // lines writers that take no lock appended meanwhile
  // Set when a process still had the replaced store open for writing when the compaction
  // stopped waiting for it: what it writes from then on is not in the store.
  std::optional<std::string> warning;
};

// Holds the store's lock (the one appends take) while it reads every line, writes the kept
// lines (byte for byte) to a temporary file, syncs it, indexes it and renames it over the
// store. Writers waiting for the lock then find the new file and append to it.
// Writers that take no lock (AutoSkillit's open('a') + one write + close) may append to the
// old file up to the moment it is replaced, and after it through a descriptor they opened
// before: lines they appended while the store was read are copied in before the rename, and
// after it the compaction waits (up to `writer_wait`) until no process has the old file open for
// writing (processes_writing) and appends what they wrote since to the new file, under its
// lock. A process that keeps the store open for writing for `writer_wait` before the
// compaction starts makes it refuse (throws Error; nothing changed). Throws Error.
CompactionReport compact_store(const std::string& store_path,
                               std::chrono::milliseconds writer_wait = std::chrono::seconds(10));

// The report for a person: "<store>: kept N records, dropped …", or that there was no store.
std::string compaction_text(const CompactionReport& report, const std::string& store_path);

}  // namespace fleet
