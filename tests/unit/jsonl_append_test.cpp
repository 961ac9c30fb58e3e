#include "store/jsonl_append.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::TempDir;
using fleet::test::write_file;

TEST_CASE("jsonl_append: creates the file 0600 in a 0700 directory and appends lines") {
  TempDir tmp;
  const std::string path = tmp / "state/store.jsonl";
  append_jsonl(path, R"({"a":1})", {});
  append_jsonl(path, R"({"a":2})", {.fsync = true});
  CHECK(read_file(path) == "{\"a\":1}\n{\"a\":2}\n");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(::stat((tmp / "state").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
}

TEST_CASE("jsonl_append: a torn tail is terminated before the new line") {
  TempDir tmp;
  const std::string path = tmp / "store.jsonl";
  write_file(path, "{\"a\":1}\n{\"torn\":");
  append_jsonl(path, R"({"a":2})", {});
  CHECK(read_file(path) == "{\"a\":1}\n{\"torn\":\n{\"a\":2}\n");
}

TEST_CASE("jsonl_append: refuses symlinks and lines with newlines") {
  TempDir tmp;
  write_file(tmp / "target", "precious\n");
  REQUIRE(::symlink((tmp / "target").c_str(), (tmp / "store.jsonl").c_str()) == 0);
  CHECK_THROWS_AS(append_jsonl(tmp / "store.jsonl", "{}", {}), Error);
  CHECK(read_file(tmp / "target") == "precious\n");
  CHECK_THROWS_AS(append_jsonl(tmp / "other.jsonl", "{}\n{}", {}), Error);
  CHECK(::access((tmp / "other.jsonl").c_str(), F_OK) != 0);
}

TEST_CASE("jsonl_append: a file replaced after opening is not written through the old inode") {
  // Simulates a compaction that renames a new store over the path: the append must land in
  // the file that is at the path, never in the orphaned one.
  TempDir tmp;
  const std::string path = tmp / "store.jsonl";
  append_jsonl(path, R"({"n":1})", {});
  write_file(tmp / "compacted", "{\"n\":1}\n");
  REQUIRE(::rename((tmp / "compacted").c_str(), path.c_str()) == 0);
  append_jsonl(path, R"({"n":2})", {});
  CHECK(read_file(path) == "{\"n\":1}\n{\"n\":2}\n");
}

TEST_CASE("jsonl_append: an unwritable directory is a clear error and writes nothing") {
  if (::geteuid() == 0) {
    // root ignores permission bits; the read-only case is covered by a read-only mount in
    // the reliability suite.
    MESSAGE("skipped: running as root, permission bits do not apply");
    return;
  }
  TempDir tmp;
  ::mkdir((tmp / "ro").c_str(), 0500);
  CHECK_THROWS_AS(append_jsonl(tmp / "ro/store.jsonl", "{}", {}), Error);
}
