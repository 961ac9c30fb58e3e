#pragma once
// A proof that a file is still exactly as a reader last saw it, without reading it: its
// device, inode, size and the kernel's change and modification times. Every write,
// truncation, rename or metadata change gives a file a new change time (ctime), and no
// program can set ctime: it can only be set by the kernel to the current time.
//
// A fingerprint is "settled" when every later change is sure to give the file, or any file
// put in its place, another ctime: once the coarse clock (which every later stamp is at
// least) is past the ctime by the stamp's step. Until then a change — or a delete and
// recreate — within the same clock tick could be stamped with the same ctime; fine-grained
// ("multigrain", Linux 6.13+) stamps only keep the stamps of one inode apart, not those of
// a recreated file, so they do not shorten the wait (at most one tick).
// Failing: nothing here throws (the guard's hot path); a fingerprint that cannot be taken
// (fstat fails) is nullopt.

#include <sys/stat.h>
#include <cstdint>
#include <optional>

namespace fleet {

struct FileFingerprint {
  std::uint64_t dev = 0;
  std::uint64_t ino = 0;
  std::uint64_t size = 0;
  std::int64_t ctime_sec = 0;
  std::int64_t ctime_nsec = 0;
  std::int64_t mtime_sec = 0;
  std::int64_t mtime_nsec = 0;
  // The inode's generation (ioctl FS_IOC_GETVERSION: ext4, xfs, btrfs), drawn at random
  // when the inode is allocated: a file deleted and recreated with the same inode number
  // gets another one. 0 where the file system does not tell it (tmpfs, others).
  std::uint64_t generation = 0;

  bool operator==(const FileFingerprint&) const = default;
};

// The fingerprint of the open file `fd`, whose fstat is `st` (one ioctl more).
FileFingerprint fingerprint_of(int fd, const struct stat& st);

// Whether `print` is settled, given the coarse clock (CLOCK_REALTIME_COARSE, ns) read before
// the stat that took it.
bool is_settled(const FileFingerprint& print, std::int64_t coarse_before_ns);

// A fingerprint just taken, and what was seen while taking it.
struct TakenFingerprint {
  FileFingerprint print;
  bool settled = false;  // see above
  // take_settled_fingerprint only: the file changed while it waited for the clock tick to
  // pass (`print` is the second fingerprint, taken after the wait).
  bool changed_while_waiting = false;
};

// fstat of `fd` as a fingerprint, and whether it is settled. nullopt when fstat fails.
std::optional<TakenFingerprint> take_fingerprint(int fd);

// take_fingerprint, and when the fingerprint is not settled because the file changed within
// the current coarse clock tick (at most 10 ms), waits for that tick to pass and takes it
// again. nullopt when fstat fails.
std::optional<TakenFingerprint> take_settled_fingerprint(int fd);

}  // namespace fleet
