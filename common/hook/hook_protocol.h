#pragma once
// The hook protocol: a bounded read of the hook's stdin JSON, typed access to the fields the
// suite uses, and the JSON a hook prints to decide, in the dialect of the agent CLI that runs
// the hook (agent/agent_cli.h; Claude Code's when none is named) (doc/resume-guard.md,
// doc/agents.md).
// Failing: nothing here throws (the guard's hot path): a read that fails or is cut short is
// said in the BoundedRead, input that is not a JSON object is an invalid HookInput with its
// error(), and a field that is absent or of another type reads as "" / nullptr.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "agent/agent_cli.h"

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
// nullptr for absent or mistyped fields, under the names `agent` gives them. A view: the object
// must outlive it.
class HookFields {
 public:
  explicit HookFields(const rapidjson::Value& object, const AgentCli& agent)
      : object_(&object), agent_(&agent) {}

  // The CLI whose hook input this is.
  const AgentCli& agent() const { return *agent_; }

  std::string_view hook_event_name() const;
  std::string_view tool_name() const;
  std::string_view session_id() const;
  // Who the caller is: the session that owns this call — the input's parent session
  // (HookFieldNames::parent_session_id: GitHub Copilot CLI names a subagent's main session
  // there, its session_id being the subagent's own) when it is a non-empty string, else
  // session_id. The one answer the guard judges by and the writer records as the caller.
  std::string_view caller_session_id() const;
  std::string_view cwd() const;
  // The tool call's id (HookFieldNames::tool_use_id); "" when the CLI sends none to its MCP
  // server (AgentCli::mcp_call has no call_id_key).
  std::string_view tool_use_id() const;
  // nullptr when absent; may be any JSON type.
  const rapidjson::Value* tool_input() const;
  const rapidjson::Value* tool_response() const;
  // The text of the tool's answer where `reader` (a CLI that runs the hooks of this agent's
  // file) puts it in its post-tool input (HookFileReader::result_field); "" when absent.
  std::string_view reader_result_text(const HookFileReader& reader) const;

 protected:
  explicit HookFields(const AgentCli& agent) : agent_(&agent) {}
  const rapidjson::Value* object_ = nullptr;  // set by every constructor
  const AgentCli* agent_;

 private:
  std::string_view string_field(const char* key) const;
};

// A parsed hook input: its fields, or why it could not be read (then its fields read as
// absent).
class HookInput : public HookFields {
 public:
  // Parses `text`; on failure valid() is false and error() says why.
  explicit HookInput(std::string_view text, const AgentCli& agent);
  // A hook's stdin: a read error or more than kMaxHookInputBytes is an input that cannot be
  // read ("cannot read stdin: …", "hook input is larger than 8 MiB and was not read further").
  explicit HookInput(const BoundedRead& input, const AgentCli& agent);
  HookInput(const HookInput&) = delete;
  HookInput& operator=(const HookInput&) = delete;

  bool valid() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  void parse(std::string_view text);

  rapidjson::Document doc_;
  std::string error_;
};

// A pre-tool hook input as `agent` sends it for `tool_name` called by session `session_id`
// with tool_input {"resume_session_id": `resume_session_id`} (and "cwd" when `cwd` is not
// empty): what `fleet-hooks check` feeds the configured guard command.
std::string pre_tool_use_input(std::string_view session_id, std::string_view tool_name,
                               std::string_view resume_session_id, std::string_view cwd,
                               const AgentCli& agent);

// The deny of a tool call with `reason` in `agent`'s dialect, plus a trailing newline. Claude
// Code and Codex: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":
// "deny","permissionDecisionReason":<reason>}}; Gemini: {"decision":"deny","reason":<reason>}.
std::string pre_tool_use_deny(std::string_view reason, const AgentCli& agent);

// {"systemMessage":<message>} (the agent's advisory key) plus a trailing newline: shown to
// the user, decides nothing.
std::string advisory(std::string_view message, const AgentCli& agent);

// The answer that lets a tool call run with its input `tool_input` (an object) changed: its
// member `argument` set to `value` (whatever the model wrote there), in `agent`'s
// InputRewriteForm, with `advisory_message` as the advisory beside it ("" : none); a trailing
// newline. Gemini: {"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{…}}}.
std::string pre_tool_use_rewrite(const rapidjson::Value& tool_input, std::string_view argument,
                                 std::string_view value, std::string_view advisory_message,
                                 const AgentCli& agent);

}  // namespace fleet
