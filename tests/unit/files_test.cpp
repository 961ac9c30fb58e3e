#include "base/files.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>

#include "base/error.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;

TEST_CASE("files: parent_directory") {
  CHECK(parent_directory("/a/b/c") == "/a/b");
  CHECK(parent_directory("/a/b/") == "/a");
  CHECK(parent_directory("/a") == "/");
  CHECK(parent_directory("a") == ".");
  CHECK(parent_directory("a/b") == "a");
}

TEST_CASE("files: ensure_directory creates private directories") {
  TempDir tmp;
  const std::string deep = tmp / "x/y/z";
  ensure_directory(deep);
  struct stat st {};
  REQUIRE(::stat(deep.c_str(), &st) == 0);
  CHECK(S_ISDIR(st.st_mode));
  CHECK((st.st_mode & 0777) == 0700);
  REQUIRE(::stat((tmp / "x").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  ensure_directory(deep);  // idempotent
  fleet::test::write_file(tmp / "file", "x");
  CHECK_THROWS_AS(ensure_directory(tmp / "file"), Error);
}

TEST_CASE("files: open_regular_file refuses symlinks - directories and FIFOs") {
  TempDir tmp;
  fleet::test::write_file(tmp / "real", "x");
  REQUIRE(::symlink((tmp / "real").c_str(), (tmp / "link").c_str()) == 0);
  REQUIRE(::mkfifo((tmp / "fifo").c_str(), 0600) == 0);

  CHECK(open_regular_file(tmp / "real", O_RDONLY));
  try {
    open_regular_file(tmp / "link", O_RDONLY);
    FAIL("a symlink was opened");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("symbolic link") != std::string::npos);
  }
  CHECK_THROWS_AS(open_regular_file(tmp.path(), O_RDONLY), Error);
  // Neither end of a FIFO may hang or be accepted.
  CHECK_THROWS_AS(open_regular_file(tmp / "fifo", O_RDONLY), Error);
  CHECK_THROWS_AS(open_regular_file(tmp / "fifo", O_WRONLY | O_APPEND), Error);

  // Without exceptions: a missing file is its own outcome, everything else is `failed`.
  OpenedFile missing = try_open_regular_file(tmp / "missing", O_RDONLY);
  CHECK(missing.status == FileStatus::missing);
  CHECK(missing.problem.find("missing") != std::string::npos);
  CHECK_FALSE(missing.fd);
  const OpenedFile link = try_open_regular_file(tmp / "link", O_RDONLY);
  CHECK(link.status == FileStatus::failed);
  CHECK(link.problem.find("symbolic link") != std::string::npos);
  CHECK(try_open_regular_file(tmp / "fifo", O_RDONLY).status == FileStatus::failed);
  const OpenedFile real = try_open_regular_file(tmp / "real", O_RDONLY);
  CHECK(real.status == FileStatus::ok);
  CHECK(real.fd);
  CHECK_FALSE(open_regular_file_if_exists(tmp / "missing", O_RDONLY).has_value());
  CHECK(open_regular_file_if_exists(tmp / "real", O_RDONLY).has_value());
  CHECK_THROWS_AS(open_regular_file_if_exists(tmp / "link", O_RDONLY), Error);
}

TEST_CASE("files: the descriptor is blocking and close-on-exec after a successful open") {
  TempDir tmp;
  UniqueFd fd = open_regular_file(tmp / "new", O_WRONLY | O_CREAT | O_APPEND, 0600);
  const int status = ::fcntl(fd.get(), F_GETFL);
  CHECK((status & O_NONBLOCK) == 0);
  CHECK((status & O_APPEND) != 0);
  CHECK((::fcntl(fd.get(), F_GETFD) & FD_CLOEXEC) != 0);
  write_all(fd.get(), "hello", "test file");
  CHECK(fleet::test::read_file(tmp / "new") == "hello");
}

TEST_CASE("files: UniqueFd closes what it owns") {
  int raw = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  {
    UniqueFd owner(raw);
    UniqueFd moved = std::move(owner);
    CHECK_FALSE(owner);
    CHECK(moved.get() == raw);
  }
  CHECK(::fcntl(raw, F_GETFD) == -1);
}

TEST_CASE("files: replace_file_atomically writes a private file and refuses symlinks") {
  TempDir tmp;
  const std::string path = tmp / "dir/state.json";
  replace_file_atomically(path, "one");
  CHECK(read_regular_file(path, 100) == "one");
  replace_file_atomically(path, "two");
  CHECK(read_regular_file(path, 100) == "two");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  fleet::test::write_file(tmp / "target", "keep");
  REQUIRE(::symlink((tmp / "target").c_str(), (tmp / "link").c_str()) == 0);
  CHECK_THROWS_AS(replace_file_atomically(tmp / "link", "x"), Error);
  CHECK(fleet::test::read_file(tmp / "target") == "keep");
  // No temporary file is left behind.
  CHECK(fleet::test::run_ls(tmp / "dir") == std::vector<std::string>{"state.json"});
}

TEST_CASE("files: read_regular_file limits and errors") {
  TempDir tmp;
  fleet::test::write_file(tmp / "big", std::string(100, 'x'));
  CHECK_THROWS_AS(read_regular_file(tmp / "big", 99), Error);
  CHECK(read_regular_file(tmp / "big", 100).size() == 100);
  CHECK_THROWS_AS(read_regular_file(tmp / "missing", 10), Error);
  CHECK_FALSE(read_regular_file_if_exists(tmp / "missing", 10).has_value());
  CHECK(read_regular_file_if_exists(tmp / "big", 100) == std::string(100, 'x'));
  CHECK_THROWS_AS(read_regular_file_if_exists(tmp / "big", 99), Error);
  CHECK(try_read_regular_file(tmp / "missing", 10).status == FileStatus::missing);
  const ReadFile big = try_read_regular_file(tmp / "big", 99);
  CHECK(big.status == FileStatus::failed);
  CHECK(big.problem.find("larger than 99 bytes") != std::string::npos);
  CHECK(big.content.empty());
  CHECK(try_read_regular_file(tmp / "big", 100).content.size() == 100);
}

TEST_CASE("files: lock_file excludes a second holder until the first closes") {
  TempDir tmp;
  const std::string path = tmp / "locks/m.lock";
  UniqueFd held = lock_file(path);
  UniqueFd probe(::open(path.c_str(), O_RDWR | O_CLOEXEC));
  CHECK(::flock(probe.get(), LOCK_EX | LOCK_NB) != 0);
  held.reset();
  CHECK(::flock(probe.get(), LOCK_EX | LOCK_NB) == 0);
}
