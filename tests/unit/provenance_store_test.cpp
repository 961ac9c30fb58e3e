#include "store/provenance_store.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "fixtures.h"
#include "store/provenance_index.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::kWorker;
using fleet::test::kWorker2;
using fleet::test::read_file;
using fleet::test::record;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

constexpr const char* kCaller = fleet::test::kL3;

}  // namespace

TEST_CASE("provenance_store: append then look up") {
  TempDir tmp;
  const std::string store = tmp / "state/session_provenance.jsonl";
  // Stored and indexed: nothing to warn about.
  CHECK_FALSE(append_record(store, record(kWorker, kCaller), {}).index_warning);
  auto found = lookup_session(store, kWorker);
  CHECK(found.status == StoreLookup::Status::found);
  CHECK(found.used_index);
  CHECK(found.record == record(kWorker, kCaller));
  CHECK(lookup_session(store, kWorker2).status == StoreLookup::Status::not_found);
}

TEST_CASE("provenance_store: the first record of a session is authoritative") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record(kWorker, kCaller, "kitchen-1"), {});
  append_record(store, record(kWorker, "intruder-0000", "kitchen-9"), {});
  auto found = lookup_session(store, kWorker);
  REQUIRE(found.status == StoreLookup::Status::found);
  CHECK(found.record.caller_session_id == kCaller);
  CHECK(found.record.kitchen_id == "kitchen-1");
}

TEST_CASE("provenance_store: a line naming the id only as a caller is not its record") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record(kWorker2, kWorker), {});
  CHECK(lookup_session(store, kWorker).status == StoreLookup::Status::not_found);
}

TEST_CASE("provenance_store: short ids resolve when unique and are ambiguous otherwise") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("abc12345-0000-4000-8000-000000000001", kCaller, "k1"), {});
  append_record(store, record("abc12345-0000-4000-8000-000000000001", "later-caller", "k2"), {});
  append_record(store, record("abd99999-0000-4000-8000-000000000002", kCaller), {});

  auto unique = lookup_session(store, "abc1");
  REQUIRE(unique.status == StoreLookup::Status::found);
  CHECK(unique.record.session_id == "abc12345-0000-4000-8000-000000000001");
  CHECK(unique.record.kitchen_id == "k1");  // its first record

  auto ambiguous = lookup_session(store, "ab");
  REQUIRE(ambiguous.status == StoreLookup::Status::ambiguous);
  CHECK(ambiguous.matches == std::vector<std::string>{"abc12345-0000-4000-8000-000000000001",
                                                      "abd99999-0000-4000-8000-000000000002"});

  // A full UUID never resolves by prefix.
  CHECK(lookup_session(store, "abc12345-0000-4000-8000-00000000000").status ==
        StoreLookup::Status::found);  // 35 chars: not a UUID, so still a prefix
  CHECK(lookup_session(store, "abc12345-0000-4000-8000-00000000000f").status ==
        StoreLookup::Status::not_found);
}

TEST_CASE("provenance_store: an exact short id wins over sessions it prefixes") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("worker-10", kCaller, "k10"), {});
  append_record(store, record("worker-1", kCaller, "k1"), {});
  auto found = lookup_session(store, "worker-1");
  REQUIRE(found.status == StoreLookup::Status::found);
  CHECK(found.record.kitchen_id == "k1");
}

TEST_CASE("provenance_store: torn - blank - non-JSON and non-object lines are skipped") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  write_file(store, std::string("\n") + "garbage " + kWorker + "\n" + "[\"" + kWorker + "\"]\n" +
                        "{\"session_id\":\"" + kWorker + "\",\"recipe_na\n" +
                        "{\"session_id\": 12, \"x\": \"" + kWorker + "\"}\n");
  append_record(store, record(kWorker, kCaller), {});
  SUBCASE("through the index the writer maintains") {
    auto found = lookup_session(store, kWorker);
    REQUIRE(found.status == StoreLookup::Status::found);
    CHECK(found.record.caller_session_id == kCaller);
  }
  SUBCASE("by scanning - as in a store only AutoSkillit wrote") {
    REQUIRE(::unlink(index_path(store).c_str()) == 0);
    auto found = lookup_session(store, kWorker);
    REQUIRE(found.status == StoreLookup::Status::found);
    CHECK(found.record.caller_session_id == kCaller);
    CHECK(found.skipped_lines == 4);
  }
}

TEST_CASE("provenance_store: an incomplete last line is not a record") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  write_file(store, to_json_line(record(kWorker, kCaller)));  // no trailing newline
  CHECK(lookup_session(store, kWorker).status == StoreLookup::Status::not_found);
}

TEST_CASE("provenance_store: a missing store - a directory - a symlink") {
  TempDir tmp;
  CHECK(lookup_session(tmp / "none.jsonl", kWorker).status == StoreLookup::Status::missing);
  ::mkdir((tmp / "dir.jsonl").c_str(), 0700);
  auto dir = lookup_session(tmp / "dir.jsonl", kWorker);
  CHECK(dir.status == StoreLookup::Status::unreadable);
  CHECK(dir.error.find("not a regular file") != std::string::npos);
  append_record(tmp / "real.jsonl", record(kWorker, kCaller), {});
  REQUIRE(::symlink((tmp / "real.jsonl").c_str(), (tmp / "link.jsonl").c_str()) == 0);
  auto link = lookup_session(tmp / "link.jsonl", kWorker);
  CHECK(link.status == StoreLookup::Status::unreadable);
  CHECK(link.error.find("symbolic link") != std::string::npos);
}

TEST_CASE("provenance_store: invalid records are refused and nothing is written") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record(kWorker, kCaller), {});
  const std::string before = read_file(store);
  CHECK_THROWS_AS(append_record(store, record("../etc", kCaller), {}), Error);
  CHECK_THROWS_AS(append_record(store, record(kWorker, ""), {}), Error);
  CHECK(read_file(store) == before);
}

TEST_CASE("provenance_store: an ambiguous short id stops at the second session it starts") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  std::string lines;
  for (int i = 0; i < 1000; ++i) {
    // Record 600 is the session "w" itself: the exact id wins over the 999 it starts.
    const std::string number = std::to_string(i);
    const std::string session = i == 600 ? "w" : "w-" + number;
    lines += fleet::test::autoskillit_line(record(session, kCaller, "k" + number)) + "\n";
  }
  write_file(store, lines);
  REQUIRE(::chmod(store.c_str(), 0600) == 0);
  append_record(store, record("x-1", kCaller), {});  // indexes the store

  // Without an index (a scan) the answers are the same.
  const std::string unindexed = tmp / "unindexed.jsonl";
  write_file(unindexed, lines);
  auto scanned = lookup_session(unindexed, "w");
  CHECK_FALSE(scanned.used_index);
  CHECK(scanned.record.kitchen_id == "k600");
  scanned = lookup_session(unindexed, "w-");
  REQUIRE(scanned.status == StoreLookup::Status::ambiguous);
  CHECK(scanned.matches.size() == 2);
  CHECK(scanned.candidate_lines <= 3);  // the rest is searched for "w-" itself, not parsed

  auto exact = lookup_session(store, "w");
  REQUIRE(exact.status == StoreLookup::Status::found);
  CHECK(exact.used_index);
  CHECK(exact.record.kitchen_id == "k600");

  auto ambiguous = lookup_session(store, "w-");
  REQUIRE(ambiguous.status == StoreLookup::Status::ambiguous);
  CHECK(ambiguous.used_index);
  REQUIRE(ambiguous.matches.size() == 2);
  CHECK(ambiguous.matches[0] != ambiguous.matches[1]);
  for (const auto& match : ambiguous.matches) CHECK(match.starts_with("w-"));
  CHECK(ambiguous.candidate_lines <= 3);  // two sessions, and w- itself has no line

  // The exact id appended after the index was sorted (its tail) still wins over the ambiguity.
  append_record(store, record("w-", kCaller, "k-exact"), {});
  exact = lookup_session(store, "w-");
  REQUIRE(exact.status == StoreLookup::Status::found);
  CHECK(exact.used_index);
  CHECK(exact.record.kitchen_id == "k-exact");
}
