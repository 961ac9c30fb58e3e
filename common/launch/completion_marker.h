#pragma once
// Whether one record of an agent's session file (a JSONL line) reports completion in the form
// of its CLI (CompletionRecordForm, in each CLI's AgentProfile): only records of the
// form's type count (Claude Code "assistant", Codex "event_msg" of payload type
// "task_complete", Gemini "gemini"), and only the text where the form says it is (the answer's
// text blocks, Codex's last_agent_message); the marker must stand on a line of its own unless
// `anywhere`.

#include <string>
#include <string_view>

#include "agent/completion_record.h"

namespace fleet {

struct MarkerRule {
  std::string marker;                          // e.g. "%%L3_DONE::b2fc2669%%"
  std::string record_type = "";                // "" : the form's
  bool anywhere = false;                       // accept the marker inside a longer line
  const CompletionRecordForm* form = nullptr;  // the CLI's: AgentProfile::completion
};

// True when `line` is a JSON object of the rule's record type whose text (as the form says)
// holds the marker. User prompts, queue operations and api-request-blob records never count
// with the default type.
bool record_has_marker(std::string_view line, const MarkerRule& rule);

}  // namespace fleet
