// When a store fingerprint counts as settled: never before the coarse clock has passed its
// ctime, whatever the file system's stamps.
#include "store/store_fingerprint.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/files.h"
#include "platform/file_times.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

constexpr std::int64_t kSecond = 1000000000;

// The clock file time stamps come from, as the platform reads it (Linux:
// CLOCK_REALTIME_COARSE).
std::int64_t coarse_now() {
  return platform::coarse_realtime_ns();
}

FileFingerprint stamped(std::int64_t ctime_ns) {
  FileFingerprint print;
  print.ctime_sec = ctime_ns / kSecond;
  print.ctime_nsec = ctime_ns % kSecond;
  print.mtime_sec = print.ctime_sec;
  print.mtime_nsec = print.ctime_nsec;
  return print;
}

}  // namespace

TEST_CASE("store_fingerprint: a ctime the coarse clock has not passed is never settled") {
  // The kernel facts, faked: a multigrain file system stamped the file with a fine-grained
  // time T later than the coarse tick. A file recreated in that tick can get T again.
  const std::int64_t tick = 1700000000 * kSecond + 123456789;
  CHECK_FALSE(is_settled(stamped(tick + 1500000), tick));  // fine-grained, ahead of the tick
  CHECK_FALSE(is_settled(stamped(tick), tick));            // stamped in the current tick
  CHECK(is_settled(stamped(tick - 4000000), tick));        // an earlier tick
  // Hundredths of a second: settled only once the next hundredth has begun.
  const std::int64_t hundredth = 1700000000 * kSecond + 120000000;
  CHECK_FALSE(is_settled(stamped(hundredth), hundredth + 9000000));
  CHECK(is_settled(stamped(hundredth), hundredth + 10000000));
}

TEST_CASE(
    "store_fingerprint: a file just written is settled only once the coarse clock passed "
    "its ctime") {
  TempDir tmp;
  const std::string path = tmp / "s.jsonl";
  for (int i = 0; i < 20; ++i) {
    write_file(path, "line " + std::to_string(i) + "\n");
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(fd);
    const std::int64_t before = coarse_now();
    const auto taken = take_fingerprint(fd.get());
    REQUIRE(taken);
    CHECK_FALSE(taken->changed_while_waiting);
    const std::int64_t ctime = taken->print.ctime_sec * kSecond + taken->print.ctime_nsec;
    if (taken->settled) CHECK(coarse_now() > ctime);
    if (before <= ctime) CHECK_FALSE(taken->settled);

    const auto waited = take_settled_fingerprint(fd.get());
    REQUIRE(waited);
    CHECK(waited->settled);
    CHECK_FALSE(waited->changed_while_waiting);
    CHECK(waited->print == taken->print);
    CHECK(coarse_now() > waited->print.ctime_sec * kSecond + waited->print.ctime_nsec);
  }
}

TEST_CASE(
    "store_fingerprint: a file recreated with the same inode number differs in its "
    "generation") {
  TempDir tmp;
  const std::string path = tmp / "s.jsonl";
  int reused = 0;
  for (int i = 0; i < 10; ++i) {
    write_file(path, "same\n");
    UniqueFd first(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(first);
    struct stat st {};
    REQUIRE(::fstat(first.get(), &st) == 0);
    const FileFingerprint before = fingerprint_of(first.get(), st);
    first.reset();
    REQUIRE(::unlink(path.c_str()) == 0);
    write_file(path, "same\n");
    UniqueFd second(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(second);
    REQUIRE(::fstat(second.get(), &st) == 0);
    const FileFingerprint after = fingerprint_of(second.get(), st);
    if (after.ino != before.ino || after.generation == 0) continue;  // tmpfs: no generation
    ++reused;
    CHECK(after.generation != before.generation);
    CHECK_FALSE(after == before);
  }
  MESSAGE("inode numbers reused with a generation: " << reused << " of 10");
}

TEST_CASE("store_fingerprint: no fingerprint of a descriptor fstat refuses") {
  CHECK_FALSE(take_fingerprint(-1));
  CHECK_FALSE(take_settled_fingerprint(-1));
}
