#pragma once
// The Claude Code hook protocol: a bounded read of the hook's stdin JSON, typed access to
// the fields the suite uses, and the JSON a hook prints to decide (doc/resume-guard.md).
// Failing: nothing here throws (the guard's hot path): a read that fails or is cut short is
// said in the BoundedRead, input that is not a JSON object is an invalid HookInput with its
// error(), and a field that is absent or of another type reads as "" / nullptr.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace fleet {

// Hook inputs larger than this are not read further (the dispatch prompt is the largest
// field; a model cannot produce anything near this size in one tool call).
inline constexpr std::size_t kMaxHookInputBytes = 8 * 1024 * 1024;

struct BoundedRead {
  std::string text;
  bool truncated = false;            // more than `cap` bytes were available
  std::optional<std::string> error;  // why the read failed (strerror), when it did
};

// Reads `fd` to end of file, keeping at most `cap` bytes.
BoundedRead read_bounded(int fd, std::size_t cap);

// Typed access to the fields of a hook input object the suite uses. Accessors return "" /
// nullptr for absent or mistyped fields. A view: the object must outlive it.
class HookFields {
 public:
  explicit HookFields(const rapidjson::Value& object) : object_(&object) {}

  std::string_view hook_event_name() const;
  std::string_view tool_name() const;
  std::string_view session_id() const;
  std::string_view cwd() const;
  // nullptr when absent; may be any JSON type.
  const rapidjson::Value* tool_input() const;
  const rapidjson::Value* tool_response() const;

 protected:
  HookFields() = default;
  const rapidjson::Value* object_ = nullptr;  // set by every constructor

 private:
  std::string_view string_field(const char* key) const;
};

// A parsed hook input: its fields, or why it could not be read (then its fields read as
// absent).
class HookInput : public HookFields {
 public:
  // Parses `text`; on failure valid() is false and error() says why.
  explicit HookInput(std::string_view text);
  // A hook's stdin: a read error or more than kMaxHookInputBytes is an input that cannot be
  // read ("cannot read stdin: …", "hook input is larger than 8 MiB and was not read further").
  explicit HookInput(const BoundedRead& input);
  HookInput(const HookInput&) = delete;
  HookInput& operator=(const HookInput&) = delete;

  bool valid() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  void parse(std::string_view text);

  rapidjson::Document doc_;
  std::string error_;
};

// A PreToolUse hook input as Claude Code sends it for `tool_name` called by session
// `session_id` with tool_input {"resume_session_id": `resume_session_id`} (and "cwd" when
// `cwd` is not empty): what `fleet-hooks check` feeds the configured guard command.
std::string pre_tool_use_input(std::string_view session_id, std::string_view tool_name,
                               std::string_view resume_session_id, std::string_view cwd = "");

// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",
//  "permissionDecisionReason":<reason>}} plus a trailing newline.
std::string pre_tool_use_deny(std::string_view reason);

// {"systemMessage":<message>} plus a trailing newline: shown to the user, decides nothing.
std::string advisory(std::string_view message);

}  // namespace fleet
