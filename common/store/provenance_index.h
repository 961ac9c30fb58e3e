#pragma once
// The provenance store's index, <store>.idx: for every record line, the first 8 bytes of its
// session id and the line's offset. It lets resume-guard read a few lines of a store of a
// million records instead of all of them.
//
// It is a cache, never the truth. Its header holds the fingerprint of the store it describes
// (store_fingerprint.h: device, inode, inode generation, size, change and modification times,
// to the nanosecond) and the boot it was taken in. Readers use it only when that fingerprint is
// settled and equals the store's fingerprint now: then nothing has changed the store since
// the index was brought up to date, and the index covers every line of it. Anything else —
// a store another program appended to, rewrote, truncated, replaced or recreated, a reboot,
// a damaged index — makes readers scan the store instead, and the next writer (or a guard
// that can take the store's lock without waiting) rebuilds the index. Deleting it is always
// safe.
//
// Failing: reading never throws (an index that cannot be used is IndexCandidates::usable
// false, and the reader scans); bringing it up to date throws Error, which the caller turns
// into a warning (the record is stored either way).
//
// Format (native byte order; the index never leaves the machine that wrote it): a 128-byte
// header ("FHPIDX3\n", the fingerprint, flags, the number of sorted entries, the boot id),
// then 16-byte entries {key, offset}: first a section sorted by key (then offset), then the
// entries of lines appended since, in store order. A writer rewrites the whole index
// (sorted, into a temporary file renamed over it) when that tail grows long.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "store/store_fingerprint.h"

namespace fleet {

// The first 8 bytes of `session_id`, zero-padded, big-endian: keys order as the ids do.
std::uint64_t index_key(std::string_view session_id);

// <store_path>.idx
std::string index_path(const std::string& store_path);

// Under the store's lock, with `store_fd` open on the store: brings the index up to date.
// When the caller just appended `appended_bytes` to the store and `before` is the store's
// fingerprint taken right before that append, and the index described exactly that state,
// only the new line is added; otherwise the whole store is indexed again. Throws Error.
void update_index(const std::string& store_path, int store_fd, const FileFingerprint* before,
                  std::uint64_t appended_bytes);

// What a visitor of candidate lines (visit_index_candidates) still needs.
enum class CandidateNeed {
  all,        // every candidate line
  exact_key,  // only lines whose key is index_key(id): the lines the exact id can be on
  nothing,    // no more lines
};
using CandidateVisitor = std::function<CandidateNeed(std::uint64_t offset)>;

// Offers `visit` the offsets of the lines of the store whose fingerprint is `store` that may
// hold records of `id` (a full id, or a prefix of one: every session id starting with a prefix
// shorter than 8 bytes is a candidate), until it needs no more: first the sorted section by
// key (the exact id's key first; within a key, in store order), then the lines appended since,
// in store order. So the first line offered of any one session is its first line in the store.
// The index is read a block at a time: time and memory grow with the lines visited, not with
// how many sessions `id` is the start of. Returns false when the index cannot be used (it does
// not describe the store exactly as `store` says, or cannot be read): the caller scans the
// store instead, and forgets what it was offered. Never throws.
bool visit_index_candidates(const std::string& store_path, const FileFingerprint& store,
                            std::string_view id, const CandidateVisitor& visit);

struct IndexCandidates {
  bool usable = false;                 // false: the index cannot be used; scan the store
  std::vector<std::uint64_t> offsets;  // lines whose key matches `id`, in store order
};

// Every candidate line of `id` (visit_index_candidates), in store order. Never throws.
IndexCandidates index_candidates(const std::string& store_path, const FileFingerprint& store,
                                 std::string_view id);

}  // namespace fleet
