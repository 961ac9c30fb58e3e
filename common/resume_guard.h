#pragma once
// The resume-ownership decision of resume-guard (README.md, "resume-guard": Decision table).
// The guard never allows: it denies, advises, or stays silent.

#include <string>
#include <vector>

#include "hook_protocol.h"

namespace fleet {

struct GuardOptions {
  std::string state_dir;   // --state-dir ("" resolves as README.md, "State directory", says)
  std::string kitchen_id;  // --kitchen-id ("" resolves from the environment)
  std::vector<std::string> tools;  // --tool: more dispatch tool names
  bool strict = false;             // deny when the store cannot vouch for the session
};

struct GuardDecision {
  enum class Kind {
    silent,    // no output: Claude Code's own permission rules apply
    deny,      // `message` is the permissionDecisionReason
    advisory,  // `message` is a systemMessage; nothing is decided
  };
  Kind kind = Kind::silent;
  std::string message;
  std::string log;  // one line for stderr, "" for none

  // What the hook prints on stdout ("" when silent).
  std::string output() const;
};

// Decides on one hook invocation whose stdin was read into `input`.
GuardDecision decide_resume(const BoundedRead& input, const GuardOptions& options);

// The decision for `caller` dispatching with resume_session_id `resume_id` (what
// `fleet-hooks query` reports).
GuardDecision decide_resume_for(const std::string& caller, const std::string& resume_id,
                                const GuardOptions& options);

}  // namespace fleet
