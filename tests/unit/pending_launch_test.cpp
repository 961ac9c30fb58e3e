#include "store/pending_launch.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "base/error.h"
#include "fixtures.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::kL3;
using fleet::test::kWorker;
using fleet::test::read_file;
using fleet::test::split_lines;
using fleet::test::TempDir;

namespace {

ProvenanceRecord launch() {
  ProvenanceRecord record = fleet::test::record("", kL3, "kitchen-1");
  record.agent_cli = "codex";
  return record;
}

std::vector<ProvenanceRecord> stored(const TempDir& tmp) {
  std::vector<ProvenanceRecord> out;
  const std::string store = tmp / "state/session_provenance.jsonl";
  struct stat st {};
  if (::stat(store.c_str(), &st) != 0) return out;
  for (const auto& line : split_lines(read_file(store)))
    out.push_back(*parse_provenance_line(line));
  return out;
}

}  // namespace

TEST_CASE("pending_launch: claimed once, recorded with the CLI's session id") {
  TempDir tmp;
  const std::string path = write_pending_launch(tmp / "state", launch());
  CHECK(path.starts_with(tmp / "state/pending/"));
  CHECK(path.ends_with(".json"));
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK(read_pending_launch(path).state == PendingLaunch::State::pending);
  CHECK(stored(tmp).empty());

  const auto claimed = claim_pending_launch(path, kWorker, {});
  REQUIRE(claimed);
  CHECK(claimed->session_id == kWorker);
  const auto all = stored(tmp);
  REQUIRE(all.size() == 1);
  CHECK(all[0].session_id == kWorker);
  CHECK(all[0].caller_session_id == kL3);
  CHECK(all[0].kitchen_id == "kitchen-1");
  CHECK(all[0].recipe_name == "implement");
  CHECK(all[0].agent_cli == "codex");
  const PendingLaunch seen = read_pending_launch(path);
  CHECK(seen.state == PendingLaunch::State::claimed);
  CHECK(seen.record == all[0]);

  // A session the worker starts in turn inherits the variable and finds nothing to claim.
  CHECK_FALSE(claim_pending_launch(path, "11111111-0000-4000-8000-000000000009", {}));
  CHECK(stored(tmp).size() == 1);

  withdraw_pending_launch(path);
  CHECK(read_pending_launch(path).state == PendingLaunch::State::missing);
  CHECK_FALSE(claim_pending_launch(path, kWorker, {}));
}

TEST_CASE("pending_launch: a record the store refuses leaves the launch pending") {
  TempDir tmp;
  const std::string path = write_pending_launch(tmp / "state", launch());
  CHECK_THROWS_AS(claim_pending_launch(path, "../not-an-id", {}), Error);
  CHECK(read_pending_launch(path).state == PendingLaunch::State::pending);
  CHECK(stored(tmp).empty());
  REQUIRE(claim_pending_launch(path, kWorker, {}));  // a later claim still can
  CHECK(stored(tmp).size() == 1);
}

TEST_CASE("pending_launch: only a pending file of a state directory can be claimed") {
  TempDir tmp;
  fleet::test::write_file(tmp / "victim.json", fleet::to_json_line(launch()) + "\n");
  for (const std::string& path :
       {tmp / "victim.json", std::string("pending/0d07e5d0-0000-4000-8000-000000000001.json"),
        tmp / "pending/not-a-uuid.json", std::string("")}) {
    CHECK_THROWS_AS(claim_pending_launch(path, kWorker, {}), Error);
  }
  CHECK(read_file(tmp / "victim.json") == fleet::to_json_line(launch()) + "\n");
}
