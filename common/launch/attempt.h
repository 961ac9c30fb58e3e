#pragma once
// One attempt of a launch (doc/launch-wrapper.md, steps 1-7): serialize with the
// member's other launches and stop its previous agent, start the agent held, record and
// announce it, release it, supervise it until it exits, stop what it left behind, and say
// what it came to. LaunchContext is what the attempts of one launch share.

#include <sys/types.h>
#include <unistd.h>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/files.h"
#include "launch/guardian.h"
#include "launch/options.h"
#include "launch/plan.h"
#include "launch/registry.h"
#include "launch/session_state.h"
#include "launch/stdout_spool.h"
#include "launch/summary.h"
#include "process/signal_router.h"

namespace fleet {

// What one start of the agent came to.
struct AttemptResult {
  pid_t pid = 0;  // 0 when no agent was started
  int exit_code = 0;
  KillReason kill_reason = KillReason::natural_exit;
  bool ended_by_signal = false;  // a stop signal to the wrapper ended it, or started a drain
  bool completion_seen = false;
  int outside_signal = 0;  // with `killed`: the signal from outside
  std::string output_spool;
  std::string output_tail;  // last bytes of stdout, then of stderr
  std::string session_id;   // the agent's session as known at its end (planned or captured)
};

class LaunchContext {
 public:
  // Resolves the state directory and opens the member's registry and the keyed session's
  // store when the options ask for them; what the launch says goes to `notice`. Throws Error
  // (an invalid member name or key).
  LaunchContext(const LaunchOptions& options, LaunchNotice notice);

  const LaunchOptions& options;
  const LaunchNotice notice;
  const pid_t parent;  // the wrapper's parent when it started
  std::string state_dir;
  std::optional<LaunchRegistry> registry;
  std::optional<SessionStore> sessions;
  std::string caller;  // the launching session, with --record-provenance
  // Before router: the guardian must be forked before the wrapper becomes a subreaper.
  std::unique_ptr<LaunchGuardian> guardian;
  SignalRouter router;
  bool announced = false;
  bool provenance_written = false;
  // The pid of this launch's agent the member's record names (it stays while a retry waits,
  // so a newer launch or `launch-wrapper stop` can supersede the waiting launch).
  pid_t recorded_pid = 0;
  std::optional<SessionStatus> final_state;  // the session's state once the launch changed it
  std::vector<UniqueFd> spools;
  // With --stdout final: the stdout of the launch's latest attempt and that attempt's number;
  // the file it went to instead when the launcher's end of stdout closed.
  std::optional<StdoutSpool> final_stdout;
  unsigned final_stdout_attempt = 0;
  std::string final_stdout_moved_to;

  bool parent_gone() const { return ::getppid() != parent; }
  // The ownership record of `session_id` (with the time now).
  ProvenanceRecord provenance_record(const std::string& session_id) const;
  // Changes the keyed session's state under its lock (nothing without a session key).
  void update_session(const std::string& session_id,
                      const std::function<void(SessionState&)>& change);
  // Removes the member's record when it still names this launch's agent.
  void release_record();
  // With --stdout final, once the launch has ended: writes the latest attempt's stdout to
  // ours (once) and says what it wrote; nullopt without --stdout final.
  std::optional<FinalStdout> deliver_final_stdout();
};

// Runs attempt `number` of `plan`: returns what it came to, or nullopt when the member's
// record no longer names this launch's previous agent (a newer launch or `launch-wrapper
// stop` superseded the launch while it waited to retry): then nothing was started. Throws
// Error when the wrapper fails (a previous agent that cannot be stopped, no cgroup where
// one is required).
std::optional<AttemptResult> run_attempt(LaunchContext& context, const LaunchPlan& plan,
                                         int number);

}  // namespace fleet
