#include "store/store_verify.h"

#include <doctest/doctest.h>

#include <random>

#include "fixtures.h"
#include "store/provenance_store.h"
#include "store/store_compact.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::record;
using fleet::test::TempDir;
using fleet::test::write_file;

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

namespace {

// A line of one of the kinds other programs leave in a store.
std::string random_line(std::mt19937& random) {
  const std::string id = "0d07e5d0-0000-4000-8000-00000000000" + std::to_string(random() % 6);
  const std::string full = R"("caller_session_id": "c-1", "dispatch_id": "d", "kitchen_id": "k", )"
                           R"("recipe_name": "r", "step_name": "s", "timestamp": "t")";
  switch (random() % 17) {
    case 0:
      return to_json_line(record(id));
    case 1:
      return "{" + full + R"(, "session_id": ")" + id + R"("})";
    case 2:
      return R"({"session_id": ")" + id + R"(", "recipe_name": "r"})";  // fields missing
    case 3:
      return R"({"session_id": ")" + id +
             R"(", "caller_session_id": 7, "kitchen_id": null, "dispatch_id": [], "recipe_name": {}, "step_name": true, "timestamp": 1.5})";
    case 4:
      return "{" + full + R"(, "session_id": "../x"})";  // an invalid id
    case 5:
      return R"({"session_id": ")" + id +
             R"(", "caller_session_id": "a b", "kitchen_id": "k k", "dispatch_id": "", "recipe_name": "r", "step_name": "", "timestamp": ""})";
    case 6:
      return "{" + full + R"(, "session_id": 12})";
    case 7:
      return "{" + full + R"(, "session_id": ""})";
    case 8:
      return "{" + full + "}";  // no session_id
    case 9:
      return "not json at all";
    case 10:
      return "[1, 2]";
    case 11:
      return "";
    case 12:
      return "  \r";
    case 13:
      return to_json_line(record(id)) + "\r";
    case 14:
      return "{\"session_id\": \"\xff\xfe\"}";  // invalid UTF-8
    case 15:
      return R"({"meta": {"session_id": ")" + id +
             R"("}, "session_id": "w-1", "session_id": "w-2"})";
    default:
      return std::string("{\"session_id\": \"w-0\x00\", \"a\": 1}", 25);
  }
}

}  // namespace

TEST_CASE("store_verify: verify, compact, verify converges to no errors on every store") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  std::vector<std::string> stores;
  for (const char* corpus : {"provenance_store"}) {
    for (const auto& name : fleet::test::run_ls(std::string(FLEET_FUZZ_CORPUS) + "/" + corpus)) {
      stores.push_back(read_file(std::string(FLEET_FUZZ_CORPUS) + "/" + corpus + "/" + name));
    }
  }
  stores.push_back(read_file(std::string(FLEET_FIXTURES) + "/autoskillit_store.jsonl"));
  std::mt19937 random(12);
  for (int n = 0; n < 300; ++n) {
    std::string text;
    const int lines = static_cast<int>(random() % 12);
    for (int i = 0; i < lines; ++i) text += random_line(random) + "\n";
    if (random() % 3 == 0) text += random_line(random).substr(0, random() % 20);  // torn tail
    stores.push_back(text);
  }
  for (const std::string& text : stores) {
    CAPTURE(text);
    write_file(store, text);
    const auto before = verify_store(store);
    // What the guard decides before, for each id, stays.
    std::vector<StoreLookup> decided;
    for (int i = 0; i < 6; ++i) {
      decided.push_back(
          lookup_session(store, "0d07e5d0-0000-4000-8000-00000000000" + std::to_string(i)));
    }
    const auto report = compact_store(store);
    const auto after = verify_store(store);
    CHECK_FALSE(after.has_errors());
    CHECK(after.counts.count("blank") == 0);
    CHECK(after.counts.count("torn-tail") == 0);
    CHECK(after.records == before.records - report.dropped_duplicates);
    CHECK(after.sessions == before.sessions);
    for (int i = 0; i < 6; ++i) {
      const auto now =
          lookup_session(store, "0d07e5d0-0000-4000-8000-00000000000" + std::to_string(i));
      CHECK(now.status == decided[static_cast<std::size_t>(i)].status);
      CHECK(now.record == decided[static_cast<std::size_t>(i)].record);
    }
    // Every warning left is about a record readers accept.
    for (const auto& problem : after.problems) CHECK_FALSE(problem.error);
  }
}

TEST_CASE("store_verify: warnings say what a record means for the guard") {
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  write_file(store, R"({"session_id": "w-1", "caller_session_id": "c"})"
                    "\n");
  auto result = verify_store(store);
  CHECK_FALSE(result.has_errors());
  REQUIRE(result.problems.size() == 1);
  CHECK(result.problems[0].kind == "missing-field");
  CHECK(result.problems[0].detail.find("kitchen_id is missing") != std::string::npos);
  CHECK(result.problems[0].detail.find("only its caller can resume it") != std::string::npos);
  write_file(
      store,
      R"({"session_id": "w-1", "caller_session_id": "c", "kitchen_id": "k", "dispatch_id": "", "recipe_name": 5, "step_name": "", "timestamp": ""})"
      "\n");
  result = verify_store(store);
  CHECK_FALSE(result.has_errors());
  CHECK(result.problems[0].detail.find("L3 orchestrator") != std::string::npos);
  write_file(store, "{\"session_id\": 5}\n");
  result = verify_store(store);
  CHECK(result.has_errors());
  CHECK(result.problems[0].detail.find("fleet-hooks compact drops it") != std::string::npos);
  CHECK(verification_text(result, store).find("run fleet-hooks compact") != std::string::npos);
}
