#include "store/provenance_record.h"

#include <doctest/doctest.h>

#include "fixtures.h"
#include "temp_dir.h"

using namespace fleet;

namespace {

ProvenanceRecord sample() {
  return fleet::test::record(fleet::test::kWorker, fleet::test::kL3, "kitchen-1");
}

}  // namespace

TEST_CASE("provenance_record: written with sorted keys - read back unchanged") {
  const std::string line = to_json_line(sample());
  CHECK(line ==
        R"({"caller_session_id":"c0ffee00-0000-4000-8000-000000000001","dispatch_id":"d-1",)"
        R"("kitchen_id":"kitchen-1","recipe_name":"implement",)"
        R"("session_id":"0d07e5d0-0000-4000-8000-000000000001","step_name":"build",)"
        R"("timestamp":"2026-05-06T13:30:00.123456+00:00"})");
  CHECK(parse_provenance_line(line) == sample());
}

TEST_CASE("provenance_record: the session's agent CLI is written as agent_cli and read back") {
  ProvenanceRecord record = sample();
  record.agent_cli = "codex";
  const std::string line = to_json_line(record);
  // Sorted first, and every key AutoSkillit's reader takes is still there, unchanged.
  CHECK(line.starts_with(R"({"agent_cli":"codex","caller_session_id":)"));
  CHECK(line.substr(std::string(R"({"agent_cli":"codex",)").size()) ==
        to_json_line(sample()).substr(1));
  CHECK(parse_provenance_line(line) == record);
  CHECK_FALSE(check_provenance_line(line).problem);
  // AutoSkillit's lines have no agent_cli: read as unknown, and not a problem of the line.
  CHECK(parse_provenance_line(to_json_line(sample()))->agent_cli.empty());
  CHECK_FALSE(check_provenance_line(to_json_line(sample())).problem);
  // Of another type: read as unknown, and said.
  const auto wrong = check_provenance_line(R"({"agent_cli":7,)" + to_json_line(sample()).substr(1));
  REQUIRE(wrong.problem);
  CHECK(std::string(wrong.problem->kind) == "wrong-type");
  CHECK_FALSE(wrong.problem->skipped);
  record.agent_cli = "codex\n";  // a control byte
  CHECK(record_problem(record));
}

TEST_CASE("provenance_record: lines AutoSkillit wrote (json.dumps - sort_keys) read correctly") {
  const auto lines = fleet::test::split_lines(
      fleet::test::read_file(std::string(FLEET_FIXTURES) + "/autoskillit_store.jsonl"));
  REQUIRE(lines.size() == 3);
  auto first = parse_provenance_line(lines[0]);
  REQUIRE(first);
  CHECK(*first == sample());
  auto orchestrator = parse_provenance_line(lines[1]);
  REQUIRE(orchestrator);
  CHECK(orchestrator->recipe_name.empty());
  CHECK(orchestrator->caller_session_id.empty());
  auto extra = parse_provenance_line(lines[2]);
  REQUIRE(extra);
  CHECK(extra->recipe_name == "review \xc3\xa9t\xc3\xa9");  // \u escapes decoded
  CHECK(extra->step_name == "check");
}

TEST_CASE("provenance_record: lines that are not records") {
  CHECK_FALSE(parse_provenance_line(""));
  CHECK_FALSE(parse_provenance_line("not json"));
  CHECK_FALSE(parse_provenance_line("[1]"));
  CHECK_FALSE(parse_provenance_line(R"({"caller_session_id":"x"})"));
  CHECK_FALSE(parse_provenance_line(R"({"session_id":7})"));
  CHECK_FALSE(parse_provenance_line(R"({"session_id":""})"));
  CHECK_FALSE(parse_provenance_line(R"({"session_id":"torn)"));
}

TEST_CASE("provenance_record: fields of other types read as empty") {
  auto record = parse_provenance_line(R"({"session_id":"s","recipe_name":null,"kitchen_id":5})");
  REQUIRE(record);
  CHECK(record->session_id == "s");
  CHECK(record->recipe_name.empty());
  CHECK(record->kitchen_id.empty());
}

TEST_CASE("provenance_record: validation") {
  CHECK_FALSE(record_problem(sample()));
  ProvenanceRecord record = sample();
  record.kitchen_id = "";
  record.dispatch_id = "";
  record.recipe_name = "";
  CHECK_FALSE(record_problem(record));
  record.session_id = "../x";
  CHECK(record_problem(record).value_or("").find("session id") != std::string::npos);
  record = sample();
  record.caller_session_id = "";
  CHECK(record_problem(record).value_or("").find("caller session id is empty") !=
        std::string::npos);
  record = sample();
  record.kitchen_id = "a/b";
  CHECK(record_problem(record).value_or("").find("kitchen id") != std::string::npos);
  record = sample();
  record.dispatch_id = "..";
  CHECK(record_problem(record).value_or("").find("dispatch id") != std::string::npos);
  record = sample();
  record.step_name = "a\nb";
  CHECK(record_problem(record).value_or("").find("step name") != std::string::npos);
}
