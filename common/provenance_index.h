#pragma once
// The provenance store's index, <store>.idx: for every record line, the first 8 bytes of its
// session id and the line's offset, in store order. It lets resume-guard read a few lines of
// a store of a million records instead of all of them.
//
// It is a cache, never the truth: provenance-writer brings it up to date under the store's
// lock after each append; readers verify every line it points at, scan the part of the store
// it does not cover yet (lines another tool appended), and ignore it when it belongs to
// another file or disagrees with the store. Deleting it is always safe.
//
// Format (native byte order; the index never leaves the machine that wrote it): a 32-byte
// header "FHPIDX1\n", the store's st_dev and st_ino, 8 reserved bytes; then 16-byte entries
// {key, offset}.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fleet {

// The first 8 bytes of `session_id`, zero-padded, as one number.
std::uint64_t index_key(std::string_view session_id);

// <store_path>.idx
std::string index_path(const std::string& store_path);

// Under the store's lock: indexes every complete record line of the store (open on
// `store_fd`) that the index does not cover yet; rebuilds the index when it belongs to
// another file or its last entry does not match the store. Throws Error.
void update_index(const std::string& store_path, int store_fd);

struct IndexCandidates {
  bool usable = false;                 // false: the index cannot be used; scan the store
  std::vector<std::uint64_t> offsets;  // lines whose key matches `id`, in store order
  std::uint64_t covered_end = 0;       // the index covers the store's bytes [0, covered_end)
};

// The lines that may hold records of `id` (a full id, or a prefix of one) among the first
// `store_size` bytes of the store open on `store_fd`. Never throws: any problem with the
// index makes it unusable.
IndexCandidates index_candidates(const std::string& store_path, int store_fd,
                                 std::uint64_t store_size, std::string_view id);

}  // namespace fleet
