#include "guard/policy_replay.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

#include "base/paths.h"
#include "fixtures.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

std::string hook(const std::string& caller, const std::string& resume) {
  return fleet::test::pre_tool_use(caller, resume, "dispatch_food_truck");
}

}  // namespace

TEST_CASE("policy_replay: passing and failing cases") {
  TempDir tmp;
  append_record(provenance_store_path(tmp.path()), {"w-1", "l3-a", "k1", "", "implement", "", "t"},
                {});
  write_file(
      tmp / "cases.jsonl",
      R"({"name":"owner resumes","input":)" + hook("l3-a", "w-1") + R"(,"expect":"silent"})" +
          "\n" + R"({"name":"stranger","input":)" + hook("l3-x", "w-1") +
          R"(,"expect":"deny","reason_contains":"dispatched by l3-a"})" + "\n\n" +
          R"({"name":"same kitchen","input":)" + hook("l3-x", "w-1") +
          R"(,"expect":"pass","kitchen_id":"k1"})" + "\n" + R"({"name":"unknown strict","input":)" +
          hook("l3-x", "w-9") + R"(,"expect":"deny","strict":true})" + "\n" +
          R"({"name":"wrong expectation","input":)" + hook("l3-a", "w-1") + R"(,"expect":"deny"})" +
          "\n" + R"({"name":"reason mismatch","input":)" + hook("l3-x", "w-1") +
          R"(,"expect":"deny","reason_contains":"no such words"})" + "\n" +
          R"({"input":"x","expect":"deny"})" + "\n" + "not json\n" +
          R"({"input":{},"expect":"maybe"})" + "\n");
  GuardOptions options;
  options.agent = &fleet::claude_code();
  options.state_dir = tmp.path();
  const auto results = replay_cases(tmp / "cases.jsonl", options);
  REQUIRE(results.size() == 9);
  CHECK(results[0].passed);
  CHECK(results[1].passed);
  CHECK(results[2].passed);
  CHECK(results[2].line == 4);
  CHECK(results[3].passed);
  CHECK_FALSE(results[4].passed);
  CHECK(results[4].actual == "silent");
  CHECK_FALSE(results[5].passed);
  CHECK(results[5].detail.find("no such words") != std::string::npos);
  for (int i = 6; i < 9; ++i) {
    CHECK_FALSE(results[i].passed);
    CHECK(results[i].actual == "invalid case");
  }
  const std::string table = replay_table(results);
  CHECK(table.find("replay: 4 of 9 cases passed, 2 failed, 3 invalid") != std::string::npos);
  CHECK(table.find("\n10    ERROR   maybe     -         (unnamed)\n      invalid case: \"expect\" "
                   "must be deny, silent, advisory or pass\n") != std::string::npos);
  CHECK(table.find("FAIL    deny      silent    wrong expectation") != std::string::npos);
}
