#pragma once
// One line of session_provenance.jsonl: who launched which session (doc/files.md).
// The one place that knows the record: its fields and the rule of each (the schema),
// how a line is written and read, the one validator of a record and of a stored line, and the
// one builder of a record to append (used by provenance-writer, its hook and launch-wrapper).
// Written with sorted keys like AutoSkillit; read from either writer.
// Failing: nothing here throws; a line that is not a record is nullopt, and what breaks a
// rule is returned (record_problem's sentence, check_provenance_line's LineProblem).

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "agent/agent_cli.h"
#include "base/result.h"
#include "process/launch_caller.h"

namespace fleet {

struct ProvenanceRecord {
  std::string session_id;         // the launched session
  std::string caller_session_id;  // the session that launched it
  std::string kitchen_id;
  std::string dispatch_id;
  std::string recipe_name;  // empty: an L3 orchestrator session, not a worker
  std::string step_name;
  std::string timestamp;    // ISO-8601 UTC
  std::string agent_cli{};  // the agent CLI the session runs in ("claude", "codex", "gemini");
                            // "" unknown (AutoSkillit's lines have no such key)

  bool operator==(const ProvenanceRecord&) const = default;
};

// The recipe_name of a worker whose launcher named no recipe (an empty recipe_name would mark
// an L3 orchestrator, whose resumes the guard denies — also to the caller that launched it).
inline constexpr const char* kUnnamedRecipe = "(unnamed)";

// The schema: every field of a record, in the order the validators check them.
enum class RecordField {
  session_id,
  caller_session_id,
  kitchen_id,
  dispatch_id,
  recipe_name,
  step_name,
  timestamp,
  agent_cli
};

enum class FieldRule {
  required_id,     // a valid id (ids.h), never empty
  optional_id,     // empty, or a valid id
  label,           // free text without control bytes (ids.h, label_problem)
  any_text,        // not checked (the timestamp: the builder writes it)
  optional_label,  // a label whose key other writers leave out: absent or empty is fine, and
                   // an empty value is not written
};

struct FieldSpec {
  RecordField field;
  const char* key;   // the JSON key
  const char* name;  // the field in messages: "session id"
  FieldRule rule;
  std::string ProvenanceRecord::*member;
  const char* if_empty;    // what reading it as empty means for the guard
  const char* if_invalid;  // for an id: what an invalid value means for the guard
};

// The schema's entry of `field`.
const FieldSpec& field_spec(RecordField field);

// The value of `field` in `record`.
const std::string& field_value(const ProvenanceRecord& record, RecordField field);

// The record as one JSON object with sorted keys, without a trailing newline.
std::string to_json_line(const ProvenanceRecord& record);

// Reads one store line. nullopt when the line is not a JSON object or its session_id is not
// a non-empty string. Other fields that are absent or not strings read as "". Extra keys are
// ignored.
std::optional<ProvenanceRecord> parse_provenance_line(std::string_view line);

// The validator of a record to append: nullopt when every id is valid (the session and the
// caller non-empty, the kitchen and the dispatch id empty or valid) and the labels have no
// control bytes; else the first problem, naming the field ("caller session id is empty").
std::optional<std::string> record_problem(const ProvenanceRecord& record);

// The same validator on a line as stored, where other writers' lines are read too.
struct LineProblem {
  const char* kind;    // "not-json", "not-object", "missing-field", "no-session-id",
                       // "wrong-type", "invalid-id"
  std::string detail;  // what is wrong and, for a record readers accept, what it means
  bool skipped;        // readers skip the line; false: they accept the record as it reads
};
struct CheckedLine {
  std::optional<ProvenanceRecord> record;  // what parse_provenance_line reads
  std::optional<LineProblem> problem;      // the first problem, nullopt for a valid record
};

// Checks one complete, non-blank store line against the schema. A line readers skip has a
// problem with `skipped` set. A record readers accept has at most one that is not: a field
// absent or not a string (it reads as empty; `detail` says what that means for the guard), or
// a non-empty id field that is not a valid id. Labels are not checked (other writers' records
// keep their text).
CheckedLine check_provenance_line(std::string_view line);

// The builder of a record to append, from what the writer knows of the session it launched.
// `given.kitchen_id` "" resolves as resolve_kitchen_id does ($FLEET_HOOKS_KITCHEN_ID, then
// $AUTOSKILLIT_CAMPAIGN_ID). The timestamp is now. Not validated: see record_problem.
ProvenanceRecord build_record(ProvenanceRecord given);

// The record `provenance-writer record` appends: built, with `given.caller_session_id` ""
// learnt as launch-wrapper --record-provenance learns it (launch_caller: from the dispatch call
// `call`, else the caller resume-guard handed over, else the caller variable of the nearest
// agent CLI of `known` above, never one it inherited), then validated. The problem, for a
// usage error, when the caller is not certain or the record breaks a rule (nothing is to be
// written).
Result<ProvenanceRecord> record_to_append(ProvenanceRecord given, const CallerClis& known,
                                          const DispatchCall& call = {});

// The variables in which the agent CLIs of `clis` name the calling session, as a person types
// them: "$CLAUDE_CODE_SESSION_ID, $QWEN_CODE_SESSION_ID or $COPILOT_AGENT_SESSION_ID".
std::string caller_variables(std::span<const AgentCli* const> clis);

}  // namespace fleet
