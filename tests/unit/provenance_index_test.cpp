#include "store/provenance_index.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>

#include "base/files.h"
#include "fixtures.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::record;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

std::string autoskillit_line(const std::string& session, const std::string& kitchen) {
  return fleet::test::autoskillit_line({session, "caller-2", kitchen, "", "implement", "", ""}) +
         "\n";
}

IndexCandidates candidates(const std::string& store, std::string_view id) {
  UniqueFd fd = open_regular_file(store, O_RDONLY);
  struct stat st {};
  REQUIRE(::fstat(fd.get(), &st) == 0);
  return index_candidates(store, fingerprint_of(fd.get(), st), id);
}

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return static_cast<std::uint64_t>(st.st_size);
}

}  // namespace

TEST_CASE("provenance_index: keys are the first 8 bytes, ordered as the ids") {
  CHECK(index_key("0d07e5d0-0000-4000") == index_key("0d07e5d0-ffff"));
  CHECK(index_key("0d07e5d0") < index_key("0d07e5d1"));
  CHECK(index_key("a") < index_key("ab"));
  CHECK(index_key("ab") < index_key("b"));
  CHECK(index_key("w-1") != index_key("w-10"));
  CHECK(index_key("") == 0);
  CHECK(index_path("/s/session_provenance.jsonl") == "/s/session_provenance.jsonl.idx");
}

TEST_CASE("provenance_index: the writer keeps it covering every record") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  append_record(store, record("bbbbbbbb-1"), {});
  append_record(store, record("aaaaaaaa-2"), {});
  const auto all = candidates(store, "aaaaaaaa");
  CHECK(all.usable);
  CHECK(all.offsets.size() == 2);
  CHECK(candidates(store, "bbbbbbbb-1").offsets.size() == 1);
  CHECK(candidates(store, "cccccccc").offsets.empty());
  CHECK(candidates(store, "a").offsets.size() == 2);  // a 1-byte prefix
  CHECK(candidates(store, "").offsets.size() == 3);
  CHECK(file_size(index_path(store)) == 128 + 3 * 16);
  struct stat st {};
  REQUIRE(::stat(index_path(store).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(lookup_session(store, "aaaaaaaa-2").used_index);
}

TEST_CASE("provenance_index: after another tool appends, readers scan until the next append") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  write_file(store, read_file(store) + autoskillit_line("aaaaaaaa-1", "k-later") +
                        autoskillit_line("dddddddd-1", "k-auto"));
  CHECK_FALSE(candidates(store, "dddddddd-1").usable);
  auto found = lookup_session(store, "dddddddd-1");
  REQUIRE(found.status == StoreLookup::Status::found);
  CHECK_FALSE(found.used_index);
  CHECK(found.record.kitchen_id == "k-auto");
  CHECK(lookup_session(store, "aaaaaaaa-1").record.kitchen_id == "k1");  // first record wins
  // The next append indexes the whole store again.
  append_record(store, record("eeeeeeee-1"), {});
  CHECK(candidates(store, "dddddddd").offsets.size() == 1);
  CHECK(candidates(store, "aaaaaaaa").offsets.size() == 2);
  CHECK(lookup_session(store, "aaaaaaaa-1").record.kitchen_id == "k1");
  CHECK(lookup_session(store, "aaaaaaaa-1").used_index);
}

TEST_CASE("provenance_index: an index of another file is ignored and rebuilt") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  // A compaction-like replacement: a new inode at the path, the old index left behind.
  write_file(tmp / "new", autoskillit_line("ffffffff-1", "k-new"));
  REQUIRE(::rename((tmp / "new").c_str(), store.c_str()) == 0);
  CHECK_FALSE(candidates(store, "ffffffff").usable);
  CHECK(lookup_session(store, "ffffffff-1").status == StoreLookup::Status::found);
  CHECK(lookup_session(store, "aaaaaaaa-1").status == StoreLookup::Status::not_found);
  append_record(store, record("bbbbbbbb-1"), {});
  const auto rebuilt = candidates(store, "ffffffff");
  CHECK(rebuilt.usable);
  CHECK(rebuilt.offsets.size() == 1);
}

TEST_CASE("provenance_index: a store rewritten in place, lines at the same offsets") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1", "caller-1", "k1"), {});
  append_record(store, record("bbbbbbbb-1", "caller-1", "k2"), {});
  REQUIRE(lookup_session(store, "bbbbbbbb-1").used_index);
  // Same inode, same size: the first line now names bbbbbbbb-1 too.
  std::string text = read_file(store);
  text.replace(text.find("aaaaaaaa-1"), 10, "bbbbbbbb-1");
  write_file(store, text);
  CHECK_FALSE(candidates(store, "bbbbbbbb").usable);
  CHECK(lookup_session(store, "bbbbbbbb-1").record.kitchen_id == "k1");
  append_record(store, record("eeeeeeee-1"), {});  // rebuilt
  CHECK(candidates(store, "bbbbbbbb").offsets.size() == 2);
  CHECK(lookup_session(store, "bbbbbbbb-1").record.kitchen_id == "k1");
  CHECK(lookup_session(store, "bbbbbbbb-1").used_index);
}

TEST_CASE("provenance_index: entries that point at the wrong lines are detected") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  append_record(store, record("aaaaaaaa-2"), {});
  append_record(store, record("bbbbbbbb-1"), {});
  // Corrupt an entry's offset: it now points into the middle of a line.
  std::string index = read_file(index_path(store));
  index[128 + 8] = 5;
  write_file(index_path(store), index);
  const auto found = lookup_session(store, "aaaaaaaa-1");
  REQUIRE(found.status == StoreLookup::Status::found);  // by scanning instead
  CHECK(found.record.session_id == "aaaaaaaa-1");
}

TEST_CASE("provenance_index: a torn entry is ignored and trimmed by the next append") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  write_file(index_path(store), read_file(index_path(store)) + "torn");
  CHECK(candidates(store, "aaaaaaaa").usable);
  append_record(store, record("bbbbbbbb-1"), {});
  CHECK(file_size(index_path(store)) == 128 + 2 * 16);
  CHECK(candidates(store, "bbbbbbbb").offsets.size() == 1);
}

TEST_CASE("provenance_index: garbage in place of the index") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  write_file(index_path(store), "not an index at all, just text that is long enough");
  CHECK_FALSE(candidates(store, "aaaaaaaa").usable);
  CHECK(lookup_session(store, "aaaaaaaa-1").status == StoreLookup::Status::found);
  write_file(index_path(store), "");
  CHECK_FALSE(candidates(store, "aaaaaaaa").usable);
  append_record(store, record("bbbbbbbb-1"), {});
  CHECK(candidates(store, "aaaaaaaa").offsets.size() == 1);
}

TEST_CASE("provenance_index: an index that is a symlink is never used or written through") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  write_file(tmp / "victim", "precious");
  REQUIRE(::symlink((tmp / "victim").c_str(), index_path(store).c_str()) == 0);
  const AppendedRecord appended = append_record(store, record("aaaaaaaa-1"), {});
  REQUIRE(appended.index_warning);
  CHECK(appended.index_warning->find("symbolic link") != std::string::npos);
  CHECK(read_file(tmp / "victim") == "precious");
  CHECK_FALSE(candidates(store, "aaaaaaaa").usable);
  CHECK(lookup_session(store, "aaaaaaaa-1").status == StoreLookup::Status::found);
}

TEST_CASE("provenance_index: a reader that saw an earlier store does not use a later index") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  UniqueFd fd = open_regular_file(store, O_RDONLY);
  struct stat earlier {};
  REQUIRE(::fstat(fd.get(), &earlier) == 0);
  append_record(store, record("aaaaaaaa-2"), {});
  CHECK_FALSE(index_candidates(store, fingerprint_of(fd.get(), earlier), "aaaaaaaa").usable);
  CHECK(candidates(store, "aaaaaaaa").offsets.size() == 2);
}

TEST_CASE("provenance_index: a large store, sorted section plus appended tail") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  std::string text;
  char id[40];
  for (int i = 0; i < 6000; ++i) {
    std::snprintf(id, sizeof id, "%08x-0000-4000-8000-%012x", i % 3000, i);
    text += autoskillit_line(id, "k");
  }
  write_file(store, text);
  append_record(store, record("zzzzzzzz-1"), {});  // rebuilt, sorted
  CHECK(file_size(index_path(store)) == 128 + 6001 * 16);
  for (int i = 0; i < 5; ++i)
    append_record(store, record("00000007-tail-" + std::to_string(i)), {});
  const auto seven = candidates(store, "00000007");
  REQUIRE(seven.usable);
  CHECK(seven.offsets.size() == 7);  // two in the sorted section, five in the tail
  CHECK(std::is_sorted(seven.offsets.begin(), seven.offsets.end()));
  CHECK(candidates(store, "0000000").offsets.size() == 16 * 2 + 5);  // 00000000..0000000f
  CHECK(candidates(store, "00000bb7").offsets.size() == 2);
  CHECK(candidates(store, "00000bb8").offsets.empty());
  const auto found = lookup_session(store, "00000007-0000-4000-8000-000000000bbf");
  CHECK(found.used_index);
  REQUIRE(found.status == StoreLookup::Status::found);
}

TEST_CASE("provenance_index: tricky lines are indexed so that lookups equal a scan") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  const std::string lines[] = {
      R"({"session\u005fid": "aaaaaaaa-esc", "recipe_name": "r"})",  // an escaped key
      R"({"meta": {"session_id": "bbbbbbbb-nested"}, "recipe_name": "r"})",
      R"({"session_id": "cccccccc-first", "session_id": "dddddddd-second"})",
      R"({"note": "session_id", "session_id": "eeeeeeee-two"})",
      R"({"session_id" : "ffffffff-spaced" , "recipe_name": "r"})",
      R"({"session_id": "gggggggg-\u0041"})",
      R"({"session_id": 5})",
      R"(["session_id", "hhhhhhhh"])",
      R"({"session_id": "iiiiiiii-ok", "kitchen_id": "k"})",
  };
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  write_file(store, text);
  const char* ids[] = {"aaaaaaaa-esc",
                       "bbbbbbbb-nested",
                       "cccccccc-first",
                       "dddddddd-second",
                       "eeeeeeee-two",
                       "ffffffff-spaced",
                       "gggggggg-A",
                       "hhhhhhhh",
                       "iiiiiiii-ok",
                       "aaaaaaaa",
                       "ggg"};
  std::vector<StoreLookup> scanned;
  for (const char* id : ids) scanned.push_back(lookup_session(store, id));
  UniqueFd fd = open_regular_file(store, O_RDONLY);
  update_index(store, fd.get(), nullptr, 0);
  for (std::size_t i = 0; i < std::size(ids); ++i) {
    CAPTURE(ids[i]);
    const auto indexed = lookup_session(store, ids[i]);
    CHECK(indexed.used_index);
    CHECK(indexed.status == scanned[i].status);
    CHECK(indexed.record == scanned[i].record);
  }
  CHECK(scanned[0].status == StoreLookup::Status::found);
  CHECK(scanned[2].status == StoreLookup::Status::found);
  CHECK(scanned[6].status == StoreLookup::Status::found);
}

TEST_CASE("provenance_index: a guard's lookup rebuilds it only when the lock is free") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  write_file(store, autoskillit_line("aaaaaaaa-1", "k1"));
  {
    UniqueFd writer = open_regular_file(store, O_RDONLY);
    REQUIRE(::flock(writer.get(), LOCK_EX) == 0);  // a writer or compaction holds it
    const auto busy = lookup_session(store, "aaaaaaaa-1", true);
    CHECK(busy.status == StoreLookup::Status::found);
    CHECK_FALSE(busy.rebuilt_index);
    CHECK_FALSE(busy.used_index);
  }
  const auto first = lookup_session(store, "aaaaaaaa-1", true);
  CHECK(first.rebuilt_index);
  CHECK(first.used_index);
  const auto second = lookup_session(store, "aaaaaaaa-1", true);
  CHECK_FALSE(second.rebuilt_index);
  CHECK(second.used_index);
  // Another program appends: the next lookup rebuilds again.
  write_file(store, read_file(store) + autoskillit_line("aaaaaaaa-1", "k2"));
  const auto third = lookup_session(store, "aaaaaaaa-1", true);
  CHECK(third.rebuilt_index);
  CHECK(third.record.kitchen_id == "k1");
}
