#include "store_verify.h"

#include <doctest/doctest.h>

#include "provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

ProvenanceRecord record(const std::string& session) {
  return {
      session, "caller-1", "k1", "d-1", "implement", "build", "2026-11-22T00:00:00.000000+00:00"};
}

}  // namespace

TEST_CASE("store_verify: a healthy store") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  CHECK_FALSE(verify_store(store).exists);
  append_record(store, record("a-1"), {});
  append_record(store, record("a-2"), {});
  append_record(store, record("a-1"), {});
  write_file(store, read_file(store) +
                        read_file(std::string(FLEET_FIXTURES) + "/autoskillit_store.jsonl"));
  const auto result = verify_store(store);
  CHECK(result.exists);
  CHECK(result.lines == 6);
  CHECK(result.records == 6);
  CHECK(result.sessions == 5);
  CHECK(result.duplicates == 1);
  CHECK_FALSE(result.has_errors());
  CHECK(verification_text(result, store).find("ok\n") != std::string::npos);
}

TEST_CASE("store_verify: each kind of damage is counted - the torn tail is a warning") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, record("a-1"), {});
  write_file(
      store,
      read_file(store) + "\n" + "not json\n" + "[1]\n" + R"({"session_id":"a-2"})" + "\n" +
          R"({"session_id":"a-3","caller_session_id":5,"kitchen_id":"","dispatch_id":"","recipe_name":"","step_name":"","timestamp":""})" +
          "\n" +
          R"({"session_id":"../x","caller_session_id":"","kitchen_id":"","dispatch_id":"","recipe_name":"","step_name":"","timestamp":""})" +
          "\n");
  auto result = verify_store(store);
  CHECK(result.counts["blank"] == 1);
  CHECK(result.counts["not-json"] == 1);
  CHECK(result.counts["not-object"] == 1);
  CHECK(result.counts["missing-field"] == 1);
  CHECK(result.counts["wrong-type"] == 1);
  CHECK(result.counts["invalid-id"] == 1);
  CHECK(result.has_errors());
  CHECK(result.problems[1].line == 3);

  write_file(store, to_json_line(record("a-1")) + "\n" + R"({"session_id": "torn)");
  result = verify_store(store);
  CHECK(result.counts["torn-tail"] == 1);
  CHECK_FALSE(result.has_errors());
  CHECK(verification_json(result, store).find("\"ok\":true") != std::string::npos);
}
