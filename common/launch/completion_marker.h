#pragma once
// Whether one record of an agent's session file (a JSONL line) reports completion in the form
// of its CLI (CompletionRecordForm, one per CLI in agent_profile.cpp): only records of the
// form's type count (Claude Code "assistant", Codex "event_msg" of payload type
// "task_complete", Gemini "gemini"), and only the text where the form says it is (the answer's
// text blocks, Codex's last_agent_message); the marker must stand on a line of its own unless
// `anywhere`.

#include <string>
#include <string_view>

namespace fleet {

// Which record finishes a turn, and where its text is: a record whose "type" is `record_type`
// (and, when `subtype_key` is set, whose member `container` has `subtype_key` == `subtype`),
// its text at `text_path` (one or two member names): a string, or an array of blocks with a
// "text" (of "type" `block_type` when that is not empty).
struct CompletionRecordForm {
  std::string_view record_type;
  std::string_view container;  // "" : the record itself
  std::string_view subtype_key;
  std::string_view subtype;
  std::string_view text_path[2];  // second "" : one member
  std::string_view block_type;
};

// Claude Code's: {"type":"assistant","message":{"content":[{"type":"text","text":…}]}}.
inline constexpr CompletionRecordForm kClaudeCompletion = {
    "assistant", "", "", "", {"message", "content"}, "text"};

struct MarkerRule {
  std::string marker;            // e.g. "%%L3_DONE::b2fc2669%%"
  std::string record_type = "";  // "" : the form's
  bool anywhere = false;         // accept the marker inside a longer line
  const CompletionRecordForm* form = &kClaudeCompletion;
};

// True when `line` is a JSON object of the rule's record type whose text (as the form says)
// holds the marker. User prompts, queue operations and api-request-blob records never count
// with the default type.
bool record_has_marker(std::string_view line, const MarkerRule& rule);

}  // namespace fleet
