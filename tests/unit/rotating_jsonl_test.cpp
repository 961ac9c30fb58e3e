#include "store/rotating_jsonl.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

std::vector<std::string> read_all(RotatingJsonlTail& tail) {
  std::vector<std::string> lines;
  tail.read_new([&](std::string_view line) { lines.emplace_back(line); });
  return lines;
}

std::uint64_t size_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
}

}  // namespace

TEST_CASE("rotating_jsonl: appends lines 0600 and rotates to .1 at the limit") {
  TempDir tmp;
  const std::string path = tmp / "log.jsonl";
  append_rotating_jsonl(path, "{\"n\":1}", 20);
  CHECK(read_file(path) == "{\"n\":1}\n");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  append_rotating_jsonl(path, "{\"n\":2}", 20);  // 16 bytes: below the limit
  CHECK(::access(rotated_path(path).c_str(), F_OK) != 0);
  append_rotating_jsonl(path, "{\"n\":3}", 20);  // 24 bytes: rotated
  CHECK(read_file(rotated_path(path)) == "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n");
  CHECK(::access(path.c_str(), F_OK) != 0);
  append_rotating_jsonl(path, "{\"n\":4}", 20);
  CHECK(read_file(path) == "{\"n\":4}\n");
}

TEST_CASE("rotating_jsonl: many appends keep at most about twice the limit") {
  TempDir tmp;
  const std::string path = tmp / "log.jsonl";
  const std::string line(90, 'x');  // 91 bytes a line
  constexpr std::uint64_t kLimit = 1000;
  for (int i = 0; i < 500; ++i) append_rotating_jsonl(path, line + std::to_string(i % 10), kLimit);
  const std::uint64_t current = size_of(path);
  const std::uint64_t rotated = size_of(rotated_path(path));
  CHECK(current < kLimit);
  CHECK(rotated >= kLimit);
  CHECK(rotated < kLimit + 92);
  CHECK(split_lines(read_file(path)).back() == line + "9");  // the newest line is kept
}

TEST_CASE("rotating_jsonl: refuses a symbolic link and what is not a regular file") {
  TempDir tmp;
  write_file(tmp / "target", "precious\n");
  REQUIRE(::symlink((tmp / "target").c_str(), (tmp / "log.jsonl").c_str()) == 0);
  CHECK_THROWS_AS(append_rotating_jsonl(tmp / "log.jsonl", "{}", 1000), Error);
  CHECK(read_file(tmp / "target") == "precious\n");
  REQUIRE(::mkdir((tmp / "dir.jsonl").c_str(), 0700) == 0);
  CHECK_THROWS_AS(append_rotating_jsonl(tmp / "dir.jsonl", "{}", 1000), Error);
  // A reader reads neither as a log.
  RotatingJsonlTail tail(tmp / "log.jsonl");
  CHECK(read_all(tail).empty());
  CHECK_FALSE(tail.found());
}

TEST_CASE("rotating_jsonl: the tail reads oldest first and follows across a rotation") {
  TempDir tmp;
  const std::string path = tmp / "log.jsonl";
  RotatingJsonlTail tail(path);
  CHECK(read_all(tail).empty());
  CHECK_FALSE(tail.found());
  write_file(rotated_path(path), "r1\nr2\n");
  write_file(path, "c1\nc2");  // c2 still being written
  RotatingJsonlTail reader(path);
  CHECK(read_all(reader) == std::vector<std::string>{"r1", "r2", "c1"});
  CHECK(reader.found());
  write_file(path, "c1\nc2\nc3\n");  // same inode, grown
  CHECK(read_all(reader) == std::vector<std::string>{"c2", "c3"});
  // Rotation: the lines the old file got before the rename are still read, then the new file.
  write_file(path, "c1\nc2\nc3\nc4\n");
  REQUIRE(::rename(path.c_str(), rotated_path(path).c_str()) == 0);
  write_file(path, "n1\n");
  CHECK(read_all(reader) == std::vector<std::string>{"c4", "n1"});
  CHECK(read_all(reader).empty());
  // The first reader, started before there was a log, finds it.
  CHECK(read_all(tail) == std::vector<std::string>{"n1"});
}
