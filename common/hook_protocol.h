#pragma once
// The Claude Code hook protocol: a bounded read of the hook's stdin JSON, typed access to
// the fields the suite uses, and the JSON a hook prints to decide (README.md,
// "resume-guard").

#include <cstddef>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace fleet {

// Hook inputs larger than this are not read further (the dispatch prompt is the largest
// field; a model cannot produce anything near this size in one tool call).
inline constexpr std::size_t kMaxHookInputBytes = 8 * 1024 * 1024;

struct BoundedRead {
  std::string text;
  bool truncated = false;  // more than `cap` bytes were available
  std::string error;       // a read error, "" when none
};

// Reads `fd` to end of file, keeping at most `cap` bytes.
BoundedRead read_bounded(int fd, std::size_t cap);

// A parsed hook input. Field accessors return "" / nullptr for absent or mistyped fields.
class HookInput {
 public:
  // Parses `text`; on failure valid() is false and error() says why.
  explicit HookInput(std::string_view text);

  bool valid() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  std::string_view hook_event_name() const;
  std::string_view tool_name() const;
  std::string_view session_id() const;
  std::string_view cwd() const;
  // nullptr when absent; may be any JSON type.
  const rapidjson::Value* tool_input() const;
  const rapidjson::Value* tool_response() const;

 private:
  std::string_view string_field(const char* key) const;

  rapidjson::Document doc_;
  std::string error_;
};

// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",
//  "permissionDecisionReason":<reason>}} plus a trailing newline.
std::string pre_tool_use_deny(std::string_view reason);

// {"systemMessage":<message>} plus a trailing newline: shown to the user, decides nothing.
std::string advisory(std::string_view message);

}  // namespace fleet
