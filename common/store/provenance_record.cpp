#include "store/provenance_record.h"

#include <algorithm>
#include <array>
#include <iterator>

#include <rapidjson/document.h>

#include "base/ids.h"
#include "base/json.h"
#include "base/paths.h"
#include "base/timestamp.h"

namespace fleet {
namespace {

constexpr const char* kNotUsed = "it reads as empty (the guard does not use it)";

constexpr FieldSpec kSchema[] = {
    {RecordField::session_id, "session_id", "session id", FieldRule::required_id,
     &ProvenanceRecord::session_id, kNotUsed,
     "the guard refuses such a resume_session_id, so this session is never resumed by its full "
     "id (a short prefix may still name it)"},
    {RecordField::caller_session_id, "caller_session_id", "caller session id",
     FieldRule::required_id, &ProvenanceRecord::caller_session_id,
     "it reads as empty, so no caller owns the session: only its kitchen can resume it",
     "no caller's session id can equal it: only the session's kitchen can resume it"},
    {RecordField::kitchen_id, "kitchen_id", "kitchen id", FieldRule::optional_id,
     &ProvenanceRecord::kitchen_id,
     "it reads as empty, so no kitchen owns the session: only its caller can resume it",
     "no current kitchen can equal it: only the session's caller can resume it"},
    {RecordField::dispatch_id, "dispatch_id", "dispatch id", FieldRule::optional_id,
     &ProvenanceRecord::dispatch_id, kNotUsed, "the guard does not use it"},
    {RecordField::recipe_name, "recipe_name", "recipe name", FieldRule::label,
     &ProvenanceRecord::recipe_name,
     "it reads as empty, so the guard takes the session for an L3 orchestrator and denies every "
     "resume of it",
     ""},
    {RecordField::step_name, "step_name", "step name", FieldRule::label,
     &ProvenanceRecord::step_name, kNotUsed, ""},
    {RecordField::timestamp, "timestamp", "timestamp", FieldRule::any_text,
     &ProvenanceRecord::timestamp, kNotUsed, ""},
    {RecordField::agent_cli, "agent_cli", "agent CLI", FieldRule::optional_label,
     &ProvenanceRecord::agent_cli, kNotUsed, ""},
};

static_assert(
    [] {
      for (std::size_t i = 0; i < std::size(kSchema); ++i) {
        if (kSchema[i].field != static_cast<RecordField>(i)) return false;
      }
      return true;
    }(),
    "kSchema lists the fields in RecordField's order");

// The schema in sorted key order, as json.dumps(sort_keys=True) writes a record.
constexpr auto kSortedSchema = [] {
  std::array<const FieldSpec*, std::size(kSchema)> sorted{};
  for (std::size_t i = 0; i < sorted.size(); ++i) sorted[i] = &kSchema[i];
  std::sort(sorted.begin(), sorted.end(), [](const FieldSpec* a, const FieldSpec* b) {
    return std::string_view(a->key) < std::string_view(b->key);
  });
  return sorted;
}();

bool is_id(const FieldSpec& spec) {
  return spec.rule == FieldRule::required_id || spec.rule == FieldRule::optional_id;
}

// The one rule check of a field's value, naming the field as `what`.
std::optional<std::string> field_problem(const FieldSpec& spec, std::string_view value,
                                         std::string_view what) {
  std::optional<std::string> problem;
  switch (spec.rule) {
    case FieldRule::required_id:
      problem = id_problem(what, value);
      break;
    case FieldRule::optional_id:
      if (!value.empty()) problem = id_problem(what, value);
      break;
    case FieldRule::label:
    case FieldRule::optional_label:
      problem = label_problem(what, value);
      break;
    case FieldRule::any_text:
      break;
  }
  return problem;
}

// What readers read from a parsed line: nullopt unless it is an object with a non-empty
// string session_id; any other field that is absent or not a string reads as "".
std::optional<ProvenanceRecord> record_of(const rapidjson::Value& doc) {
  if (!doc.IsObject()) return std::nullopt;
  const auto session_id = string_member(doc, "session_id");
  if (!session_id || session_id->empty()) return std::nullopt;
  ProvenanceRecord record;
  record.session_id = std::string(*session_id);
  for (const FieldSpec& spec : kSchema) {
    if (spec.field == RecordField::session_id) continue;
    record.*spec.member = std::string(string_member(doc, spec.key).value_or(std::string_view()));
  }
  return record;
}

LineProblem skipped(const char* kind, std::string detail) {
  return {kind, std::move(detail), true};
}

LineProblem warning(const char* kind, std::string detail) {
  return {kind, std::move(detail), false};
}

}  // namespace

const FieldSpec& field_spec(RecordField field) {
  return kSchema[static_cast<std::size_t>(field)];
}

const std::string& field_value(const ProvenanceRecord& record, RecordField field) {
  return record.*field_spec(field).member;
}

std::string to_json_line(const ProvenanceRecord& record) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  for (const FieldSpec* spec : kSortedSchema) {
    if (spec->rule == FieldRule::optional_label && (record.*spec->member).empty()) continue;
    doc.AddMember(rapidjson::StringRef(spec->key), json_string(record.*spec->member, alloc), alloc);
  }
  return to_json(doc);
}

std::optional<ProvenanceRecord> parse_provenance_line(std::string_view line) {
  const Result<rapidjson::Document> doc = parse_json(line);
  if (!doc) return std::nullopt;
  return record_of(*doc);
}

std::optional<std::string> record_problem(const ProvenanceRecord& record) {
  for (const FieldSpec& spec : kSchema) {
    if (auto problem = field_problem(spec, record.*spec.member, spec.name)) return problem;
  }
  return std::nullopt;
}

CheckedLine check_provenance_line(std::string_view line) {
  CheckedLine checked;
  const Result<rapidjson::Document> parsed = parse_json(line);
  if (!parsed) {
    checked.problem = skipped("not-json", parsed.problem());
    return checked;
  }
  const rapidjson::Value& doc = *parsed;
  if (!doc.IsObject()) {
    checked.problem = skipped("not-object", std::string("a JSON ") + json_type_name(doc));
    return checked;
  }
  checked.record = record_of(doc);
  if (!checked.record) {
    const rapidjson::Value* value = member(doc, "session_id");
    if (value == nullptr) {
      checked.problem = skipped("missing-field", "no session_id");
    } else {
      checked.problem =
          skipped("no-session-id",
                  !value->IsString() ? std::string("session_id is a JSON ") + json_type_name(*value)
                                     : "session_id is empty");
    }
    return checked;
  }
  for (const FieldSpec& spec : kSchema) {
    const rapidjson::Value* value = member(doc, spec.key);
    if (value == nullptr && spec.rule == FieldRule::optional_label) continue;
    if (value == nullptr) {
      checked.problem =
          warning("missing-field", std::string(spec.key) + " is missing: " + spec.if_empty);
      return checked;
    }
    if (!value->IsString()) {
      checked.problem = warning("wrong-type", std::string(spec.key) + " is a JSON " +
                                                  json_type_name(*value) + ": " + spec.if_empty);
      return checked;
    }
  }
  for (const FieldSpec& spec : kSchema) {
    const std::string& value = (*checked.record).*spec.member;
    if (!is_id(spec) || value.empty()) continue;
    if (auto problem = field_problem(spec, value, spec.key)) {
      checked.problem = warning("invalid-id", *problem + ": " + spec.if_invalid);
      return checked;
    }
  }
  return checked;
}

ProvenanceRecord build_record(ProvenanceRecord given) {
  given.kitchen_id = resolve_kitchen_id(given.kitchen_id).value_or("");  // "": no kitchen
  given.timestamp = utc_timestamp_now();
  return given;
}

std::string caller_variables(std::span<const AgentCli* const> clis) {
  return agent_cli_list(clis, &AgentCli::caller_variable, ", ", " or ", "$");
}

Result<ProvenanceRecord> record_to_append(ProvenanceRecord given, const CallerClis& known,
                                          const DispatchCall& call) {
  const Result<std::string> caller = launch_caller(given.caller_session_id, known, call);
  if (!caller) {
    return Result<ProvenanceRecord>::failure(
        uncertain_caller("record", caller.problem(), "nothing written"));
  }
  given.caller_session_id = *caller;
  ProvenanceRecord record = build_record(std::move(given));
  if (const auto problem = record_problem(record)) {
    return Result<ProvenanceRecord>::failure(*problem + "; nothing written");
  }
  return record;
}

}  // namespace fleet
