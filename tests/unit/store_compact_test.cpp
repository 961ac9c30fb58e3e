#include "store/store_compact.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

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
  CHECK(compaction_text(CompactionReport{true, 3, 1, 2}, "/s/p.jsonl") ==
        "/s/p.jsonl: kept 3 records, dropped 1 damaged lines and 2 later duplicates\n");
}
