#pragma once
// `fleet-hooks query --session`'s verdict: the guard's decision on a caller resuming a session,
// for a person or as JSON.
// Failing: never throws (it is the guard's decision, advisory when the store cannot vouch).

#include <string>

#include "guard/resume_guard.h"

namespace fleet {

// The guard's verdict on `caller` resuming `session`, for a person: "verdict for caller 'C':
// silent|advisory: …|deny: …" ("verdict for no caller: …" when `caller` is empty), or as one JSON
// object {"verdict", "caller", "session", "reason"} (verdict "silent", "advisory" or "deny", as
// to_string(Verdict) names them; reason
// "" when there is none).
std::string verdict_text(const std::string& caller, const GuardDecision& decision);
std::string verdict_json(const std::string& caller, const std::string& session,
                         const GuardDecision& decision);

struct VerdictQuery {
  std::string state_dir;   // the store's directory
  std::string session;     // the resume_session_id to judge
  std::string caller;      // the caller to judge for ("": none)
  std::string kitchen_id;  // the current kitchen ("": from the environment, as the guard reads it)
  bool json = false;       // verdict_json rather than verdict_text
};

// `fleet-hooks query --session`'s verdict line: the guard's decision (decide_resume) on the
// caller's request to resume the session through the dispatch tool.
std::string query_verdict(const VerdictQuery& query);

}  // namespace fleet
