#include "launch_wrapper.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <optional>

#include <rapidjson/document.h>

#include "agent_control.h"
#include "child_process.h"
#include "command_line.h"
#include "error.h"
#include "error_class.h"
#include "ids.h"
#include "json.h"
#include "launch_registry.h"
#include "output_relay.h"
#include "paths.h"
#include "provenance_store.h"
#include "signal_router.h"
#include "timestamp.h"

namespace fleet {
namespace {

bool is_terminating(int sig) {
  return sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return kExitWrapperFailure;
}

void log_line(const std::string& line) {
  const std::string text = "launch-wrapper: " + line + "\n";
  (void)!::write(STDERR_FILENO, text.data(), text.size());
}

// What one start of the agent came to.
struct Attempt {
  pid_t pid = 0;
  int exit_code = 0;
  int forwarded_signal = 0;  // the last terminating signal passed on to the agent
  bool superseded = false;   // another launch of the member replaced this agent
  std::string kill_reason;   // natural_exit, signal, superseded, exec_failed, aborted
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
      if (code == 0 || attempt.forwarded_signal != 0 || attempt.superseded ||
          attempt.kill_reason == "exec_failed" || attempt.kill_reason == "aborted" ||
          number > options_.retries) {
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
               std::to_string(code) + "); retrying in " + std::to_string(delay) + " s");
      if (const int sig = sleep_interruptibly(delay); sig != 0) {
        Attempt interrupted;
        interrupted.exit_code = 128 + sig;
        interrupted.kill_reason = "signal";
        attempts_.push_back(interrupted);
        return finish(128 + sig);
      }
    }
  }

 private:
  void prepare() {
    if (options_.command.empty()) throw Error("no command given after --");
    command_ = options_.command;
    if (!options_.member.empty() || options_.record_provenance) {
      state_dir_ = resolve_state_dir(options_.state_dir, "");
    }
    if (!options_.member.empty()) registry_.emplace(state_dir_, options_.member);
    resume_id_ = option_value(command_, "--resume", "-r").value_or("");
    session_id_ = options_.session_id;
    if (session_id_.empty()) session_id_ = option_value(command_, "--session-id").value_or("");
    if (session_id_.empty()) session_id_ = resume_id_;
    if (options_.assign_session_id && session_id_.empty()) assign_session_id(command_);
    if (options_.record_provenance) {
      caller_ = options_.caller_session_id.empty() ? env_value("CLAUDE_CODE_SESSION_ID")
                                                   : options_.caller_session_id;
      if (caller_.empty()) {
        throw Error(
            "--record-provenance needs the caller: pass --caller-session-id, or run "
            "where CLAUDE_CODE_SESSION_ID is set");
      }
      if (resume_id_.empty() && session_id_.empty()) {
        throw Error(
            "--record-provenance needs the session id: pass --session-id or "
            "--assign-session-id");
      }
      const std::string problem = record_problem(provenance_record());
      if (!problem.empty()) throw Error(problem);
    }
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
    HeldChild child = spawn_held(command, environment_with({}), router_.original_mask(),
                                 router_.sigpipe_was_ignored());
    attempt.pid = child.pid;

    // Recorded first, so whoever reads the announce line can rely on the record.
    if (registry_) {
      const auto identity = identify_process(child.pid);
      if (!identity) throw Error("the agent process vanished before it was released");
      registry_->write(
          {options_.member, *identity, child.pid, session_id_, utc_timestamp_now(), command});
    }
    const std::string announce = options_.announce_prefix + std::to_string(child.pid) + "\n";
    write_all(STDOUT_FILENO, announce, "stdout");
    if (options_.record_provenance && resume_id_.empty() && !provenance_written_ &&
        !session_id_.empty()) {
      const std::string warning = append_record(provenance_store_path(state_dir_),
                                                provenance_record(), {.fsync = options_.fsync});
      if (!warning.empty()) log_line("warning: " + warning);
      provenance_written_ = true;
    }
    member_lock.reset();

    // A request to stop that arrived while we prepared: do not start the agent at all.
    std::vector<int> pending;
    for (int sig; (sig = router_.next()) != 0;) pending.push_back(sig);
    for (int sig : pending) {
      if (!is_terminating(sig)) continue;
      child.release.reset();  // the child exits 125 without running the command
      wait_for(child.pid);
      forget(child.pid);
      attempt.exit_code = 128 + sig;
      attempt.forwarded_signal = sig;
      attempt.kill_reason = "signal";
      return attempt;
    }

    if (const int error = release_child(child); error != 0) {
      log_line("cannot run '" + command.front() + "': " + std::strerror(error));
      wait_for(child.pid);
      forget(child.pid);
      attempt.exit_code = exec_failure_exit_code(error);
      attempt.kill_reason = "exec_failed";
      return attempt;
    }
    for (int sig : pending) {
      if (sig != SIGCHLD) ::kill(-child.pid, sig);
    }
    supervise(child, attempt);
    return attempt;
  }

  void supervise(HeldChild& child, Attempt& attempt) {
    OutputRelay out(std::move(child.out), STDOUT_FILENO, options_.tail_bytes);
    OutputRelay err(std::move(child.err), STDERR_FILENO, options_.tail_bytes);
    int status = 0;
    bool exited = false;
    while (!exited) {
      struct pollfd fds[3] = {
          {router_.fd(), POLLIN, 0}, {out.fd(), POLLIN, 0}, {err.fd(), POLLIN, 0}};
      if (::poll(fds, 3, -1) < 0 && errno != EINTR) throw_errno("poll failed");
      if (fds[1].revents != 0) out.pump();
      if (fds[2].revents != 0) err.pump();
      if (fds[0].revents == 0) continue;
      for (int sig; (sig = router_.next()) != 0;) {
        if (sig == SIGCHLD) {
          exited = reap_children(child.pid, status) || exited;
        } else {
          ::kill(-child.pid, sig);
          if (is_terminating(sig)) attempt.forwarded_signal = sig;
        }
      }
    }
    out.drain();
    err.drain();
    if (!options_.leave_children) {
      const StopResult left =
          stop_process_group(child.pid, options_.grace, std::chrono::seconds(5), &reap_any);
      if (left.was_alive) log_line("stopped the agent's left-over processes");
      out.drain();
      err.drain();
    }
    out.close();
    err.close();
    attempt.exit_code = exit_code_of(status);
    attempt.output_tail = out.tail() + "\n" + err.tail();
    attempt.kill_reason = attempt.forwarded_signal != 0 ? "signal" : "natural_exit";
    attempt.superseded = forget(child.pid);
    if (attempt.superseded) attempt.kill_reason = "superseded";
  }

  static void reap_any() {
    int ignored = 0;
    reap_children(-1, ignored);
  }

  void wait_for(pid_t pid) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
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

  // Sleeps `seconds`, reaping children; returns a terminating signal that cut it short.
  int sleep_interruptibly(double seconds) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return 0;
      const int sig = router_.wait(static_cast<int>(left.count()));
      if (sig == SIGCHLD) reap_any();
      if (is_terminating(sig)) return sig;
    }
  }

  int finish(int exit_code) {
    if (options_.quiet) return exit_code;
    rapidjson::Document doc(rapidjson::kObjectType);
    auto& alloc = doc.GetAllocator();
    doc.AddMember("event", "launch-wrapper.summary", alloc);
    if (!options_.member.empty())
      doc.AddMember("member", json_string(options_.member, alloc), alloc);
    doc.AddMember("session_id", json_string(session_id_, alloc), alloc);
    doc.AddMember("attempts", static_cast<unsigned>(attempts_.size()), alloc);
    doc.AddMember("exit_code", exit_code, alloc);
    const Attempt& last = attempts_.back();
    doc.AddMember("kill_reason", json_string(last.kill_reason, alloc), alloc);
    rapidjson::Value pids(rapidjson::kArrayType);
    for (const Attempt& a : attempts_) {
      if (a.pid != 0) pids.PushBack(static_cast<std::int64_t>(a.pid), alloc);
    }
    doc.AddMember("pids", pids, alloc);
    rapidjson::Value classes(rapidjson::kArrayType);
    for (const std::string& c : classes_) classes.PushBack(json_string(c, alloc), alloc);
    doc.AddMember("failure_classes", classes, alloc);
    const std::string line = to_json(doc) + "\n";
    (void)!::write(STDERR_FILENO, line.data(), line.size());
    return exit_code;
  }

  const LaunchOptions& options_;
  SignalRouter router_;
  std::vector<std::string> command_;
  std::string state_dir_;
  std::optional<LaunchRegistry> registry_;
  std::string session_id_;
  std::string resume_id_;
  std::string caller_;
  bool provenance_written_ = false;
  std::vector<Attempt> attempts_;
  std::vector<std::string> classes_;
};

}  // namespace

int run_launch(const LaunchOptions& options) {
  Launcher launcher(options);
  try {
    return launcher.run();
  } catch (const Error& e) {
    log_line(e.what());
    return kExitWrapperFailure;
  }
}

}  // namespace fleet
