// The provenance store as other programs leave it: whatever they do to the file (rewrite it in
// place, truncate it, copy or rename another file over it, delete and recreate it, append
// torn lines), resume-guard and `fleet-hooks query` decide on the first complete record of
// the session in the store as it is now, exactly as a plain scan of the file does.

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixtures.h"
#include "process.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::write_file;

namespace {

// Session X and Y have ids of the same length, and so do the owners O1 and O2: a line of one
// can replace a line of the other without moving any later line.
constexpr const char* kX = "0d07e5d0-0000-4000-8000-000000000001";
constexpr const char* kY = "1e07e5d0-0000-4000-8000-000000000002";
constexpr const char* kO1 = "c0ffee00-0000-4000-8000-00000000000a";
constexpr const char* kO2 = "c0ffee00-0000-4000-8000-00000000000b";

// The store, and what other programs do to its file.
struct Store : fleet::test::StoreDir {
  ino_t inode() const {
    struct stat st {};
    REQUIRE(::stat(store().c_str(), &st) == 0);
    return st.st_ino;
  }

  // What another program does with open(r+), ftruncate, write: the same inode, new content.
  void rewrite_in_place(const std::string& content) const {
    const int fd = ::open(store().c_str(), O_RDWR);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, 0) == 0);
    REQUIRE(::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()));
    ::close(fd);
  }
};

std::string line(const std::string& session, const std::string& caller,
                 const std::string& kitchen) {
  return fleet::test::autoskillit_line(
             {session, caller, kitchen, "", "implement", "", fleet::test::kTimestamp}) +
         "\n";
}

}  // namespace

TEST_CASE("store currency: the issue's reproduction, a store rewritten in place") {
  Store s;
  // Written by provenance-writer: Y first, then X owned by O2 in kitchen k2 (indexed).
  s.record(kY, kO1, "k1");
  s.record(kX, kO2, "k2");
  REQUIRE(s.guard(kO2, "k2", kX) == "silent");
  const ino_t before = s.inode();
  // Another tool rewrites the store in place: now the FIRST record of X says O1/k1, and the
  // later one O2/k2. Every line keeps its length and offset.
  const std::string text = read_file(s.store());
  const std::string first_line = text.substr(0, text.find('\n') + 1);
  std::string forged = first_line;
  const auto replace = [&forged](const std::string& from, const std::string& to) {
    forged.replace(forged.find(from), from.size(), to);
  };
  replace(kY, kX);
  REQUIRE(forged.size() == first_line.size());
  s.rewrite_in_place(forged + text.substr(first_line.size()));
  CHECK(s.inode() == before);
  // A full scan: X's first record is O1/k1, so O2 in k2 is a stranger.
  CHECK(s.guard(kO2, "k2", kX) == "deny");
  CHECK(s.query(kO2, "k2", kX) == "deny");
  CHECK(s.guard(kO1, "k1", kX) == "silent");
  CHECK(s.query(kO1, "k1", kX) == "silent");
  // The next append through the writer repairs the index; the decision stays.
  s.record("2f07e5d0-0000-4000-8000-000000000003", kO1, "k1");
  CHECK(s.guard(kO2, "k2", kX) == "deny");
  CHECK(s.guard(kO1, "k1", kX) == "silent");
}

TEST_CASE("store currency: truncated, then appended by another program") {
  Store s;
  s.record(kX, kO1, "k1");
  s.record(kY, kO1, "k1");
  REQUIRE(s.guard(kO2, "k2", kX) == "deny");
  s.rewrite_in_place("");
  CHECK(s.guard(kO2, "k2", kX) == "advisory");
  // Another program appends X for O2, then Y again: same inode, the index still names X and
  // Y at their old offsets.
  write_file(s.store(), read_file(s.store()) + line(kY, kO2, "k2") + line(kX, kO2, "k2"));
  CHECK(s.guard(kO2, "k2", kX) == "silent");
  CHECK(s.query(kO2, "k2", kX) == "silent");
  CHECK(s.guard(kO1, "k1", kX) == "deny");
}

TEST_CASE("store currency: a file copied over the store, and one renamed over it") {
  Store s;
  s.record(kY, kO1, "k1");
  s.record(kX, kO2, "k2");
  write_file(s.tmp / "other", line(kX, kO1, "k1") + line(kX, kO2, "k2"));
  // cp keeps the inode of the destination.
  REQUIRE(run_process({"/bin/cp", s.tmp / "other", s.store()}).exit_code == 0);
  CHECK(s.guard(kO2, "k2", kX) == "deny");
  CHECK(s.query(kO2, "k2", kX) == "deny");
  s.record(kY, kO2, "k2");
  write_file(s.tmp / "other2", line(kX, kO2, "k2") + line(kX, kO1, "k1"));
  REQUIRE(::rename((s.tmp / "other2").c_str(), s.store().c_str()) == 0);
  CHECK(s.guard(kO1, "k1", kX) == "deny");
  CHECK(s.guard(kO2, "k2", kX) == "silent");
}

TEST_CASE("store currency: deleted and recreated (the inode may be reused)") {
  Store s;
  s.record(kY, kO1, "k1");
  s.record(kX, kO2, "k2");
  REQUIRE(s.guard(kO2, "k2", kX) == "silent");
  const std::string old_text = read_file(s.store());
  std::string text = old_text;
  text.replace(0, text.find('\n') + 1, line(kX, kO1, "k1"));
  for (int attempt = 0; attempt < 3; ++attempt) {
    REQUIRE(::unlink(s.store().c_str()) == 0);
    write_file(s.store(), text);
    CHECK(s.guard(kO2, "k2", kX) == "deny");
    CHECK(s.query(kO2, "k2", kX) == "deny");
  }
}

TEST_CASE("store currency: torn lines and foreign appends") {
  Store s;
  s.record(kY, kO1, "k1");
  // A torn tail that would be X's first record if it were complete is not a record.
  std::string torn = line(kX, kO1, "k1");
  torn.resize(torn.size() / 2);
  write_file(s.store(), read_file(s.store()) + torn);
  CHECK(s.guard(kO2, "k2", kX) == "advisory");
  // The next writer terminates the torn line; X's first complete record is then its own.
  s.record(kX, kO2, "k2");
  CHECK(s.guard(kO2, "k2", kX) == "silent");
  CHECK(s.guard(kO1, "k1", kX) == "deny");
  // A foreign append of a later X record changes nothing.
  write_file(s.store(), read_file(s.store()) + line(kX, kO1, "k1"));
  CHECK(s.guard(kO2, "k2", kX) == "silent");
  CHECK(s.guard(kO1, "k1", kX) == "deny");
}
