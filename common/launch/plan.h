#pragma once
// What a launch runs, decided before anything starts, as a pure function of the options and
// the keyed session's recorded state: the command line after the session rewrites, the
// session it names or resumes, what the agent's environment gets, and the state the session
// records (doc/launch-wrapper.md). Also the plan a stale resume is retried with.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "agent/agent_profile.h"
#include "launch/options.h"
#include "launch/session_state.h"
#include "store/provenance_record.h"

namespace fleet {

struct LaunchPlan {
  std::vector<std::string> command;
  std::string session_id;  // "" when not known (yet)
  // The id is learned from the agent's stdout as it runs (Codex: thread.started).
  bool capture_session_id = false;
  std::string resume_id;  // the session the command resumes, "" when none
  // The command resumes a session, named or not (Codex's `resume --last`): it writes no
  // ownership record, and its session file is read only past what it held at the start.
  bool resumes = false;
  std::vector<std::string> environment;       // added to the agent's environment
  std::optional<SessionState> session_state;  // with a session key: recorded at the start
  std::optional<std::string> notice;          // a line for a person, when there is one
};

// Makes a new session id (a UUIDv4 in the wrapper).
using SessionIdSource = std::function<std::string()>;

// The session id is --session-id, else the command's id option, else the session it resumes,
// in the form of `agent`'s CLI (agent_profile.h); a keyed session's recorded state may rewrite
// the command (session_state.h). With --assign-session-id and no id yet, a new one is put on
// the command line when the CLI takes one and the command is the CLI's own (a command that is
// not gets it in FLEET_SESSION_ID only); a CLI that picks its own id has it captured from
// its stdout. The agent's environment gets FLEET_SESSION_ID whenever the id is known.
LaunchPlan plan_launch(const std::vector<std::string>& command, const SessionOptions& session,
                       const std::optional<SessionState>& recorded,
                       const SessionIdSource& new_session_id, const AgentProfile& agent);

// The retry of a launch whose resumed session no longer exists: its command without the
// resume options, as a fresh session (with a new id when `assign_session_id`).
LaunchPlan fresh_session_plan(const LaunchPlan& stale, bool assign_session_id,
                              const SessionIdSource& new_session_id, const AgentProfile& agent);

// Throws Error, saying what to pass, when the plan cannot make the launch the options ask
// for. `caller` is the launching session ("": unknown, because of `caller_problem`); `record`
// builds the ownership record of a session id (called only with --record-provenance, once the
// caller is known).
void check_plan(const LaunchOptions& options, const LaunchPlan& plan, const std::string& caller,
                const std::function<ProvenanceRecord(const std::string&)>& record,
                const std::string& caller_problem = "");

}  // namespace fleet
