#include "provenance_index.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

ProvenanceRecord record(const std::string& session, const std::string& kitchen = "k1") {
  return {session, "caller-1", kitchen, "d-1", "implement", "build", "t"};
}

std::string autoskillit_line(const std::string& session, const std::string& kitchen) {
  return R"({"caller_session_id": "caller-2", "dispatch_id": "", "kitchen_id": ")" + kitchen +
         R"(", "recipe_name": "implement", "session_id": ")" + session +
         R"(", "step_name": "", "timestamp": ""})" + "\n";
}

IndexCandidates candidates(const std::string& store, std::string_view id) {
  UniqueFd fd = open_regular_file(store, O_RDONLY);
  struct stat st {};
  REQUIRE(::fstat(fd.get(), &st) == 0);
  return index_candidates(store, fd.get(), static_cast<std::uint64_t>(st.st_size), id);
}

std::uint64_t file_size(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return static_cast<std::uint64_t>(st.st_size);
}

}  // namespace

TEST_CASE("provenance_index: keys are the first 8 bytes") {
  CHECK(index_key("0d07e5d0-0000-4000") == index_key("0d07e5d0-ffff"));
  CHECK(index_key("0d07e5d0") != index_key("0d07e5d1"));
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
  CHECK(all.covered_end == file_size(store));
  CHECK(candidates(store, "bbbbbbbb-1").offsets.size() == 1);
  CHECK(candidates(store, "cccccccc").offsets.empty());
  CHECK(candidates(store, "a").offsets.size() == 2);  // a 1-byte prefix
  CHECK(file_size(index_path(store)) == 32 + 3 * 16);
  struct stat st {};
  REQUIRE(::stat(index_path(store).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
}

TEST_CASE("provenance_index: lines another tool appended are found past the covered end") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  const std::uint64_t covered = file_size(store);
  write_file(store, read_file(store) + autoskillit_line("aaaaaaaa-1", "k-later") +
                        autoskillit_line("dddddddd-1", "k-auto"));
  CHECK(candidates(store, "dddddddd-1").covered_end == covered);
  auto found = lookup_session(store, "dddddddd-1");
  REQUIRE(found.status == StoreLookup::Status::found);
  CHECK(found.record.kitchen_id == "k-auto");
  CHECK(lookup_session(store, "aaaaaaaa-1").record.kitchen_id == "k1");  // first record wins
  // The next append indexes what the other tool wrote.
  append_record(store, record("eeeeeeee-1"), {});
  CHECK(candidates(store, "dddddddd").offsets.size() == 1);
  CHECK(candidates(store, "x").covered_end == file_size(store));
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

TEST_CASE("provenance_index: a store rewritten in place makes the index unusable") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  append_record(store, record("bbbbbbbb-1"), {});
  // Same inode, other content: the last entry no longer points at its record.
  write_file(store, autoskillit_line("cccccccc-1", "k") + autoskillit_line("dddddddd-1", "k"));
  CHECK_FALSE(candidates(store, "cccccccc").usable);
  CHECK(lookup_session(store, "dddddddd-1").status == StoreLookup::Status::found);
  append_record(store, record("eeeeeeee-1"), {});  // rebuilt
  CHECK(candidates(store, "dddddddd").usable);
  CHECK(candidates(store, "dddddddd").offsets.size() == 1);
}

TEST_CASE("provenance_index: entries that point at the wrong lines are detected") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  append_record(store, record("aaaaaaaa-2"), {});
  append_record(store, record("bbbbbbbb-1"), {});
  // Corrupt the first entry's offset: it now points into the middle of a line.
  std::string index = read_file(index_path(store));
  index[32 + 8] = 5;
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
  CHECK(file_size(index_path(store)) == 32 + 2 * 16);
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
  const std::string warning = append_record(store, record("aaaaaaaa-1"), {});
  CHECK(warning.find("symbolic link") != std::string::npos);
  CHECK(read_file(tmp / "victim") == "precious");
  CHECK_FALSE(candidates(store, "aaaaaaaa").usable);
  CHECK(lookup_session(store, "aaaaaaaa-1").status == StoreLookup::Status::found);
}

TEST_CASE("provenance_index: entries beyond the reader's snapshot are not used") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("aaaaaaaa-1"), {});
  const std::uint64_t snapshot = file_size(store);
  append_record(store, record("aaaaaaaa-2"), {});
  UniqueFd fd = open_regular_file(store, O_RDONLY);
  const auto seen = index_candidates(store, fd.get(), snapshot, "aaaaaaaa");
  CHECK(seen.usable);
  CHECK(seen.offsets.size() == 1);
  CHECK(seen.covered_end == snapshot);
}
