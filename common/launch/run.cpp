#include "launch/run.h"

#include <cstring>
#include <optional>
#include <vector>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/ids.h"
#include "launch/attempt.h"
#include "launch/command_line.h"
#include "launch/plan.h"
#include "launch/retry_policy.h"
#include "launch/summary.h"
#include "platform/system_facts.h"
#include "process/child_process.h"
#include "process/command_search.h"

namespace fleet {
namespace {

std::string signal_name(int sig) {
  const std::optional<std::string> abbreviation = platform::signal_abbreviation(sig);
  return abbreviation ? "SIG" + *abbreviation : std::to_string(sig);
}

// A warning when the agent's command line or environment makes its CLI skip the hooks (its
// dispatches would then run unguarded, its start unrecorded by them), which launch-wrapper sees.
void warn_of_run_switch(Launch& launch, const LaunchPlan& plan) {
  const AgentProfile& agent = *launch.options().agent;
  if (!is_agent_command(plan.command, agent)) return;
  const RunSwitch* off = run_switch(plan.command, environment_with(plan.environment), agent);
  if (off == nullptr) return;
  std::string what;
  if (!off->option.empty()) {
    what.append("its command line's ").append(off->option);
    if (!off->unless.empty()) what.append(" (without ").append(off->unless).append(")");
  } else {
    what.append("$").append(off->variable).append(" in its environment");
  }
  launch.notice()("warning: with " + what + ", " + std::string(agent.display_name) + " " +
                  std::string(off->effect) +
                  ": the suite's hooks do not run in this agent, and a dispatch it makes runs "
                  "unguarded");
}

// What to run: planned from the options and, with a session key, the session's recorded
// state, which is updated under its lock. Throws Error when the options cannot make a launch.
LaunchPlan plan(Launch& launch) {
  const LaunchOptions& options = launch.options();
  LaunchRecords& records = launch.records();
  return records.plan([&](const std::optional<SessionState>& recorded) {
    LaunchPlan plan =
        plan_launch(options.command, options.session, recorded, new_uuid_v4, *options.agent);
    if (plan.notice) launch.notice()(*plan.notice);
    warn_of_run_switch(launch, plan);
    check_plan(
        options, plan, records.caller(),
        [&](const std::string& id) { return records.provenance_record(id); },
        records.caller_problem());
    return plan;
  });
}

// The launch's outcome with `summary`, which is written to --summary-file.
LaunchOutcome outcome_of(const LaunchOptions& options, const LaunchSummary& summary) {
  LaunchOutcome outcome{summary.exit_code, launch_summary_json(summary), std::nullopt};
  if (!options.summary_file.empty()) {
    try {
      replace_file_atomically(options.summary_file, outcome.summary, Durability::process_lifetime);
    } catch (const Error& e) {
      outcome.summary_file_problem = std::string("cannot write the summary file: ") + e.what();
    }
  }
  return outcome;
}

// A stale resume retried as a fresh session: the keyed session follows the fresh one at once
// (its new id, or none when the agent picks its own), so a drain that times out marks for
// resume the session the agent runs, not the one that no longer exists.
void follow_fresh_session(Launch& launch, const LaunchPlan& plan) {
  if (!launch.records().keyed()) return;
  const std::string& key = launch.options().session.session_key;
  launch.records().update_session(plan.session_id, [&](SessionState& state) {
    state = state_at_launch(std::nullopt, key, SessionLaunch::Kind::fresh, plan.session_id);
  });
  launch.notice()(
      "session " + key + " now names the fresh session" +
      (plan.session_id.empty() ? " (its id is the agent's own)" : " " + plan.session_id));
}

// Step 9: the summary line, written to --summary-file.
LaunchOutcome report(Launch& launch, const LaunchPlan& plan,
                     const std::vector<AttemptResult>& attempts,
                     const std::vector<ErrorClass>& classes, int exit_code,
                     const std::string& not_retried = "") {
  launch.records().release();
  const LaunchOptions& options = launch.options();
  const AttemptResult& last = attempts.back();
  LaunchSummary summary;
  summary.final_stdout = launch.final_stdout().deliver();
  summary.member = options.member;
  // A captured id (Codex picks its own) is the last attempt's.
  summary.session_id = last.session_id.empty() ? plan.session_id : last.session_id;
  summary.session_key = options.session.session_key;
  summary.session_state = launch.records().final_state();
  summary.exit_code = exit_code;
  summary.kill_reason = last.kill_reason;
  if (last.kill_reason == KillReason::killed) summary.signal = signal_name(last.outside_signal);
  summary.output_spool = last.output_spool;
  summary.completion_seen = last.completion_seen;
  summary.attempts = static_cast<unsigned>(attempts.size());
  for (const AttemptResult& a : attempts) {
    if (a.pid != 0) summary.pids.push_back(a.pid);
  }
  summary.failure_classes = classes;
  summary.not_retried = not_retried;
  return outcome_of(options, summary);
}

// A command that cannot run (not found, not executable) ends the launch before anything is
// done: no previous agent stopped, nothing recorded or announced, no session state changed.
std::optional<LaunchOutcome> refuse_unrunnable(const LaunchOptions& options,
                                               const LaunchNotice& notice) {
  if (options.command.empty()) return std::nullopt;
  const std::optional<ExecFailure> failure = find_command(options.command.front());
  if (!failure) return std::nullopt;
  notice("cannot run '" + options.command.front() + "': " + failure->reason() +
         "; nothing was started");
  LaunchSummary summary;
  summary.member = options.member;
  summary.session_id = options.session.session_id;
  summary.session_key = options.session.session_key;
  summary.exit_code = failure->exit_status();
  summary.kill_reason = KillReason::exec_failed;
  return outcome_of(options, summary);
}

LaunchOutcome run_attempts(Launch& launch, LaunchPlan plan) {
  const LaunchOptions& options = launch.options();
  std::vector<AttemptResult> attempts;
  std::vector<ErrorClass> classes;
  bool fresh_retry_done = false;
  for (int number = 1;; ++number) {
    // Steps 1-7: serialize, stop the previous agent, start held, record, announce,
    // supervise, clean up.
    std::optional<AttemptResult> attempt = launch.run_attempt(plan, number);
    if (!attempt) {
      launch.notice()("another launch of member " + options.member +
                      ", or launch-wrapper stop, superseded this launch while it waited: no retry");
      attempts.back().kill_reason = KillReason::superseded;
      return report(launch, plan, attempts, classes, attempts.back().exit_code);
    }
    attempts.push_back(std::move(*attempt));
    const int exit_code = attempts.back().exit_code;
    // Step 8: retry only when the failure calls for it.
    const RetryDecision next =
        decide_retry(attempts.back(), number, options.retry, launch.parent_gone(), fresh_retry_done,
                     plan.command, *options.agent);
    if (next.failure) classes.push_back(*next.failure);
    if (next.notice) launch.notice()(*next.notice);
    switch (next.step) {
      case RetryStep::finish:
        return report(launch, plan, attempts, classes, exit_code, next.not_retried);
      case RetryStep::fresh_session:
        fresh_retry_done = true;
        plan = fresh_session_plan(plan, options.session.assign_session_id, new_uuid_v4,
                                  *options.agent);
        follow_fresh_session(launch, plan);
        break;
      case RetryStep::backoff:
        if (const int sig = launch.router().sleep(next.delay_seconds); sig != 0) {
          AttemptResult interrupted;
          interrupted.exit_code = exit_status::of_signal(sig);
          interrupted.kill_reason = KillReason::signal;
          attempts.push_back(interrupted);
          return report(launch, plan, attempts, classes, interrupted.exit_code);
        }
        if (launch.parent_gone()) {
          launch.notice()("the wrapper's parent is gone: no retry");
          return report(launch, plan, attempts, classes, exit_code);
        }
        break;
    }
  }
}

}  // namespace

LaunchOutcome run_launch(const LaunchOptions& options, const LaunchNotice& notice) {
  if (std::optional<LaunchOutcome> refused = refuse_unrunnable(options, notice)) return *refused;
  Launch launch(options, notice);
  const LaunchPlan planned = plan(launch);
  try {
    return run_attempts(launch, planned);
  } catch (const Error&) {
    try {
      launch.records().release();
    } catch (const Error&) {
      // The record names an agent that has exited: the member's next launch clears it.
    }
    launch.final_stdout().deliver();  // what the last attempt wrote, when one ran
    throw;
  }
}

}  // namespace fleet
