#pragma once
// One attempt of a launch (doc/launch-wrapper.md, steps 1-7): serialize with the
// member's other launches and stop its previous agent, start the agent held, record and
// announce it, release it, supervise it until it exits, stop what it left behind, and say
// what it came to. Launch is what the attempts of one launch share.

#include <sys/types.h>
#include <unistd.h>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/files.h"
#include "launch/containment.h"
#include "launch/final_stdout.h"
#include "launch/guardian.h"
#include "launch/options.h"
#include "launch/plan.h"
#include "launch/records.h"
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
  std::string stdout_tail;  // last bytes of stdout
  std::string stderr_tail;  // last bytes of stderr
  std::string session_id;   // the agent's session as known at its end (planned or captured)
};

// What the attempts of one launch share: its options and notices, what it records, the
// guardian, the signals routed to it, the output spools and the final attempt's stdout.
class Launch {
 public:
  // Opens the launch's records (records.h); what the launch says goes to `notice`. Throws
  // Error (no command, an invalid member name or key).
  Launch(const LaunchOptions& options, LaunchNotice notice);
  Launch(const Launch&) = delete;
  Launch& operator=(const Launch&) = delete;

  const LaunchOptions& options() const { return options_; }
  const LaunchNotice& notice() const { return notice_; }
  bool parent_gone() const { return ::getppid() != parent_; }
  LaunchRecords& records() { return records_; }
  SignalRouter& router() { return router_; }
  FinalAttemptStdout& final_stdout() { return final_stdout_; }
  // The guardian, when the launch has one, watches `containment` from now on.
  void guard(const Containment& containment);
  // Keeps an output spool open until the launch ends; returns its descriptor.
  int keep_open(UniqueFd spool);

  // Runs attempt `number` of `plan`: returns what it came to, or nullopt when the member's
  // record no longer names this launch's previous agent (a newer launch or `launch-wrapper
  // stop` superseded the launch while it waited to retry): then nothing was started. Throws
  // Error when the wrapper fails (a previous agent that cannot be stopped, no cgroup where
  // one is required).
  std::optional<AttemptResult> run_attempt(const LaunchPlan& plan, int number);

 private:
  const LaunchOptions& options_;
  const LaunchNotice notice_;
  const pid_t parent_;  // the wrapper's parent when it started
  // Before router_: the guardian must be forked before the wrapper becomes a subreaper.
  std::unique_ptr<LaunchGuardian> guardian_;
  SignalRouter router_;
  LaunchRecords records_;
  std::vector<UniqueFd> spools_;
  FinalAttemptStdout final_stdout_;
};

}  // namespace fleet
