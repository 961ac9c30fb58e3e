#pragma once
// A proof that a file is still exactly as a reader last saw it, without reading it: its
// device, inode, size and the kernel's change and modification times. Every write,
// truncation, rename or metadata change gives a file a new change time (ctime), and no
// program can set ctime: it can only be set by the kernel to the current time.
//
// A fingerprint is "settled" when every later change is sure to give the file another
// ctime: on a file system with fine-grained change times (Linux 6.13 and later: ext4, xfs,
// btrfs, tmpfs), the stat that took the fingerprint makes the kernel stamp the next change
// with a new time; on one whose change times follow the coarse clock tick, only once that
// tick has passed (a change in the same tick would keep the same ctime).

#include <sys/stat.h>
#include <cstdint>

namespace fleet {

struct FileFingerprint {
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  std::uint64_t size = 0;
  std::int64_t ctime_sec = 0;
  std::int64_t ctime_nsec = 0;
  std::int64_t mtime_sec = 0;
  std::int64_t mtime_nsec = 0;

  bool operator==(const FileFingerprint&) const = default;
};

FileFingerprint fingerprint_of(const struct stat& st);

// fstat of `fd` as a fingerprint, and whether it is settled (see above). Returns false
// when fstat fails.
bool take_fingerprint(int fd, FileFingerprint& print, bool& settled);

// take_fingerprint, and when the fingerprint is not settled because the file changed within
// the current coarse clock tick (at most 10 ms), waits for that tick to pass and takes it
// again. `changed_while_waiting` tells that the second fingerprint differs (the file was
// changed meanwhile; `print` is then the second one). Returns false when fstat fails.
bool take_settled_fingerprint(int fd, FileFingerprint& print, bool& settled,
                              bool& changed_while_waiting);

}  // namespace fleet
