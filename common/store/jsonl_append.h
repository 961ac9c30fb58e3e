#pragma once
// Appending one line to a JSON-lines file so that concurrent writers and crashed writers
// never lose or tear a complete record (doc/files.md:
// session_provenance.jsonl).
// Failing: throws Error; a missing file is returned as nullopt where it is expected.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/files.h"
#include "store/store_fingerprint.h"

namespace fleet {

struct AppendOptions {
  bool fsync = false;  // fdatasync after the write
};

// Appends `line` plus '\n' to `path` (created 0600, its directory 0700):
// flock(LOCK_EX); if the locked descriptor is no longer the file at `path` (a compaction
// replaced it), reopen and lock again; if the file does not end in '\n', a torn tail from a
// crashed writer is terminated first; then one write() of the whole line. A failed write is
// rolled back to the previous size so no partial line stays behind.
// `line` must not contain '\n'. Throws Error on failure; the file is unchanged then.
// `while_locked`, when given, runs after the write with the lock still held, on the
// descriptor of the file written (for work that must see the file exactly as appended), with
// the file's fingerprint taken right before the write and the number of bytes written.
using WhileLocked =
    std::function<void(int fd, const FileFingerprint& before, std::uint64_t appended)>;
void append_jsonl(const std::string& path, std::string_view line, const AppendOptions& options,
                  const WhileLocked& while_locked = {});

// Opens the JSON-lines file at `path` read-write (creating it 0600) and takes its
// flock(LOCK_EX), reopening until the locked descriptor is still the file at `path`.
// This is the store's lock: appends and compactions hold it. Throws Error.
UniqueFd open_locked_jsonl(const std::string& path);

// The same without creating the file: nullopt when there is none. Throws Error.
std::optional<UniqueFd> open_locked_jsonl_if_exists(const std::string& path);

}  // namespace fleet
