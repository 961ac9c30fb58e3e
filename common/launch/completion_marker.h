#pragma once
// Whether one transcript record (a line of Claude Code's session JSONL) reports completion:
// only records of the given type (normally "assistant") count, and only the text blocks of
// their message; the marker must stand on a line of its own unless `anywhere`.

#include <string>
#include <string_view>

namespace fleet {

struct MarkerRule {
  std::string marker;  // e.g. "%%L3_DONE::b2fc2669%%"
  std::string record_type = "assistant";
  bool anywhere = false;  // accept the marker inside a longer line
};

// True when `line` is a JSON object whose "type" is rule.record_type and whose
// message.content holds a text block (or is a string) with the marker. User prompts,
// queue operations and api-request-blob records never count with the default type.
bool record_has_marker(std::string_view line, const MarkerRule& rule);

}  // namespace fleet
