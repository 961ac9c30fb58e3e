#pragma once
// What a launch records, step by step (doc/launch-wrapper.md): the member's record of its
// agent (launch/<member>.json), the keyed session's state (sessions/<key>.json), the worker's
// ownership record and the announce line. What is recorded already is private state; each
// step is one member function.

#include <sys/types.h>
#include <functional>
#include <optional>
#include <string>

#include "base/files.h"
#include "launch/containment.h"
#include "launch/options.h"
#include "launch/plan.h"
#include "launch/registry.h"
#include "launch/session_state.h"
#include "store/provenance_record.h"

namespace fleet {

class LaunchRecords {
 public:
  // Resolves the state directory and opens the member's registry and the keyed session's
  // store when the options ask for them. Throws Error (an invalid member name or key).
  explicit LaunchRecords(const LaunchOptions& options);
  LaunchRecords(const LaunchRecords&) = delete;
  LaunchRecords& operator=(const LaunchRecords&) = delete;

  // "" when the launch keeps nothing in a state directory.
  const std::string& state_dir() const { return state_dir_; }
  // Whether a session key was given (the keyed session's state is kept).
  bool keyed() const { return sessions_.has_value(); }
  // The launching session, with --record-provenance.
  const std::string& caller() const { return caller_; }
  // Why there is no caller ("" when there is one, or without --record-provenance).
  const std::string& caller_problem() const { return caller_problem_; }
  // The session's state once the launch changed it.
  const std::optional<SessionStatus>& final_state() const { return final_state_; }

  // Plans under the keyed session's lock: `decide` gets the session's recorded state, and the
  // state the plan sets is written.
  LaunchPlan plan(const std::function<LaunchPlan(const std::optional<SessionState>&)>& decide);
  // The ownership record of `session_id` (with the time now).
  ProvenanceRecord provenance_record(const std::string& session_id) const;
  // Changes the keyed session's state under its lock (nothing without a session key).
  void update_session(const std::string& session_id,
                      const std::function<void(SessionState&)>& change);

  // Step 1: the member's lock (an empty descriptor without --member), held until the agent
  // is recorded.
  UniqueFd lock_member() const;
  // Whether a newer launch or `launch-wrapper stop` replaced the record of this launch's
  // previous agent while a retry waited (then this launch records nothing more).
  bool superseded();
  // Step 2, the first attempt only: stops the member's previous agent. Throws Error when it
  // cannot be stopped.
  void stop_previous_agent(const LaunchNotice& notice) const;
  // Step 4: the member's record names `agent`. Throws Error when it vanished.
  void record_agent(pid_t agent, const LaunchPlan& plan, const Containment& containment);
  // Whether the worker's ownership record is still to be written (once per launch, and only
  // for a session that is not a resume).
  bool owes_provenance(const LaunchPlan& plan) const;
  void provenance_written() { provenance_written_ = true; }
  // Step 5: the announce line on stdout, when --announce calls for one now.
  void announce(pid_t agent);
  // The agent's output goes to the spool at `path` since the launcher's end of its `stream`
  // ("out"/"err") closed: the member's record says so while it names `agent`.
  void record_output_spool(pid_t agent, const std::string& stream, const std::string& path) const;
  // Whether the member's record still names `agent` (true without --member).
  bool names(pid_t agent) const;
  // Removes the member's record when it still names this launch's agent.
  void release();

 private:
  const LaunchOptions& options_;
  std::string state_dir_;
  std::optional<LaunchRegistry> registry_;
  std::optional<SessionStore> sessions_;
  std::string caller_;
  std::string caller_problem_;
  bool announced_ = false;
  bool provenance_written_ = false;
  // The pid of this launch's agent the member's record names (it stays while a retry waits,
  // so a newer launch or `launch-wrapper stop` can supersede the waiting launch).
  pid_t recorded_pid_ = 0;
  std::optional<SessionStatus> final_state_;
};

}  // namespace fleet
