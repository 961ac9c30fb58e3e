#include "store_fingerprint.h"

#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <cstdio>

namespace fleet {
namespace {

constexpr std::int64_t kNanosPerSecond = 1000000000;
constexpr std::int64_t kMaxWaitNs = 10000000;  // one tick at 100 Hz
constexpr long kSleepNs = 500000;

std::int64_t coarse_now_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME_COARSE, &now);
  return static_cast<std::int64_t>(now.tv_sec) * kNanosPerSecond + now.tv_nsec;
}

// The time stamps' granularity as far as one value shows it: a file system that keeps whole
// seconds, or hundredths, writes zeros in the low digits. 2 s for a whole second (FAT).
std::int64_t granularity_ns(std::int64_t nsec) {
  if (nsec == 0) return 2 * kNanosPerSecond;
  std::int64_t step = 1;
  while (nsec % (step * 10) == 0) step *= 10;
  return step;
}

// Linux 6.13 and later stamp changes to ext4, xfs, btrfs and tmpfs files with multigrain
// time stamps: the first change after a stat gets a time later than the one that stat saw.
bool kernel_has_multigrain_times() {
  static const bool has = [] {
    struct utsname name {};
    int major = 0;
    int minor = 0;
    return ::uname(&name) == 0 && std::sscanf(name.release, "%d.%d", &major, &minor) == 2 &&
           (major > 6 || (major == 6 && minor >= 13));
  }();
  return has;
}

bool has_multigrain_times(int fd) {
  constexpr long kExt4 = 0xEF53;
  constexpr long kXfs = 0x58465342;
  constexpr long kBtrfs = 0x9123683E;
  constexpr long kTmpfs = 0x01021994;
  if (!kernel_has_multigrain_times()) return false;
  struct statfs fs {};
  if (::fstatfs(fd, &fs) != 0) return false;
  const long type = static_cast<long>(fs.f_type);
  return type == kExt4 || type == kXfs || type == kBtrfs || type == kTmpfs;
}

}  // namespace

FileFingerprint fingerprint_of(const struct stat& st) {
  FileFingerprint print;
  print.dev = static_cast<std::uint64_t>(st.st_dev);
  print.ino = static_cast<std::uint64_t>(st.st_ino);
  print.size = static_cast<std::uint64_t>(st.st_size);
  print.ctime_sec = st.st_ctim.tv_sec;
  print.ctime_nsec = st.st_ctim.tv_nsec;
  print.mtime_sec = st.st_mtim.tv_sec;
  print.mtime_nsec = st.st_mtim.tv_nsec;
  return print;
}

bool take_fingerprint(int fd, FileFingerprint& print, bool& settled) {
  const std::int64_t before = coarse_now_ns();
  struct stat st {};
  if (::fstat(fd, &st) != 0) return false;
  const std::int64_t after = coarse_now_ns();
  print = fingerprint_of(st);
  const std::int64_t ctime = print.ctime_sec * kNanosPerSecond + print.ctime_nsec;
  // A file system with multigrain times, or a stamp later than the coarse clock (which only
  // such a file system gives): the first change after this stat gets a later time. Or the
  // coarse tick of the last change had passed before the stat: any later change gets at
  // least the current tick.
  settled = ctime > after || before >= ctime + granularity_ns(print.ctime_nsec) ||
            has_multigrain_times(fd);
  return true;
}

bool take_settled_fingerprint(int fd, FileFingerprint& print, bool& settled,
                              bool& changed_while_waiting) {
  changed_while_waiting = false;
  if (!take_fingerprint(fd, print, settled)) return false;
  const std::int64_t step = granularity_ns(print.ctime_nsec);
  if (settled || step > kMaxWaitNs) return true;
  const std::int64_t until = print.ctime_sec * kNanosPerSecond + print.ctime_nsec + step;
  for (int i = 0; i < 2 * kMaxWaitNs / kSleepNs && coarse_now_ns() < until; ++i) {
    const struct timespec pause { 0, kSleepNs };
    ::nanosleep(&pause, nullptr);
  }
  FileFingerprint again;
  if (!take_fingerprint(fd, again, settled)) return false;
  changed_while_waiting = !(again == print);
  print = again;
  return true;
}

}  // namespace fleet
