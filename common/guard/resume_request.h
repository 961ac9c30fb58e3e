#pragma once
// What one tool call asks of resume-guard: reading the request out of a hook input
// (doc/resume-guard.md). Reading decides nothing; resume_guard.h decides on the request. Failing:
// nothing here throws (the guard's hot path); input that cannot be read is a request of kind
// `unreadable` with its problem.

#include <string>
#include <string_view>
#include <vector>

#include "hook/hook_protocol.h"

namespace fleet {

struct ResumeRequest {
  enum class Kind {
    none,          // not a resume through a guarded tool: another event or tool, no tool_input,
                   // or a resume_session_id that is absent, null or ""
    resume,        // `caller` asks to resume `resume_id` (not yet checked to be a valid id)
    unreadable,    // the input cannot be read: `problem` says why
    not_a_string,  // resume_session_id is not a string: `problem` is its JSON type
  };
  Kind kind = Kind::none;
  // A call of a guarded dispatch tool (fresh or resume), whose caller is `caller`.
  bool dispatch = false;
  // Views into the hook input (or the strings given to resume_request): they must outlive it.
  std::string_view resume_id;
  std::string_view caller;  // the hook input's caller_session_id (a subagent's main session)
  std::string_view cwd;     // the hook input's cwd: locates the project's state directory
  std::string problem;
  std::string_view call_id = {};  // the tool call's id its MCP server also gets ("" : none)
};

// Reads the request out of a hook input (HookInput: one that could not be read is
// `unreadable`). `tools`: more dispatch tool names to guard (--tool).
ResumeRequest read_resume_request(const HookInput& hook, const std::vector<std::string>& tools);
ResumeRequest read_resume_request(const HookFields& hook, const std::vector<std::string>& tools);

// The request of session `caller` to resume `resume_id` through the dispatch tool (what
// `fleet-hooks query` judges): `none` when `resume_id` is "".
ResumeRequest resume_request(std::string_view caller, std::string_view resume_id);

}  // namespace fleet
