// The record's one schema, its validator (of a record to append and of a stored line) and its
// builder (provenance_record.h).

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "agents/agents.h"
#include "store/provenance_record.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::ScopedEnv;

namespace {

constexpr RecordField kFields[] = {RecordField::session_id,  RecordField::caller_session_id,
                                   RecordField::kitchen_id,  RecordField::dispatch_id,
                                   RecordField::recipe_name, RecordField::step_name,
                                   RecordField::timestamp};

ProvenanceRecord valid() {
  return {"w-1", "l3-a", "k-1", "d-1", "implement", "build", "2026-05-06T13:30:00.123456+00:00"};
}

}  // namespace

TEST_CASE("provenance_record: the schema names every field once, and the line has its keys") {
  const ProvenanceRecord record = valid();
  std::string keys;
  for (const RecordField field : kFields) {
    const FieldSpec& spec = field_spec(field);
    CHECK(spec.field == field);
    CHECK(&field_value(record, field) == &(record.*spec.member));
    CHECK(to_json_line(record).find(std::string("\"") + spec.key + "\":") != std::string::npos);
    keys += std::string(spec.key) + " ";
  }
  CHECK(keys ==
        "session_id caller_session_id kitchen_id dispatch_id recipe_name step_name "
        "timestamp ");
  CHECK(field_value(record, RecordField::kitchen_id) == "k-1");
}

TEST_CASE("provenance_record: the validator reports the first problem in schema order") {
  ProvenanceRecord record = valid();
  record.session_id = "a b";
  record.caller_session_id = "";
  CHECK(record_problem(record).value_or("").starts_with("session id"));
  record.session_id = "w-1";
  CHECK(record_problem(record) == "caller session id is empty");
  record = valid();
  record.timestamp = "not checked\n";  // the builder writes it
  CHECK_FALSE(record_problem(record));
  record.recipe_name = std::string(300, 'r');
  CHECK(record_problem(record).value_or("").starts_with("recipe name is 300 bytes long"));
}

TEST_CASE("provenance_record: a stored line - readers skip it, or accept it with a warning") {
  struct Case {
    std::string line;
    const char* kind;  // nullptr: a valid record
    bool skipped;
    const char* detail_part;
  };
  const std::string rest = R"("caller_session_id":"c","dispatch_id":"","kitchen_id":"k",)"
                           R"("recipe_name":"r","step_name":"","timestamp":"t")";
  const std::vector<Case> cases = {
      {"{" + rest + R"(,"session_id":"w-1"})", nullptr, false, ""},
      {"not json", "not-json", true, "no valid value"},
      {"[1]", "not-object", true, "a JSON array"},
      {"{" + rest + "}", "missing-field", true, "no session_id"},
      {"{" + rest + R"(,"session_id":7})", "no-session-id", true, "session_id is a JSON number"},
      {"{" + rest + R"(,"session_id":""})", "no-session-id", true, "session_id is empty"},
      {R"({"session_id":"w-1"})", "missing-field", false, "caller_session_id is missing"},
      {R"({"session_id":"w-1","caller_session_id":"c","kitchen_id":"k","dispatch_id":"",)"
       R"("step_name":"","timestamp":""})",
       "missing-field", false, "recipe_name is missing: it reads as empty, so the guard takes"},
      {R"({"session_id":"w-1","caller_session_id":"c","kitchen_id":5,"dispatch_id":"",)"
       R"("recipe_name":"r","step_name":"","timestamp":""})",
       "wrong-type", false, "kitchen_id is a JSON number: it reads as empty, so no kitchen"},
      {"{" + rest + R"(,"session_id":"../w"})", "invalid-id", false,
       "session_id '../w'"},  // named by its key, as stored
      {R"({"session_id":"w-1","caller_session_id":"a b","kitchen_id":"","dispatch_id":"",)"
       R"("recipe_name":"r","step_name":"","timestamp":""})",
       "invalid-id", false, "no caller's session id can equal it"},
      {R"({"session_id":"w-1","caller_session_id":"","kitchen_id":"","dispatch_id":"",)"
       R"("recipe_name":"a\nb","step_name":"","timestamp":""})",
       nullptr, false, ""},  // labels and empty ids of other writers are not problems
  };
  for (const Case& c : cases) {
    CAPTURE(c.line);
    const CheckedLine checked = check_provenance_line(c.line);
    // The validator reads a line exactly as the readers do.
    CHECK(checked.record == parse_provenance_line(c.line));
    CHECK(checked.record.has_value() == (c.kind == nullptr || !c.skipped));
    if (c.kind == nullptr) {
      CHECK_FALSE(checked.problem);
      continue;
    }
    REQUIRE(checked.problem);
    CHECK(std::string(checked.problem->kind) == c.kind);
    CHECK(checked.problem->skipped == c.skipped);
    CHECK(checked.problem->detail.find(c.detail_part) != std::string::npos);
  }
}

TEST_CASE("provenance_record: a record the validator accepts is a stored line without problem") {
  ProvenanceRecord record = valid();
  record.kitchen_id = "";
  record.dispatch_id = "";
  REQUIRE_FALSE(record_problem(record));
  const CheckedLine checked = check_provenance_line(to_json_line(record));
  CHECK(checked.record == record);
  CHECK_FALSE(checked.problem);
}

TEST_CASE("provenance_record: the builder fills the kitchen, the caller and the timestamp") {
  const ScopedEnv kitchen("FLEET_HOOKS_KITCHEN_ID", "k-env");
  const ScopedEnv campaign("AUTOSKILLIT_CAMPAIGN_ID", nullptr);
  const ScopedEnv session("CLAUDE_CODE_SESSION_ID", "l3-env");
  const ScopedEnv qwen_session("QWEN_CODE_SESSION_ID", nullptr);

  ProvenanceRecord given{"w-1", "", "", "d-1", "implement", "build", "stale"};
  const ProvenanceRecord built = build_record(given);
  CHECK(built.session_id == "w-1");
  CHECK(built.caller_session_id.empty());  // the caller is taken as given by default
  CHECK(built.kitchen_id == "k-env");
  CHECK(built.dispatch_id == "d-1");
  CHECK(built.recipe_name == "implement");
  CHECK(built.step_name == "build");
  CHECK(built.timestamp != "stale");
  CHECK(built.timestamp.size() == std::string("2026-05-06T13:30:00.123456+00:00").size());
  CHECK(built.timestamp.ends_with("+00:00"));

  // The variable alone never names the caller (it may be inherited): a call that is not
  // what --mcp-meta takes is refused before anything is looked up.
  const CallerClis known{.clis = agent_clis(), .profiles = agent_profiles()};
  const Result<ProvenanceRecord> bad_call =
      record_to_append(given, known, {.meta = "[]", .params = ""});
  REQUIRE_FALSE(bad_call);
  CHECK(bad_call.problem().starts_with(
      "record needs the caller, and it is not certain: --mcp-meta is not the call's _meta"));
  CHECK(bad_call.problem().ends_with("or pass --caller-session-id <the dispatching session's id>"));

  given.caller_session_id = "l3-flag";
  given.kitchen_id = "k-flag";
  const Result<ProvenanceRecord> flags = record_to_append(given, known);
  REQUIRE(flags);
  CHECK(flags->caller_session_id == "l3-flag");
  CHECK(flags->kitchen_id == "k-flag");
}

TEST_CASE("provenance_record: the builder leaves the kitchen empty when nothing names one") {
  const ScopedEnv kitchen("FLEET_HOOKS_KITCHEN_ID", nullptr);
  const ScopedEnv campaign("AUTOSKILLIT_CAMPAIGN_ID", "campaign-7");
  const ScopedEnv session("CLAUDE_CODE_SESSION_ID", nullptr);
  const ScopedEnv qwen_session("QWEN_CODE_SESSION_ID", nullptr);
  ProvenanceRecord given = valid();
  given.kitchen_id = "";
  CHECK(build_record(given).kitchen_id == "campaign-7");
  const ScopedEnv no_campaign("AUTOSKILLIT_CAMPAIGN_ID", nullptr);
  CHECK(build_record(given).kitchen_id.empty());
  given.caller_session_id = "-x";
  const Result<ProvenanceRecord> bad_caller =
      record_to_append(given, {.clis = agent_clis(), .profiles = agent_profiles()});
  REQUIRE_FALSE(bad_caller);
  CHECK(bad_caller.problem().ends_with("; nothing written"));
}
