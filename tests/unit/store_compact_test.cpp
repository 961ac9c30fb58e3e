#include "store/store_compact.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <fstream>
#include <optional>
#include <thread>

#include "base/error.h"
#include "store/jsonl_append.h"

#include "fixtures.h"
#include "store/provenance_index.h"
#include "store/provenance_store.h"
#include "store/store_verify.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::record;
using fleet::test::TempDir;
using fleet::test::write_file;

TEST_CASE(
    "store_compact: damaged lines and later duplicates go - first records stay byte for byte") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  const std::string autoskillit =
      read_file(std::string(FLEET_FIXTURES) + "/autoskillit_store.jsonl");
  write_file(store, autoskillit + "garbage\n\n");
  append_record(store, record("0d07e5d0-0000-4000-8000-000000000001", "caller-1", "k-later"), {});
  append_record(store, record("w-2", "caller-1", "k2"), {});
  write_file(store, read_file(store) + "{\"torn");

  const auto before = lookup_session(store, "0d07e5d0-0000-4000-8000-000000000001");
  const auto report = compact_store(store);
  CHECK(report.existed);
  CHECK(report.kept == 4);
  CHECK(report.dropped_damaged == 3);
  CHECK(report.dropped_duplicates == 1);
  CHECK(read_file(store) == autoskillit + to_json_line(record("w-2", "caller-1", "k2")) + "\n");
  CHECK_FALSE(verify_store(store).has_errors());
  // No decision changes: the same first record.
  CHECK(lookup_session(store, "0d07e5d0-0000-4000-8000-000000000001").record == before.record);
  CHECK(lookup_session(store, "w-2").record.kitchen_id == "k2");
  struct stat st {};
  REQUIRE(::stat(store.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
}

TEST_CASE("store_compact: the index is rebuilt for the new file - a missing store is fine") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  CHECK_FALSE(compact_store(store).existed);
  append_record(store, record("aaaaaaaa-1", "caller-1", "k"), {});
  append_record(store, record("aaaaaaaa-1", "caller-1", "k2"), {});
  compact_store(store);
  UniqueFd fd = open_regular_file(store, O_RDONLY);
  struct stat st {};
  REQUIRE(::fstat(fd.get(), &st) == 0);
  const auto candidates = index_candidates(store, fingerprint_of(fd.get(), st), "aaaaaaaa");
  CHECK(candidates.usable);
  CHECK(candidates.offsets.size() == 1);
  CHECK(lookup_session(store, "aaaaaaaa-1").used_index);
}

TEST_CASE("store_compact: the report for a person - counts - or no store yet") {
  CHECK(compaction_text(CompactionReport{}, "/s/p.jsonl") ==
        "/s/p.jsonl: no store yet; nothing to compact\n");
  CompactionReport report;
  report.existed = true;
  report.kept = 3;
  report.dropped_damaged = 1;
  report.dropped_duplicates = 2;
  CHECK(compaction_text(report, "/s/p.jsonl") ==
        "/s/p.jsonl: kept 3 records, dropped 1 damaged lines and 2 later duplicates\n");
  report.carried_over = 4;  // appended meanwhile by writers that take no lock
  CHECK(compaction_text(report, "/s/p.jsonl") ==
        "/s/p.jsonl: kept 3 records, dropped 1 damaged lines and 2 later duplicates; carried "
        "over 4 lines appended meanwhile by writers that take no lock\n");
}

namespace {

// A child process that opens `store` for appending without a lock, as AutoSkillit's writer
// does, says so on its pipe, and writes `line` once told to (then closes and exits).
struct LockFreeWriter {
  pid_t pid = -1;
  int ready = -1;  // read end: one byte once the store is open
  int go = -1;     // write end: one byte makes it write

  LockFreeWriter(const std::string& store, const std::string& line) {
    int ready_pipe[2];
    int go_pipe[2];
    REQUIRE(::pipe(ready_pipe) == 0);
    REQUIRE(::pipe(go_pipe) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // Only its pipes: an inherited descriptor of the store would hold the parent's locks, and
      // the parent closing its end of `go` must end the wait.
      for (int fd = 3; fd < 1024; ++fd) {
        if (fd != ready_pipe[1] && fd != go_pipe[0]) ::close(fd);
      }
      const int fd = ::open(store.c_str(), O_WRONLY | O_APPEND);
      char byte = 'r';
      if (fd < 0 || ::write(ready_pipe[1], &byte, 1) != 1) ::_exit(1);
      if (::read(go_pipe[0], &byte, 1) != 1) ::_exit(0);  // told to stop: writes nothing
      const bool written =
          ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
      ::close(fd);
      ::_exit(written ? 0 : 1);
    }
    ::close(ready_pipe[1]);
    ::close(go_pipe[0]);
    ready = ready_pipe[0];
    go = go_pipe[1];
    char byte = 0;
    REQUIRE(::read(ready, &byte, 1) == 1);
  }

  void write_line() const {
    const char byte = 'g';
    REQUIRE(::write(go, &byte, 1) == 1);
  }

  int finish() {
    ::close(go);
    ::close(ready);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

ino_t inode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_ino;
}

// Whether some process waits for the flock of the file with inode `ino` (/proc/locks).
bool lock_waited_for(ino_t ino) {
  std::ifstream locks("/proc/locks");
  std::string suffix = ":";  // ...:<major>:<minor>:<inode> <start> <end>
  suffix += std::to_string(ino);
  suffix += ' ';
  for (std::string line; std::getline(locks, line);) {
    if (line.find("-> FLOCK") != std::string::npos && line.find(suffix) != std::string::npos)
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("store_compact: a process that keeps the store open for writing makes it refuse") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("w-1", "caller-1", "k"), {});
  append_record(store, record("w-1", "caller-1", "k-later"), {});
  const std::string before = read_file(store);
  LockFreeWriter writer(store, "never written\n");
  try {
    compact_store(store, std::chrono::milliseconds(300));
    FAIL("compacted a store another process keeps open for writing");
  } catch (const Error& e) {
    const std::string message = e.what();
    CHECK(message.find("pid " + std::to_string(writer.pid)) != std::string::npos);
    CHECK(message.find("Nothing was changed") != std::string::npos);
  }
  CHECK(read_file(store) == before);
  CHECK(writer.finish() == 0);
  CHECK(compact_store(store).dropped_duplicates == 1);  // once it has closed the store
}

TEST_CASE("store_compact: what a lock-free writer appends to the replaced file is carried over") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("w-1", "caller-1", "k"), {});
  append_record(store, record("w-1", "caller-1", "k-later"), {});
  const ino_t old_inode = inode_of(store);
  std::optional<UniqueFd> held = open_locked_jsonl(store);  // the compaction waits for it

  std::optional<CompactionReport> report;
  std::string failure;
  std::thread compaction([&] {
    try {
      report = compact_store(store);
    } catch (const Error& e) {
      failure = e.what();
    }
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!lock_waited_for(old_inode) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // Opened before the rename, written after it: the line lands in the replaced file.
  const std::string late = to_json_line(record("w-late", "caller-2", "k")) + "\n";
  LockFreeWriter writer(store, late);
  held.reset();
  while (inode_of(store) == old_inode && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  writer.write_line();
  CHECK(writer.finish() == 0);
  compaction.join();
  CHECK(failure.empty());
  REQUIRE(report);
  CHECK(report->dropped_duplicates == 1);
  CHECK(report->carried_over == 1);
  CHECK_FALSE(report->warning);
  CHECK(read_file(store) == to_json_line(record("w-1", "caller-1", "k")) + "\n" + late);
  CHECK(lookup_session(store, "w-late").record.caller_session_id == "caller-2");
}
