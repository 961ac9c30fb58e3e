#include "launch/attempt.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <cstring>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "base/timestamp.h"
#include "launch/agent_control.h"
#include "launch/agent_supervisor.h"
#include "launch/worker_session.h"
#include "process/child_process.h"
#include "store/provenance_store.h"

namespace fleet {
namespace {

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return exit_status::of_signal(WTERMSIG(status));
  return exit_status::wrapper_failure;
}

bool has_children() {
  siginfo_t info{};
  return ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

// Whether the member's record names `pid` (under the member's lock).
bool record_names(const LaunchRegistry& registry, pid_t pid) {
  UniqueFd lock = registry.lock();
  const RegistryRead read = registry.read();
  return read.status == RegistryRead::Status::ok && read.record.process.pid == pid;
}

// Children left on purpose would keep a cgroup forever: --leave-children uses the token.
ContainmentMode containment_mode(const LaunchOptions& options) {
  return options.leave_children && options.containment == ContainmentMode::automatic
             ? ContainmentMode::token
             : options.containment;
}

// --stdout final and the launcher's end of our stdout closed: the attempt's stdout so far
// goes to the output spool at `path` (`fd`), where the rest follows.
void hand_over_final_stdout(LaunchContext& context, int fd, const std::string& path) {
  if (!context.final_stdout) return;
  const SpoolDelivery moved = context.final_stdout->deliver(fd);
  if (moved.problem) context.notice("the stdout kept so far is incomplete: " + *moved.problem);
  context.final_stdout_moved_to = path;  // the spool stays: the relay may still write to it
}

// The launcher's end of our `stream` ("out"/"err") closed: opens
// <state dir>/output/<member or "agent">-<pid>.<stream> for the agent's output to go on
// to, records it for `status`, and returns its descriptor (-1 when it cannot be opened:
// the agent is stopped then, as nobody could read its output).
int spool_output(LaunchContext& context, pid_t agent, const char* stream, std::string& spool_path) {
  const LaunchOptions& options = context.options;
  try {
    const std::string directory =
        (context.state_dir.empty() ? resolve_state_dir(options.state_dir, "") : context.state_dir) +
        "/output";
    ensure_directory(directory);
    const std::string path = directory + "/" +
                             (options.member.empty() ? std::string("agent") : options.member) +
                             "-" + std::to_string(agent) + "." + stream;
    context.spools.push_back(open_regular_file(path, O_WRONLY | O_CREAT | O_APPEND, 0600));
    if (spool_path.empty() || std::string(stream) == "out") spool_path = path;
    if (std::string(stream) == "out")
      hand_over_final_stdout(context, context.spools.back().get(), path);
    context.notice("the launcher's end of std" + std::string(stream) +
                   " closed; the agent runs on, its output goes to " + path);
    if (context.registry) {
      UniqueFd lock = context.registry->lock();
      RegistryRead read = context.registry->read();
      if (read.status == RegistryRead::Status::ok && read.record.process.pid == agent) {
        if (read.record.output_spool.empty() || std::string(stream) == "out")
          read.record.output_spool = path;
        context.registry->write(read.record);
      }
    }
    return context.spools.back().get();
  } catch (const Error& e) {
    context.notice(std::string("cannot spool the agent's output: ") + e.what() +
                   "; stopping the agent");
    return -1;
  }
}

KillReason kill_reason_of(const AgentExit& exit) {
  return exit.stopped_after_completion ? KillReason::completed_then_stopped
         : exit.drain_timed_out        ? KillReason::drain_timeout
         : exit.forwarded_signal != 0  ? KillReason::signal
         : exit.output_closed          ? KillReason::output_closed
         : exit.outside_signal != 0    ? KillReason::killed
                                       : KillReason::natural_exit;
}

// Supervises the released agent until it has exited and stops what it left behind.
AttemptResult supervise(LaunchContext& context, const LaunchPlan& plan, HeldChild& child,
                        Containment& containment, WorkerSession& session) {
  const LaunchOptions& options = context.options;
  AttemptResult attempt;
  attempt.pid = child.pid;
  SupervisorOptions supervision;
  supervision.grace = options.grace;
  supervision.drain = options.drain;
  supervision.leave_children = options.leave_children;
  supervision.tail_bytes = options.tail_bytes;
  supervision.watch = session.watch();
  supervision.stdout_observer = session.stdout_observer();
  supervision.drain_on_stop_signals = context.sessions.has_value();
  supervision.log = context.notice;
  supervision.on_drain_timeout = [&](int sig) {
    context.notice(drain_timeout_notice(options.session.session_key, sig));
    context.update_session(plan.session_id, [&](SessionState& state) {
      mark_drain_timeout(state, sig, options.session.max_restarts, utc_timestamp_now());
    });
  };
  supervision.stop_on_output_closed = options.stop_on_output_closed;
  supervision.spool_output = [&](const char* stream) {
    return spool_output(context, child.pid, stream, attempt.output_spool);
  };
  if (context.final_stdout) {
    supervision.stdout_sink = [&context](const char* data, std::size_t size) {
      context.final_stdout->append(data, size);
    };
  }
  const AgentExit exit = supervise_agent(child, context.router, supervision);
  session.finish();
  attempt.session_id = session.session_id();
  if (!options.leave_children) {
    // Processes that left the agent's group: in the cgroup, or (without one) anywhere,
    // but then only while the wrapper, their subreaper, still has a child.
    const ContainedStop left =
        stop_contained(containment, options.grace, std::chrono::seconds(5), &reap_exited_children,
                       containment.cgroup.empty() && has_children());
    if (left.found > 0) context.notice("stopped processes the agent left outside its group");
  } else {
    remove_containment(containment);  // only when empty: the children it left stay in it
  }
  attempt.exit_code = exit_code_of(exit.status);
  attempt.output_tail = exit.output_tail;
  attempt.completion_seen = exit.completion_seen;
  attempt.ended_by_signal = exit.forwarded_signal != 0 || exit.drain_signal != 0;
  attempt.outside_signal = exit.outside_signal;
  attempt.kill_reason = kill_reason_of(exit);
  if (exit.completion_seen) attempt.exit_code = 0;
  if (exit.drain_timed_out) attempt.exit_code = exit_status::of_signal(exit.drain_signal);
  // Only another launch of the member or `launch-wrapper stop` removes or replaces the
  // record of a live agent, so when it no longer names ours, ours was superseded.
  if (context.registry && !record_names(*context.registry, child.pid)) {
    attempt.kill_reason = KillReason::superseded;
  }
  if (attempt.exit_code == 0) context.update_session(plan.session_id, mark_success);
  return attempt;
}

}  // namespace

LaunchContext::LaunchContext(const LaunchOptions& launch_options, LaunchNotice launch_notice)
    : options(launch_options),
      notice(std::move(launch_notice)),
      parent(launch_options.parent != 0 ? launch_options.parent : ::getppid()),
      guardian(launch_options.announce == AnnounceMode::wrapper ? std::make_unique<LaunchGuardian>()
                                                                : nullptr) {
  if (options.command.empty())
    throw Error("no command given: launch-wrapper [OPTIONS] [--] COMMAND [ARGS...]");
  if (!options.member.empty() || options.provenance.record ||
      !options.session.session_key.empty()) {
    state_dir = resolve_state_dir(options.state_dir, "");
  }
  if (!options.member.empty()) registry.emplace(state_dir, options.member);
  if (!options.session.session_key.empty())
    sessions.emplace(state_dir, options.session.session_key);
  if (options.provenance.record) {
    caller = options.provenance.caller_session_id.empty() ? env_value("CLAUDE_CODE_SESSION_ID")
                                                          : options.provenance.caller_session_id;
  }
}

ProvenanceRecord LaunchContext::provenance_record(const std::string& session_id) const {
  const ProvenanceOptions& p = options.provenance;
  return build_record({session_id, caller, p.kitchen_id, p.dispatch_id, p.recipe_name, p.step_name,
                       "", std::string(options.agent->name)});
}

void LaunchContext::update_session(const std::string& session_id,
                                   const std::function<void(SessionState&)>& change) {
  if (!sessions) return;
  UniqueFd lock = sessions->lock();
  SessionState state = sessions->read().value_or(SessionState{});
  state.session_key = options.session.session_key;
  if (state.session_id.empty()) state.session_id = session_id;
  change(state);
  sessions->write(state);
  final_state = state.state;
}

std::optional<FinalStdout> LaunchContext::deliver_final_stdout() {
  if (options.stdout_mode != StdoutMode::final_attempt) return std::nullopt;
  FinalStdout result;
  result.attempt = final_stdout_attempt;
  if (!final_stdout_moved_to.empty()) {
    result.delivery.problem =
        "the launcher's end of stdout closed; the final attempt's stdout went to " +
        final_stdout_moved_to;
  } else if (final_stdout) {
    result.delivery = final_stdout->deliver(STDOUT_FILENO);
    if (result.delivery.problem) notice(*result.delivery.problem);
  }
  final_stdout.reset();
  final_stdout_moved_to.clear();
  return result;
}

void LaunchContext::release_record() {
  if (!registry || recorded_pid == 0) return;
  UniqueFd lock = registry->lock();
  const RegistryRead read = registry->read();
  if (read.status == RegistryRead::Status::ok && read.record.process.pid == recorded_pid)
    registry->remove();
  recorded_pid = 0;
}

namespace {

// Step 1-2: under the member's lock, stops its previous agent (the first attempt) or checks
// that the record still names this launch's previous agent (a retry). False when a newer
// launch or a stop superseded this one while it waited.
bool serialize_with_member(LaunchContext& context, std::optional<UniqueFd>& member_lock) {
  const LaunchOptions& options = context.options;
  if (!context.registry) return true;
  member_lock = context.registry->lock();
  if (context.recorded_pid != 0) {
    const RegistryRead read = context.registry->read();
    if (read.status != RegistryRead::Status::ok ||
        read.record.process.pid != context.recorded_pid) {
      context.recorded_pid = 0;
      return false;
    }
    return true;
  }
  const AgentStop previous = stop_recorded_agent(*context.registry, options.grace);
  if (previous.outcome != AgentStop::Outcome::no_record) {
    context.notice("previous agent of member " + options.member + ": " + previous.message);
  }
  if (previous.outcome == AgentStop::Outcome::failed) {
    throw Error("the previous agent of member " + options.member + " could not be stopped");
  }
  return true;
}

// Step 3: the agent created held, in its containment, with `environment` added.
HeldChild start_held(LaunchContext& context, const LaunchPlan& plan, Containment& containment,
                     std::vector<std::string> environment) {
  const LaunchOptions& options = context.options;
  environment.push_back(containment_environment_entry(containment));
  HeldChild child;
  try {
    const UniqueFd cgroup(open_containment_directory(containment));
    child = spawn_held(plan.command, environment_with(environment), context.router.original_mask(),
                       context.router.sigpipe_was_ignored(),
                       options.announce == AnnounceMode::wrapper, cgroup ? cgroup.get() : -1);
    if (!child.in_cgroup)
      enter_containment(containment, child.pid, options.containment == ContainmentMode::cgroup);
    if (context.guardian) context.guardian->watch(containment);
  } catch (const Error&) {
    if (child.pid > 0) {
      abort_child(child);
      wait_child(child.pid);
    }
    remove_containment(containment);
    throw;
  }
  return child;
}

// Steps 4-5: the member's record, the worker's ownership record and the resume boundary, then
// the announce line (recorded first, so whoever reads the line can rely on the records).
void record_and_announce(LaunchContext& context, const LaunchPlan& plan, const HeldChild& child,
                         const Containment& containment, WorkerSession& session, int number) {
  const LaunchOptions& options = context.options;
  if (context.registry) {
    const auto identity = identify_process(child.pid);
    if (!identity) throw Error("the agent process vanished before it was released");
    context.registry->write({options.member, *identity, child.pid, plan.session_id,
                             utc_timestamp_now(), plan.command, containment});
    context.recorded_pid = child.pid;
  }
  const bool record =
      options.provenance.record && plan.resume_id.empty() && !context.provenance_written;
  if (session.record_and_mark_boundary(record)) context.provenance_written = true;
  if (options.announce == AnnounceMode::agent || !context.announced) {
    const pid_t named = options.announce == AnnounceMode::agent ? child.pid : ::getpid();
    write_all(STDOUT_FILENO, options.announce_prefix + std::to_string(named) + "\n", "stdout");
    context.announced = true;
  }
  if (options.announce == AnnounceMode::wrapper) {
    context.notice("attempt " + std::to_string(number) + ": agent pid " +
                   std::to_string(child.pid));
  }
}

// Releases the held agent; what the attempt came to when it never ran (a stop that arrived
// while it was prepared, an exec that failed), else nullopt. Signals that arrived meanwhile
// are passed on to it.
std::optional<AttemptResult> release(LaunchContext& context, const LaunchPlan& plan,
                                     HeldChild& child, Containment& containment) {
  AttemptResult attempt;
  attempt.pid = child.pid;
  std::vector<int> pending;
  for (int sig; (sig = context.router.next()) != 0;) pending.push_back(sig);
  for (int sig : pending) {
    if (!is_stop_signal(sig)) continue;
    abort_child(child);  // the child exits 125 without running the command
    wait_child(child.pid);
    remove_containment(containment);
    attempt.exit_code = exit_status::of_signal(sig);
    attempt.ended_by_signal = true;
    attempt.kill_reason = KillReason::signal;
    return attempt;
  }
  if (const std::optional<ExecFailure> failed = release_child(child)) {
    context.notice("cannot run '" + plan.command.front() + "': " + failed->reason());
    wait_child(child.pid);
    remove_containment(containment);
    attempt.exit_code = failed->exit_status();
    attempt.kill_reason = KillReason::exec_failed;
    return attempt;
  }
  for (int sig : pending) {
    if (sig != SIGCHLD) ::kill(-child.pid, sig);
  }
  return std::nullopt;
}

// What the attempt's worker session needs from the launch.
WorkerSession::Launch worker_launch(LaunchContext& context, const LaunchPlan& plan) {
  return {context.options,
          plan,
          context.state_dir,
          [&context](const std::string& id) { return context.provenance_record(id); },
          context.notice,
          [&context](const std::string& id) {
            // A captured id: the keyed session names it at once.
            context.update_session(id, [&id](SessionState& state) { state.session_id = id; });
          }};
}

}  // namespace

std::optional<AttemptResult> run_attempt(LaunchContext& context, const LaunchPlan& plan,
                                         int number) {
  const LaunchOptions& options = context.options;
  std::optional<UniqueFd> member_lock;
  if (!serialize_with_member(context, member_lock)) return std::nullopt;
  if (options.stdout_mode == StdoutMode::final_attempt) {
    context.final_stdout.emplace(options.stdout_limit);  // the previous attempt's is dropped
    context.final_stdout_attempt = static_cast<unsigned>(number);
    context.final_stdout_moved_to.clear();
  }
  WorkerSession session(worker_launch(context, plan));
  std::vector<std::string> environment = plan.environment;
  for (std::string& entry : session.prepare()) environment.push_back(std::move(entry));
  Containment containment = create_containment(containment_mode(options));
  HeldChild child = start_held(context, plan, containment, std::move(environment));
  record_and_announce(context, plan, child, containment, session, number);
  member_lock.reset();
  if (std::optional<AttemptResult> never_ran = release(context, plan, child, containment))
    return never_ran;
  return supervise(context, plan, child, containment, session);
}

}  // namespace fleet
