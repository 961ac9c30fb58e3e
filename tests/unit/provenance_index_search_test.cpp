// The index's search through its sorted section (blocks of 256 entries, interpolation and
// halving): on stores of uniform, skewed and clustered session ids, the candidates of every
// id and prefix asked equal the lines a plain scan of the store finds.

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/files.h"
#include "store/provenance_index.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

struct Line {
  std::string session;
  std::uint64_t offset;
};

std::string store_line(const std::string& session) {
  return R"({"caller_session_id": "c", "dispatch_id": "", "kitchen_id": "k", "recipe_name": "r", "session_id": ")" +
         session + R"(", "step_name": "", "timestamp": ""})" + "\n";
}

// Writes the store, then lets the writer append one record (which indexes it, sorted).
std::vector<Line> write_store(const std::string& store, const std::vector<std::string>& ids) {
  std::vector<Line> lines;
  std::string text;
  for (const auto& id : ids) {
    lines.push_back({id, text.size()});
    text += store_line(id);
  }
  write_file(store, text);
  const std::string last = "zzzzzzzz-last";
  lines.push_back({last, text.size()});
  append_record(store, {last, "caller-1", "k1", "d-1", "implement", "build", "t"}, {});
  return lines;
}

// The offsets of the lines whose session id has the key of `id` (its first 8 bytes), or
// that start with `id` when it is shorter: what the index must name.
std::vector<std::uint64_t> scanned(const std::vector<Line>& lines, const std::string& id) {
  std::vector<std::uint64_t> out;
  const std::string key = id.substr(0, 8);
  for (const auto& line : lines) {
    if (line.session.compare(0, key.size(), key) == 0) out.push_back(line.offset);
  }
  return out;
}

void check_all(const std::string& store, const std::vector<Line>& lines,
               const std::vector<std::string>& queries) {
  UniqueFd fd = open_regular_file(store, O_RDONLY);
  struct stat st {};
  REQUIRE(::fstat(fd.get(), &st) == 0);
  const FileFingerprint print = fingerprint_of(fd.get(), st);
  for (const auto& query : queries) {
    CAPTURE(query);
    const IndexCandidates found = index_candidates(store, print, query);
    REQUIRE(found.usable);
    CHECK(found.offsets == scanned(lines, query));
  }
}

std::string hex_id(std::uint64_t high, std::uint64_t low) {
  char id[48];
  std::snprintf(id, sizeof id, "%08llx-0000-4000-8000-%012llx",
                static_cast<unsigned long long>(high & 0xffffffffULL),
                static_cast<unsigned long long>(low & 0xffffffffffffULL));
  return id;
}

}  // namespace

TEST_CASE(
    "provenance_index search: uniform, skewed and clustered ids, every lookup equals a scan") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  std::mt19937_64 random(12);
  std::vector<std::string> ids;
  for (int i = 0; i < 4000; ++i) ids.push_back(hex_id(random(), random()));  // uniform
  for (int i = 0; i < 3000; ++i) ids.push_back(hex_id(static_cast<std::uint64_t>(i), i));  // skewed
  for (int i = 0; i < 700; ++i) ids.push_back(hex_id(0xabcdef01, i));  // one key, 700 lines
  for (int i = 0; i < 300; ++i) ids.push_back(hex_id(0xabcdef02, i));
  ids.push_back("00000000-first");
  ids.push_back("ffffffff-0000-4000-8000-000000000000");
  ids.push_back("short");
  std::shuffle(ids.begin(), ids.end(), random);
  const auto lines = write_store(store, ids);

  std::vector<std::string> queries;
  for (int i = 0; i < 400; ++i) queries.push_back(ids[random() % ids.size()]);
  for (int i = 0; i < 100; ++i) queries.push_back(hex_id(random(), random()));  // mostly absent
  for (const char* q : {"abcdef01-0000-4000-8000-000000000005", "abcdef02-x", "abcdef00-x",
                        "abcdef03-x", "00000000-first", "00000000", "0000000", "000", "abc",
                        "ffffffff-0000-4000-8000-000000000000", "fffffffff", "short", "shor",
                        "zzzzzzzz-last", "zzzzzzzzzz", "~", "", "0", "a"}) {
    queries.push_back(q);
  }
  check_all(store, lines, queries);
}

TEST_CASE("provenance_index search: small stores, one block or less") {
  for (int size : {1, 2, 255, 256, 257, 511, 513}) {
    CAPTURE(size);
    TempDir tmp;
    const std::string store = tmp / "s.jsonl";
    std::vector<std::string> ids;
    for (int i = 0; i < size; ++i) ids.push_back(hex_id(static_cast<std::uint64_t>(i * 7), i));
    const auto lines = write_store(store, ids);
    std::vector<std::string> queries = {"", "0", "zzzzzzzz-last", hex_id(0, 0), hex_id(1, 0)};
    for (int i = 0; i < size; i += 37) {
      queries.push_back(ids[static_cast<std::size_t>(i)]);
      queries.push_back(hex_id(static_cast<std::uint64_t>(i * 7 + 1), 0));  // absent
    }
    check_all(store, lines, queries);
  }
}
