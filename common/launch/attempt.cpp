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
#include "launch/agent_supervisor.h"
#include "launch/worker_session.h"
#include "process/cgroup_v2.h"
#include "process/child_process.h"

namespace fleet {
namespace {

// "PWD=<the working directory>" when $PWD does not name it (unset, or another directory: a
// launcher that started this process elsewhere without updating it); nullopt when it does,
// through a symlink too (kept, as a shell keeps it). A CLI that takes its project from $PWD
// rather than from its working directory (OpenCode 1.18.33) would otherwise open another one.
std::optional<std::string> corrected_pwd_entry() {
  const std::string cwd = current_directory();
  const std::string inherited = env_value("PWD");
  if (!inherited.empty() && real_path(inherited) == real_path(cwd)) return std::nullopt;
  return "PWD=" + cwd;
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return exit_status::of_signal(WTERMSIG(status));
  return exit_status::wrapper_failure;
}

bool has_children() {
  siginfo_t info{};
  return ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

// Children left on purpose would keep a cgroup forever: --leave-children uses the token.
ContainmentMode containment_mode(const LaunchOptions& options) {
  return options.leave_children && options.containment == ContainmentMode::automatic
             ? ContainmentMode::token
             : options.containment;
}

// The launch's guardian (guardian.h): with --announce wrapper one that stops the launch when
// the wrapper dies; else, where the launch will have a cgroup (one can be made below the
// wrapper's own), one that removes it once empty; else none.
std::unique_ptr<LaunchGuardian> guardian_for(const LaunchOptions& options) {
  if (options.announce == AnnounceMode::wrapper)
    return std::make_unique<LaunchGuardian>(LaunchGuardian::Duty::stop);
  if (containment_mode(options) == ContainmentMode::token) return nullptr;
  const std::optional<std::string> own = own_cgroup_directory();
  if (!own || ::access(own->c_str(), W_OK) != 0) return nullptr;
  return std::make_unique<LaunchGuardian>(LaunchGuardian::Duty::tidy);
}

KillReason kill_reason_of(const AgentExit& exit) {
  return exit.stopped_after_completion ? KillReason::completed_then_stopped
         : exit.drain_timed_out        ? KillReason::drain_timeout
         : exit.forwarded_signal != 0  ? KillReason::signal
         : exit.output_closed          ? KillReason::output_closed
         : exit.outside_signal != 0    ? KillReason::killed
                                       : KillReason::natural_exit;
}

// The launch needs a command before anything is opened or recorded.
const LaunchOptions& with_command(const LaunchOptions& options) {
  if (options.command.empty())
    throw Error("no command given: launch-wrapper [OPTIONS] [--] COMMAND [ARGS...]");
  return options;
}

// One attempt of a launch, step by step (doc/launch-wrapper.md, steps 1-7).
class Attempt {
 public:
  Attempt(Launch& launch, const LaunchPlan& plan, int number)
      : launch_(launch), options_(launch.options()), plan_(plan), number_(number) {}

  std::optional<AttemptResult> run();

 private:
  WorkerSession::Launch worker_launch();
  void start_held(std::vector<std::string> environment);
  void record_and_announce();
  std::optional<AttemptResult> release();
  AttemptResult supervise();
  SupervisorOptions supervision(AttemptResult& attempt);
  void stop_left_behind();
  AttemptResult result_of(const AgentExit& exit, AttemptResult attempt);
  int spool_output(const char* stream, std::string& spool_path);

  Launch& launch_;
  const LaunchOptions& options_;
  const LaunchPlan& plan_;
  const int number_;
  UniqueFd member_lock_;  // held from step 1 until the agent is recorded
  std::optional<WorkerSession> session_;
  Containment containment_;
  HeldChild child_;
};

std::optional<AttemptResult> Attempt::run() {
  LaunchRecords& records = launch_.records();
  // Steps 1-2: under the member's lock, stops its previous agent (the first attempt) or
  // checks that the record still names this launch's previous agent (a retry).
  member_lock_ = records.lock_member();
  if (records.superseded()) return std::nullopt;
  records.stop_previous_agent(launch_.notice());
  launch_.final_stdout().start(static_cast<unsigned>(number_));
  session_.emplace(worker_launch());
  std::vector<std::string> environment = plan_.environment;
  for (std::string& entry : session_->prepare()) environment.push_back(std::move(entry));
  if (std::optional<std::string> pwd = corrected_pwd_entry()) environment.push_back(*pwd);
  containment_ = create_containment(containment_mode(options_));
  launch_.guard(containment_);  // from the moment its cgroup exists
  start_held(std::move(environment));
  record_and_announce();
  member_lock_ = UniqueFd();
  if (std::optional<AttemptResult> never_ran = release()) return never_ran;
  return supervise();
}

// What the attempt's worker session needs from the launch.
WorkerSession::Launch Attempt::worker_launch() {
  LaunchRecords& records = launch_.records();
  return {options_,
          plan_,
          records.state_dir(),
          [&records](const std::string& id) { return records.provenance_record(id); },
          launch_.notice(),
          [&records](const std::string& id) {
            // A captured id: the keyed session names it at once.
            records.update_session(id, [&id](SessionState& state) { state.session_id = id; });
          }};
}

// Step 3: the agent created held, in its containment, with `environment` added.
void Attempt::start_held(std::vector<std::string> environment) {
  environment.push_back(containment_environment_entry(containment_));
  SignalRouter& router = launch_.router();
  try {
    const UniqueFd cgroup(open_containment_directory(containment_));
    child_ = spawn_held(plan_.command, environment_with(environment), router.original_mask(),
                        &router.child_default_signals(), options_.announce == AnnounceMode::wrapper,
                        cgroup ? cgroup.get() : -1);
    if (!child_.in_cgroup) {
      enter_containment(containment_, child_.pid, options_.containment == ContainmentMode::cgroup);
      launch_.guard(containment_);  // without the cgroup, when the agent could not enter it
    }
  } catch (const Error&) {
    if (child_.pid > 0) {
      abort_child(child_);
      wait_child(child_.pid);
    }
    remove_containment(containment_);
    throw;
  }
}

// Steps 4-5: the member's record, the worker's ownership record and the resume boundary,
// then the announce line (recorded first, so whoever reads the line can rely on the records).
void Attempt::record_and_announce() {
  LaunchRecords& records = launch_.records();
  records.record_agent(child_.pid, plan_, containment_);
  if (session_->record_and_mark_boundary(records.owes_provenance(plan_)))
    records.provenance_written();
  records.announce(child_.pid);
  if (options_.announce == AnnounceMode::wrapper) {
    launch_.notice()("attempt " + std::to_string(number_) + ": agent pid " +
                     std::to_string(child_.pid));
  }
}

// Releases the held agent; what the attempt came to when it never ran (a stop that arrived
// while it was prepared, an exec that failed), else nullopt. Signals that arrived meanwhile
// are passed on to it.
std::optional<AttemptResult> Attempt::release() {
  AttemptResult attempt;
  attempt.pid = child_.pid;
  std::vector<int> pending;
  for (int sig; (sig = launch_.router().next()) != 0;) pending.push_back(sig);
  for (int sig : pending) {
    if (!is_stop_signal(sig)) continue;
    abort_child(child_);  // the child exits 125 without running the command
    wait_child(child_.pid);
    remove_containment(containment_);
    attempt.exit_code = exit_status::of_signal(sig);
    attempt.ended_by_signal = true;
    attempt.kill_reason = KillReason::signal;
    return attempt;
  }
  if (const std::optional<ExecFailure> failed = release_child(child_)) {
    launch_.notice()("cannot run '" + plan_.command.front() + "': " + failed->reason());
    wait_child(child_.pid);
    remove_containment(containment_);
    attempt.exit_code = failed->exit_status();
    attempt.kill_reason = KillReason::exec_failed;
    return attempt;
  }
  for (int sig : pending) {
    if (sig != SIGCHLD) ::kill(-child_.pid, sig);
  }
  return std::nullopt;
}

// Steps 6-7: supervises the released agent until it has exited and stops what it left
// behind.
AttemptResult Attempt::supervise() {
  AttemptResult attempt;
  attempt.pid = child_.pid;
  const AgentExit exit = supervise_agent(child_, launch_.router(), supervision(attempt));
  session_->finish();
  attempt.session_id = session_->session_id();
  stop_left_behind();
  return result_of(exit, std::move(attempt));
}

// How the agent is supervised; `attempt` gets the output spool's path.
SupervisorOptions Attempt::supervision(AttemptResult& attempt) {
  LaunchRecords& records = launch_.records();
  SupervisorOptions supervision;
  supervision.grace = options_.grace;
  supervision.drain = options_.drain;
  supervision.leave_children = options_.leave_children;
  supervision.tail_bytes = options_.tail_bytes;
  supervision.watch = session_->watch();
  supervision.stdout_observer = session_->stdout_observer();
  supervision.drain_on_stop_signals = records.keyed();
  supervision.log = launch_.notice();
  supervision.on_drain_timeout = [this, &records](int sig) {
    launch_.notice()(drain_timeout_notice(options_.session.session_key, sig));
    records.update_session(plan_.session_id, [&](SessionState& state) {
      mark_drain_timeout(state, sig, options_.session.max_restarts, utc_timestamp_now());
    });
  };
  supervision.stop_on_output_closed = options_.stop_on_output_closed;
  supervision.spool_output = [this, &attempt](const char* stream) {
    return spool_output(stream, attempt.output_spool);
  };
  if (launch_.final_stdout().keeping()) {
    supervision.stdout_sink = [this](const char* data, std::size_t size) {
      launch_.final_stdout().keep(data, size);
    };
  }
  return supervision;
}

// Step 7: the processes that left the agent's group.
void Attempt::stop_left_behind() {
  if (options_.leave_children) {
    remove_containment(containment_);  // only when empty: the children it left stay in it
    return;
  }
  // In the cgroup, or (without one) anywhere: where the wrapper is their subreaper (Linux),
  // only while it still has a child; where orphans go elsewhere (macOS), always.
  const bool search_environments =
      containment_.cgroup.empty() && (!SignalRouter::adopts_orphans() || has_children());
  const ContainedStop left = stop_contained(containment_, options_.grace, std::chrono::seconds(5),
                                            &reap_exited_children, search_environments);
  if (left.found > 0) launch_.notice()("stopped processes the agent left outside its group");
}

// What the attempt came to, from how the agent exited.
AttemptResult Attempt::result_of(const AgentExit& exit, AttemptResult attempt) {
  attempt.exit_code = exit_code_of(exit.status);
  attempt.stdout_tail = exit.stdout_tail;
  attempt.stderr_tail = exit.stderr_tail;
  attempt.completion_seen = exit.completion_seen;
  attempt.ended_by_signal = exit.forwarded_signal != 0 || exit.drain_signal != 0;
  attempt.outside_signal = exit.outside_signal;
  attempt.kill_reason = kill_reason_of(exit);
  if (exit.completion_seen) attempt.exit_code = 0;
  if (exit.drain_timed_out) attempt.exit_code = exit_status::of_signal(exit.drain_signal);
  // Only another launch of the member or `launch-wrapper stop` removes or replaces the
  // record of a live agent, so when it no longer names ours, ours was superseded.
  if (!launch_.records().names(child_.pid)) attempt.kill_reason = KillReason::superseded;
  if (attempt.exit_code == 0) launch_.records().update_session(plan_.session_id, mark_success);
  return attempt;
}

// The launcher's end of our `stream` ("out"/"err") closed: opens
// <state dir>/output/<member or "agent">-<pid>.<stream> for the agent's output to go on
// to, records it for `status`, and returns its descriptor (-1 when it cannot be opened:
// the agent is stopped then, as nobody could read its output).
int Attempt::spool_output(const char* stream, std::string& spool_path) {
  const std::string state_dir = launch_.records().state_dir();
  const bool out = std::string(stream) == "out";
  try {
    const std::string directory =
        (state_dir.empty() ? resolve_state_dir(options_.state_dir, "") : state_dir) + "/output";
    ensure_directory(directory);
    const std::string path = directory + "/" +
                             (options_.member.empty() ? std::string("agent") : options_.member) +
                             "-" + std::to_string(child_.pid) + "." + stream;
    const int fd = launch_.keep_open(open_regular_file(path, O_WRONLY | O_CREAT | O_APPEND, 0600));
    if (spool_path.empty() || out) spool_path = path;
    if (out) launch_.final_stdout().hand_over(fd, path);
    launch_.notice()("the launcher's end of std" + std::string(stream) +
                     " closed; the agent runs on, its output goes to " + path);
    launch_.records().record_output_spool(child_.pid, stream, path);
    return fd;
  } catch (const Error& e) {
    launch_.notice()(std::string("cannot spool the agent's output: ") + e.what() +
                     "; stopping the agent");
    return -1;
  }
}

}  // namespace

Launch::Launch(const LaunchOptions& options, LaunchNotice notice)
    : options_(options),
      notice_(std::move(notice)),
      parent_(options.parent != 0 ? options.parent : ::getppid()),
      guardian_(guardian_for(options)),
      records_(with_command(options)),
      final_stdout_(options, notice_) {}

void Launch::guard(const Containment& containment) {
  if (guardian_) guardian_->watch(containment);
}

int Launch::keep_open(UniqueFd spool) {
  spools_.push_back(std::move(spool));
  return spools_.back().get();
}

std::optional<AttemptResult> Launch::run_attempt(const LaunchPlan& plan, int number) {
  return Attempt(*this, plan, number).run();
}

}  // namespace fleet
