#pragma once
// The session of one attempt's agent as the launch comes to know it: its id (planned, or
// captured from the agent's stdout for a CLI that picks its own), its ownership record in the
// provenance store before the agent can make a tool call (at once when the id is known, else
// through a pending launch its SessionStart hook claims: worker_record.h), and the completion
// watch on its session file past the resume boundary (transcript_watch.h) or, for a CLI that
// reports a finished turn on its stdout, on that (stdout_completion.h).
// Failing: a pending file or a record that cannot be written throws Error.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "launch/options.h"
#include "launch/plan.h"
#include "launch/session_id_capture.h"
#include "launch/stdout_completion.h"
#include "launch/transcript_watch.h"
#include "store/provenance_record.h"

namespace fleet {

class WorkerSession {
 public:
  // What the session needs from the launch: its options and plan, the state directory, the
  // ownership record of an id, where notices go, and what to do once a captured id is known.
  struct Launch {
    const LaunchOptions& options;
    const LaunchPlan& plan;
    std::string state_dir;
    std::function<ProvenanceRecord(const std::string& session_id)> record;
    LaunchNotice notice;
    std::function<void(const std::string& session_id)> on_captured_id;
  };

  explicit WorkerSession(Launch launch);
  ~WorkerSession();

  // Before the agent is started: the pending launch when its record waits for a captured id;
  // the entries the agent's environment gets for it ($FLEET_HOOKS_PENDING_LAUNCH).
  std::vector<std::string> prepare();
  // Once the agent is held, before it is released: appends the ownership record when the id
  // is known (true when it did), and takes the completion watch's resume boundary.
  bool record_and_mark_boundary(bool record);

  // What supervision shows every byte of the agent's stdout to (nullptr: nothing to learn).
  std::function<void(const char*, std::size_t)> stdout_observer();
  // The completion watch (nullptr: none): on the session file, or on the agent's stdout.
  CompletionWatch* watch() const;

  // Once the agent has exited: settles a pending launch not settled yet.
  void finish();
  // The session's id as known now ("" when it is not).
  std::string session_id() const;

 private:
  void observe(const char* data, std::size_t size);
  void settle();

  Launch launch_;
  std::unique_ptr<SessionIdCapture> capture_;
  std::string pending_path_;
  bool settled_ = false;
  std::string settled_id_;  // the id a hook recorded, when the launch saw none
  std::unique_ptr<TranscriptWatch> watch_;
  std::unique_ptr<StdoutCompletion> stdout_completion_;
};

}  // namespace fleet
