#pragma once
// One line of session_provenance.jsonl: who launched which session (README.md, "Files on
// disk"). Written with sorted keys like AutoSkillit; read from either writer.

#include <optional>
#include <string>
#include <string_view>

namespace fleet {

struct ProvenanceRecord {
  std::string session_id;         // the launched session
  std::string caller_session_id;  // the session that launched it
  std::string kitchen_id;
  std::string dispatch_id;
  std::string recipe_name;  // empty: an L3 orchestrator session, not a worker
  std::string step_name;
  std::string timestamp;  // ISO-8601 UTC

  bool operator==(const ProvenanceRecord&) const = default;
};

// The record as one JSON object with sorted keys, without a trailing newline.
std::string to_json_line(const ProvenanceRecord& record);

// Reads one store line. nullopt when the line is not a JSON object or its session_id is not
// a non-empty string. Other fields that are absent or not strings read as "". Extra keys are
// ignored.
std::optional<ProvenanceRecord> parse_provenance_line(std::string_view line);

// "" when every id is valid (ids.h) and the labels have no control bytes; else the problem.
std::string record_problem(const ProvenanceRecord& record);

}  // namespace fleet
