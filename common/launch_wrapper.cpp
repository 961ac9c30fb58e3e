#include "launch_wrapper.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <memory>
#include <optional>

#include "agent_control.h"
#include "agent_supervisor.h"
#include "child_process.h"
#include "command_line.h"
#include "error.h"
#include "error_class.h"
#include "ids.h"
#include "launch_guardian.h"
#include "launch_registry.h"
#include "launch_summary.h"
#include "paths.h"
#include "provenance_store.h"
#include "session_state.h"
#include "signal_router.h"
#include "timestamp.h"
#include "transcript_watch.h"

namespace fleet {
namespace {

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return exit_status::of_signal(WTERMSIG(status));
  return exit_status::wrapper_failure;
}

std::string signal_name(int sig) {
  const char* abbreviation = ::sigabbrev_np(sig);
  return abbreviation != nullptr ? std::string("SIG") + abbreviation : std::to_string(sig);
}

void log_line(const std::string& line) {
  const std::string text = "launch-wrapper: " + line + "\n";
  (void)!::write(STDERR_FILENO, text.data(), text.size());
}

std::string current_directory() {
  char buffer[4096];
  if (::getcwd(buffer, sizeof buffer) == nullptr) throw_errno("cannot read the working directory");
  return buffer;
}

// What one start of the agent came to.
struct Attempt {
  pid_t pid = 0;
  int exit_code = 0;
  bool ended_by_signal = false;  // a stop signal to the wrapper ended it (no retry)
  bool superseded = false;       // another launch of the member replaced this agent
  bool completion_seen = false;
  bool drain_timed_out = false;
  int outside_signal = 0;  // a signal the wrapper did not send ended the agent
  bool output_closed = false;
  std::string output_spool;
  std::string kill_reason;  // natural_exit, completed_then_stopped, signal, killed,
                            // drain_timeout, superseded, exec_failed
  std::string output_tail;
};

class Launcher {
 public:
  explicit Launcher(const LaunchOptions& options) : options_(options) { prepare(); }

  int run() {
    std::vector<std::string> command = command_;
    bool fresh_retry_done = false;
    for (int number = 1;; ++number) {
      const Attempt attempt = start(command);
      attempts_.push_back(attempt);
      const int code = attempt.exit_code;
      if (code == 0 || attempt.ended_by_signal || attempt.superseded ||
          attempt.outside_signal != 0 || attempt.output_closed ||
          attempt.kill_reason == "exec_failed" || number > options_.retries) {
        return finish(code);
      }
      if (::getppid() != parent_) {
        log_line("attempt " + std::to_string(number) +
                 " failed and the wrapper's parent is gone: no retry");
        return finish(code);
      }
      const ErrorClass failure = classify_failure(attempt.output_tail);
      classes_.push_back(error_class_name(failure));
      if (failure == ErrorClass::stale_session && !fresh_retry_done && resumes(command)) {
        fresh_retry_done = true;
        command = without_resume(command);
        resume_id_.clear();
        session_id_.clear();
        if (options_.assign_session_id) assign_session_id(command);
        log_line("attempt " + std::to_string(number) +
                 " failed: the resumed session no longer exists; retrying as a fresh session");
        continue;
      }
      if (failure != ErrorClass::retryable) return finish(code);
      const double delay = options_.backoff_seconds * std::pow(2.0, number - 1);
      log_line("attempt " + std::to_string(number) + " failed with a retryable error (exit " +
               std::to_string(code) + "); retrying in " + seconds_text(delay));
      const int sig = router_.sleep(delay);
      if (sig == 0 && ::getppid() != parent_) {
        log_line("the wrapper's parent is gone: no retry");
        return finish(code);
      }
      if (sig != 0) {
        Attempt interrupted;
        interrupted.exit_code = exit_status::of_signal(sig);
        interrupted.kill_reason = "signal";
        attempts_.push_back(interrupted);
        return finish(exit_status::of_signal(sig));
      }
    }
  }

 private:
  void prepare() {
    if (options_.command.empty())
      throw Error("no command given: launch-wrapper [OPTIONS] [--] COMMAND [ARGS...]");
    command_ = options_.command;
    if (!options_.member.empty() || options_.record_provenance || !options_.session_key.empty()) {
      state_dir_ = resolve_state_dir(options_.state_dir, "");
    }
    if (!options_.member.empty()) registry_.emplace(state_dir_, options_.member);
    resume_id_ = option_value(command_, "--resume", "-r").value_or("");
    session_id_ = options_.session_id;
    if (session_id_.empty()) session_id_ = option_value(command_, "--session-id").value_or("");
    if (session_id_.empty()) session_id_ = resume_id_;
    if (!options_.session_key.empty()) apply_session_state();
    if (options_.assign_session_id && session_id_.empty()) assign_session_id(command_);
    if (options_.record_provenance) {
      caller_ = options_.caller_session_id.empty() ? env_value("CLAUDE_CODE_SESSION_ID")
                                                   : options_.caller_session_id;
      if (caller_.empty()) {
        throw Error(
            "--record-provenance needs the caller: pass --caller-session-id, or run "
            "where CLAUDE_CODE_SESSION_ID is set");
      }
      if (session_id_.empty()) {
        throw Error(
            "--record-provenance needs the session id: pass --session-id or "
            "--assign-session-id");
      }
      const std::string problem = record_problem(provenance_record());
      if (!problem.empty()) throw Error(problem);
    }
    if (!options_.completion_marker.empty() && options_.session_log.empty() &&
        session_id_.empty()) {
      throw Error(
          "--completion-marker needs the transcript: pass --session-log, --session-id or "
          "--assign-session-id");
    }
    if (!session_id_.empty() && !is_valid_id(session_id_))
      throw Error(*id_problem("session id", session_id_));
  }

  // --session-key: resume a session whose last run was cut short, unless it is stuck.
  void apply_session_state() {
    sessions_.emplace(state_dir_, options_.session_key);
    UniqueFd lock = sessions_->lock();
    const std::optional<SessionState> recorded = sessions_->read();
    const LaunchPlan plan = plan_launch(recorded);
    SessionState state = recorded.value_or(SessionState{});
    state.session_key = options_.session_key;
    switch (plan.kind) {
      case LaunchPlan::Kind::resume: {
        const std::string note = resume_note(plan.resume_reason, plan.resume_id);
        command_ = without_option(without_resume(command_), "--session-id");
        if (!options_.resume_note_arg.empty())
          command_ = with_option(command_, options_.resume_note_arg, note);
        command_ = with_option(command_, "--resume", plan.resume_id);
        resume_id_ = session_id_ = plan.resume_id;
        environment_ = {"FLEET_RESUME_REASON=" + plan.resume_reason, "FLEET_RESUME_NOTE=" + note};
        log_line("session " + options_.session_key + " resumes " + plan.resume_id + " (" +
                 plan.resume_reason + ")");
        break;
      }
      case LaunchPlan::Kind::fresh_after_suspension:
        log_line("session " + options_.session_key + " is suspended after " +
                 std::to_string(state.restart_failure_count) +
                 " interrupted restarts; starting a fresh session instead of resuming " +
                 state.session_id);
        command_ = without_resume(command_);
        resume_id_.clear();
        assign_session_id(command_);
        state = SessionState{};
        state.session_key = options_.session_key;
        break;
      case LaunchPlan::Kind::fresh:
        break;
    }
    if (plan.kind != LaunchPlan::Kind::resume) {
      if (options_.assign_session_id && session_id_.empty()) assign_session_id(command_);
      state.session_id = session_id_;
      state.state = "active";
      state.resume_reason.clear();
    }
    sessions_->write(state);
  }

  void update_session(const std::function<void(SessionState&)>& change) {
    if (!sessions_) return;
    UniqueFd lock = sessions_->lock();
    SessionState state = sessions_->read().value_or(SessionState{});
    state.session_key = options_.session_key;
    if (state.session_id.empty()) state.session_id = session_id_;
    change(state);
    sessions_->write(state);
    final_state_ = state.state;
  }

  static bool resumes(const std::vector<std::string>& command) {
    return option_value(command, "--resume", "-r").has_value() ||
           without_resume(command).size() != command.size();
  }

  void assign_session_id(std::vector<std::string>& command) {
    session_id_ = new_uuid_v4();
    command = with_option(without_option(command, "--session-id"), "--session-id", session_id_);
  }

  ProvenanceRecord provenance_record() const {
    return {session_id_,
            caller_,
            resolve_kitchen_id(options_.kitchen_id),
            options_.dispatch_id,
            options_.recipe_name,
            options_.step_name,
            utc_timestamp_now()};
  }

  std::unique_ptr<TranscriptWatch> make_watch() const {
    if (options_.completion_marker.empty()) return nullptr;
    const std::string path = options_.session_log.empty()
                                 ? transcript_path(session_id_, current_directory())
                                 : options_.session_log;
    return std::make_unique<TranscriptWatch>(
        path,
        MarkerRule{options_.completion_marker, options_.record_type, options_.marker_anywhere},
        options_.poll_interval, options_.use_inotify);
  }

  // Starts the agent once and supervises it until it has exited.
  Attempt start(const std::vector<std::string>& command) {
    Attempt attempt;
    std::optional<UniqueFd> member_lock;
    if (registry_) {
      member_lock = registry_->lock();
      const AgentStop previous = stop_recorded_agent(*registry_, options_.grace);
      if (previous.outcome != AgentStop::Outcome::no_record) {
        log_line("previous agent of member " + options_.member + ": " + previous.message);
      }
      if (previous.outcome == AgentStop::Outcome::failed) {
        throw Error("the previous agent of member " + options_.member + " could not be stopped");
      }
    }
    // Children left on purpose would keep a cgroup forever: --leave-children uses the token.
    Containment containment = create_containment(
        options_.leave_children && options_.containment == ContainmentMode::automatic
            ? ContainmentMode::token
            : options_.containment);
    std::vector<std::string> environment = environment_;
    environment.push_back(containment_environment_entry(containment));
    HeldChild child;
    try {
      const UniqueFd cgroup(open_containment_directory(containment));
      child = spawn_held(command, environment_with(environment), router_.original_mask(),
                         router_.sigpipe_was_ignored(), options_.announce == AnnounceMode::wrapper,
                         cgroup ? cgroup.get() : -1);
      if (!child.in_cgroup)
        enter_containment(containment, child.pid, options_.containment == ContainmentMode::cgroup);
      if (guardian_) guardian_->watch(containment);
    } catch (const Error&) {
      if (child.pid > 0) {
        child.release.reset();
        wait_child(child.pid);
      }
      remove_containment(containment);
      throw;
    }
    attempt.pid = child.pid;
    // Recorded first, so whoever reads the announce line can rely on the record.
    if (registry_) {
      const auto identity = identify_process(child.pid);
      if (!identity) throw Error("the agent process vanished before it was released");
      registry_->write({options_.member, *identity, child.pid, session_id_, utc_timestamp_now(),
                        command, containment});
    }
    if (options_.record_provenance && resume_id_.empty() && !provenance_written_ &&
        !session_id_.empty()) {
      const std::string warning = append_record(provenance_store_path(state_dir_),
                                                provenance_record(), {.fsync = options_.fsync});
      if (!warning.empty()) log_line("warning: " + warning);
      provenance_written_ = true;
    }
    // The resume boundary: what the transcript holds before the agent can write to it.
    std::unique_ptr<TranscriptWatch> watch = make_watch();
    if (watch) watch->mark_boundary();
    if (options_.announce == AnnounceMode::agent || !announced_) {
      const pid_t named = options_.announce == AnnounceMode::agent ? child.pid : ::getpid();
      write_all(STDOUT_FILENO, options_.announce_prefix + std::to_string(named) + "\n", "stdout");
      announced_ = true;
    }
    if (options_.announce == AnnounceMode::wrapper) {
      log_line("attempt " + std::to_string(attempts_.size() + 1) + ": agent pid " +
               std::to_string(child.pid));
    }
    member_lock.reset();

    // A request to stop that arrived while we prepared: do not start the agent at all.
    std::vector<int> pending;
    for (int sig; (sig = router_.next()) != 0;) pending.push_back(sig);
    for (int sig : pending) {
      if (!is_stop_signal(sig)) continue;
      child.release.reset();  // the child exits 125 without running the command
      wait_child(child.pid);
      forget(child.pid);
      remove_containment(containment);
      attempt.exit_code = exit_status::of_signal(sig);
      attempt.ended_by_signal = true;
      attempt.kill_reason = "signal";
      return attempt;
    }
    if (const int error = release_child(child); error != 0) {
      log_line("cannot run '" + command.front() + "': " + std::strerror(error));
      wait_child(child.pid);
      forget(child.pid);
      remove_containment(containment);
      attempt.exit_code = exec_failure_exit_code(error);
      attempt.kill_reason = "exec_failed";
      return attempt;
    }
    for (int sig : pending) {
      if (sig != SIGCHLD) ::kill(-child.pid, sig);
    }

    SupervisorOptions supervision;
    supervision.grace = options_.grace;
    supervision.drain = options_.drain;
    supervision.leave_children = options_.leave_children;
    supervision.tail_bytes = options_.tail_bytes;
    supervision.watch = watch.get();
    supervision.drain_on_stop_signals = sessions_.has_value();
    supervision.log = log_line;
    supervision.on_drain_timeout = [this](int sig) {
      const std::string reason = sig == SIGUSR1 ? "restart_timeout" : "shutdown_timeout";
      log_line("the agent did not finish within the drain; session " + options_.session_key +
               " is marked for resume (" + reason + ")");
      update_session([&](SessionState& state) {
        mark_drain_timeout(state, reason, options_.max_restarts, utc_timestamp_now());
      });
    };
    supervision.stop_on_output_closed = options_.stop_on_output_closed;
    supervision.spool_output = [&](const char* stream) {
      return spool_output(child.pid, stream, attempt.output_spool);
    };
    const AgentExit exit = supervise_agent(child, router_, supervision);
    attempt.output_closed = exit.output_closed;
    if (!options_.leave_children) {
      // Processes that left the agent's group: in the cgroup, or (without one) anywhere,
      // but then only while the wrapper, their subreaper, still has a child.
      const ContainedStop left =
          stop_contained(containment, options_.grace, std::chrono::seconds(5),
                         &reap_exited_children, containment.cgroup.empty() && has_children());
      if (left.found > 0) log_line("stopped processes the agent left outside its group");
    } else {
      remove_containment(containment);  // only when empty: the children it left stay in it
    }
    attempt.exit_code = exit_code_of(exit.status);
    attempt.output_tail = exit.output_tail;
    attempt.completion_seen = exit.completion_seen;
    attempt.drain_timed_out = exit.drain_timed_out;
    attempt.ended_by_signal = exit.forwarded_signal != 0 || exit.drain_signal != 0;
    attempt.outside_signal = exit.outside_signal;
    attempt.kill_reason = exit.stopped_after_completion ? "completed_then_stopped"
                          : exit.drain_timed_out        ? "drain_timeout"
                          : exit.forwarded_signal != 0  ? "signal"
                          : exit.output_closed          ? "output_closed"
                          : exit.outside_signal != 0    ? "killed"
                                                        : "natural_exit";
    if (exit.completion_seen) attempt.exit_code = 0;
    if (exit.drain_timed_out) attempt.exit_code = exit_status::of_signal(exit.drain_signal);
    attempt.superseded = forget(child.pid);
    if (attempt.superseded) attempt.kill_reason = "superseded";
    if (attempt.exit_code == 0) update_session(mark_success);
    return attempt;
  }

  // Removes the member's record when it still names `pid`. Returns true when it does not:
  // only another launch of the member or `launch-wrapper stop` removes or replaces the
  // record of a live agent, so ours was superseded (and stopped by them).
  bool forget(pid_t pid) const {
    if (!registry_) return false;
    UniqueFd lock = registry_->lock();
    const RegistryRead read = registry_->read();
    if (read.status != RegistryRead::Status::ok || read.record.process.pid != pid) return true;
    registry_->remove();
    return false;
  }

  int finish(int exit_code) {
    LaunchSummary summary;
    summary.member = options_.member;
    summary.session_id = session_id_;
    summary.session_key = options_.session_key;
    summary.session_state = final_state_;
    summary.exit_code = exit_code;
    summary.kill_reason = attempts_.back().kill_reason;
    if (attempts_.back().kill_reason == "killed")
      summary.signal = signal_name(attempts_.back().outside_signal);
    summary.output_spool = attempts_.back().output_spool;
    summary.completion_seen = attempts_.back().completion_seen;
    summary.attempts = static_cast<unsigned>(attempts_.size());
    for (const Attempt& a : attempts_) {
      if (a.pid != 0) summary.pids.push_back(a.pid);
    }
    summary.failure_classes = classes_;
    const std::string line = launch_summary_json(summary);
    if (!options_.quiet) (void)!::write(STDERR_FILENO, line.data(), line.size());
    if (!options_.summary_file.empty()) {
      try {
        replace_file_atomically(options_.summary_file, line, Durability::process_lifetime);
      } catch (const Error& e) {
        log_line(std::string("cannot write the summary file: ") + e.what());
      }
    }
    return exit_code;
  }

  // The launcher's end of our `stream` ("out"/"err") closed: opens
  // <state dir>/output/<member or "agent">-<pid>.<stream> for the agent's output to go on
  // to, records it for `status`, and returns its descriptor (-1 when it cannot be opened:
  // the agent is stopped then, as nobody could read its output).
  int spool_output(pid_t agent, const char* stream, std::string& spool_path) {
    try {
      const std::string directory =
          (state_dir_.empty() ? resolve_state_dir(options_.state_dir, "") : state_dir_) + "/output";
      ensure_directory(directory);
      const std::string path = directory + "/" +
                               (options_.member.empty() ? std::string("agent") : options_.member) +
                               "-" + std::to_string(agent) + "." + stream;
      spools_.push_back(open_regular_file(path, O_WRONLY | O_CREAT | O_APPEND, 0600));
      if (spool_path.empty() || std::string(stream) == "out") spool_path = path;
      log_line("the launcher's end of std" + std::string(stream) +
               " closed; the agent runs on, its output goes to " + path);
      if (registry_) {
        UniqueFd lock = registry_->lock();
        RegistryRead read = registry_->read();
        if (read.status == RegistryRead::Status::ok && read.record.process.pid == agent) {
          if (read.record.output_spool.empty() || std::string(stream) == "out")
            read.record.output_spool = path;
          registry_->write(read.record);
        }
      }
      return spools_.back().get();
    } catch (const Error& e) {
      log_line(std::string("cannot spool the agent's output: ") + e.what() +
               "; stopping the agent");
      return -1;
    }
  }

  static bool has_children() {
    siginfo_t info{};
    return ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0;
  }

  const LaunchOptions& options_;
  const pid_t parent_ = options_.parent != 0 ? options_.parent : ::getppid();
  bool announced_ = false;
  // Before router_: the guardian must be forked before the wrapper becomes a subreaper.
  std::unique_ptr<LaunchGuardian> guardian_ =
      options_.announce == AnnounceMode::wrapper ? std::make_unique<LaunchGuardian>() : nullptr;
  SignalRouter router_;
  std::vector<std::string> command_;
  std::vector<std::string> environment_;  // added to the agent's environment
  std::string state_dir_;
  std::optional<LaunchRegistry> registry_;
  std::optional<SessionStore> sessions_;
  std::string final_state_;
  std::string session_id_;
  std::string resume_id_;
  std::string caller_;
  bool provenance_written_ = false;
  std::vector<Attempt> attempts_;
  std::vector<std::string> classes_;
  std::vector<UniqueFd> spools_;
};

}  // namespace

int run_launch(const LaunchOptions& options) {
  Launcher launcher(options);
  try {
    return launcher.run();
  } catch (const Error& e) {
    log_line(e.what());
    return exit_status::wrapper_failure;
  }
}

}  // namespace fleet
