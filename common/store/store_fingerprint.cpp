#include "store/store_fingerprint.h"

#include <time.h>

#include "platform/file_times.h"

namespace fleet {
namespace {

constexpr std::int64_t kNanosPerSecond = 1000000000;
constexpr std::int64_t kMaxWaitNs = 10000000;  // one tick at 100 Hz
constexpr long kSleepNs = 500000;

std::int64_t coarse_now_ns() {
  return platform::coarse_realtime_ns();
}

// The time stamps' granularity as far as one value shows it: a file system that keeps whole
// seconds, or hundredths, writes zeros in the low digits. 2 s for a whole second (FAT).
std::int64_t granularity_ns(std::int64_t nsec) {
  if (nsec == 0) return 2 * kNanosPerSecond;
  std::int64_t step = 1;
  while (nsec % (step * 10) == 0) step *= 10;
  return step;
}

}  // namespace

bool is_settled(const FileFingerprint& print, std::int64_t coarse_before_ns) {
  // Every time stamp the kernel gives any file from now on — coarse (the tick, or the
  // multigrain floor, which is never below it) or fine-grained — is at least the coarse
  // clock. Once that clock is a whole stamp step past this ctime, no later change of this
  // file, and no file put in its place, can get this ctime again. Multigrain stamps do not
  // spare the wait: they keep the stamps of ONE inode apart, but a file recreated in the
  // same tick (even with the inode number reused) can be stamped with the very floor value
  // this ctime holds.
  const std::int64_t ctime = print.ctime_sec * kNanosPerSecond + print.ctime_nsec;
  return coarse_before_ns >= ctime + granularity_ns(print.ctime_nsec);
}

FileFingerprint fingerprint_of(int fd, const struct stat& st) {
  FileFingerprint print;
  print.dev = static_cast<std::uint64_t>(st.st_dev);
  print.ino = static_cast<std::uint64_t>(st.st_ino);
  print.size = static_cast<std::uint64_t>(st.st_size);
  const platform::FileTimes times = platform::file_times(st);
  print.ctime_sec = times.ctime_sec;
  print.ctime_nsec = times.ctime_nsec;
  print.mtime_sec = times.mtime_sec;
  print.mtime_nsec = times.mtime_nsec;
  print.generation = platform::file_generation(fd);
  return print;
}

std::optional<TakenFingerprint> take_fingerprint(int fd) {
  const std::int64_t before = coarse_now_ns();
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  TakenFingerprint taken;
  taken.print = fingerprint_of(fd, st);
  taken.settled = is_settled(taken.print, before);
  return taken;
}

std::optional<TakenFingerprint> take_settled_fingerprint(int fd) {
  const std::optional<TakenFingerprint> first = take_fingerprint(fd);
  if (!first) return std::nullopt;
  const FileFingerprint& print = first->print;
  const std::int64_t step = granularity_ns(print.ctime_nsec);
  if (first->settled || step > kMaxWaitNs) return first;
  const std::int64_t until = print.ctime_sec * kNanosPerSecond + print.ctime_nsec + step;
  for (int i = 0; i < 2 * kMaxWaitNs / kSleepNs && coarse_now_ns() < until; ++i) {
    const struct timespec pause { 0, kSleepNs };
    ::nanosleep(&pause, nullptr);
  }
  std::optional<TakenFingerprint> again = take_fingerprint(fd);
  if (!again) return std::nullopt;
  again->changed_while_waiting = !(again->print == print);
  return again;
}

}  // namespace fleet
