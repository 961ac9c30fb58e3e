#include "launch/agent_supervisor.h"

#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <optional>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/timestamp.h"
#include "process/output_relay.h"
#include "process/process_identity.h"

namespace fleet {
namespace {

using Clock = std::chrono::steady_clock;

// A pipe or socket: the kinds whose reader can go away, which poll reports as POLLERR/POLLHUP.
bool reader_can_vanish(int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

int ms_until(Clock::time_point when) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(when - Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

// The signal that ended the agent when the wrapper did not send it: killed by it, or - an
// agent behind a shell or npx whose child was killed - exited 128+SIGKILL or 128+SIGTERM.
int outside_signal_of(int status, const sigset_t& sent) {
  int ended_by = 0;
  if (WIFSIGNALED(status)) {
    ended_by = WTERMSIG(status);
  } else if (WIFEXITED(status) && (WEXITSTATUS(status) == exit_status::of_signal(SIGKILL) ||
                                   WEXITSTATUS(status) == exit_status::of_signal(SIGTERM))) {
    ended_by = WEXITSTATUS(status) - exit_status::of_signal(0);
  }
  return ended_by != 0 && sigismember(&sent, ended_by) != 1 ? ended_by : 0;
}

// One supervision, step by step: the relays, the launcher's ends, the signals, the
// completion watch and the deadlines, until the agent has exited.
class Supervision {
 public:
  Supervision(HeldChild& child, SignalRouter& router, const SupervisorOptions& options)
      : child_(child),
        router_(router),
        options_(options),
        out_(std::move(child.out), STDOUT_FILENO, options.tail_bytes),
        err_(std::move(child.err), STDERR_FILENO, options.tail_bytes),
        stop_(child.pid, options.grace, [this](int sig) { send(sig); }),
        channels_{{STDOUT_FILENO, "out", &out_, reader_can_vanish(STDOUT_FILENO)},
                  {STDERR_FILENO, "err", &err_, reader_can_vanish(STDERR_FILENO)}} {
    sigemptyset(&sent_);
    if (options.stdout_sink) out_.divert(options.stdout_sink);
    if (options.stdout_observer) out_.observe(options.stdout_observer);
    for (Channel& channel : channels_) {
      channel.owner = this;
      channel.relay->on_destination_gone(
          [](void* context) {
            auto* c = static_cast<Channel*>(context);
            return c->owner->output_closed(*c);
          },
          &channel);
    }
  }

  AgentExit run() {
    check_completion(false);
    while (!step()) {
    }
    finish();
    return result_;
  }

 private:
  // The launcher's end of one of our output streams.
  struct Channel {
    int fd;
    const char* name;
    OutputRelay* relay;
    bool watched;
    bool closed = false;
    Supervision* owner = nullptr;
  };

  void say(const std::string& line) const {
    if (options_.log) options_.log(line);
  }

  void send(int sig) {
    sigaddset(&sent_, sig);
    ::kill(-child_.pid, sig);
  }

  // The launcher's end of `channel` closed: the descriptor the stream goes on to, or -1
  // when it ends (and the agent is stopped).
  int output_closed(Channel& channel) {
    if (channel.closed) return -1;
    channel.closed = true;
    result_.output_closed = true;
    int spool = -1;
    if (!options_.stop_on_output_closed && options_.spool_output)
      spool = options_.spool_output(channel.name);
    if (spool >= 0) {
      channel.relay->redirect(spool);
      return spool;
    }
    if (!result_.output_stopped) {
      result_.output_stopped = true;
      say("the launcher's end of std" + std::string(channel.name) + " closed; stopping the agent");
      stop_.begin();
    }
    return -1;
  }

  void check_completion(bool tell) {
    if (options_.watch == nullptr || result_.completion_seen || !options_.watch->check()) return;
    result_.completion_seen = true;
    completion_deadline_ = Clock::now() + options_.drain;
    if (tell) {
      say("completion marker seen; the agent has " +
          seconds_text(static_cast<double>(options_.drain.count()) / 1000) + " to exit");
    }
  }

  int poll_timeout() const {
    int timeout =
        options_.watch != nullptr && !result_.completion_seen ? options_.watch->wait_ms() : -1;
    for (const auto& deadline : {completion_deadline_, drain_deadline_, stop_.kill_due()}) {
      if (deadline)
        timeout = timeout < 0 ? ms_until(*deadline) : std::min(timeout, ms_until(*deadline));
    }
    return timeout;
  }

  // Handles the signals that arrived; true once the agent has exited.
  bool handle_signals() {
    bool exited = false;
    for (int sig; (sig = router_.next()) != 0;) {
      if (sig == SIGCHLD) {
        if (const std::optional<int> status = reap_children(child_.pid)) {
          result_.status = *status;
          exited = true;
        }
      } else if (options_.drain_on_stop_signals && (sig == SIGTERM || sig == SIGUSR1) &&
                 result_.drain_signal == 0) {
        result_.drain_signal = sig;
        drain_deadline_ = Clock::now() + options_.drain;
      } else {
        send(sig);
        if (is_stop_signal(sig)) result_.forwarded_signal = sig;
      }
    }
    return exited;
  }

  void check_deadlines() {
    const auto now = Clock::now();
    if (completion_deadline_ && now >= *completion_deadline_ && !stop_.begun()) {
      result_.stopped_after_completion = true;
      stop_.begin();
    }
    if (drain_deadline_ && now >= *drain_deadline_ && !stop_.begun()) {
      result_.drain_timed_out = true;
      if (options_.on_drain_timeout) options_.on_drain_timeout(result_.drain_signal);
      stop_.begin();
    }
    stop_.kill_if_due(now);
  }

  // One wait and what it brought; true once the agent has exited.
  bool step() {
    const auto launcher_end = [](const Channel& c) {
      return c.watched && !c.closed ? c.fd : -1;  // events 0: only POLLERR/POLLHUP come back
    };
    struct pollfd fds[6] = {{router_.fd(), POLLIN, 0},
                            {out_.fd(), POLLIN, 0},
                            {err_.fd(), POLLIN, 0},
                            {options_.watch != nullptr ? options_.watch->fd() : -1, POLLIN, 0},
                            {launcher_end(channels_[0]), 0, 0},
                            {launcher_end(channels_[1]), 0, 0}};
    if (::poll(fds, 6, poll_timeout()) < 0 && errno != EINTR) throw_errno("poll failed");
    for (int i = 0; i < 2; ++i) {
      if (fds[4 + i].fd >= 0 && (fds[4 + i].revents & (POLLERR | POLLHUP)) != 0) {
        output_closed(channels_[i]);
      }
    }
    if (fds[1].revents != 0) out_.pump();
    if (fds[2].revents != 0) err_.pump();
    check_completion(true);
    if (fds[0].revents != 0 && handle_signals()) return true;
    check_deadlines();
    return false;
  }

  // After the exit: who ended it, the rest of its output, what it left in its group.
  void finish() {
    result_.outside_signal = outside_signal_of(result_.status, sent_);
    out_.drain();
    err_.drain();
    if (!options_.leave_children) {
      const StopResult left = stop_process_group(child_.pid, options_.grace,
                                                 std::chrono::seconds(5), &reap_exited_children);
      if (left.was_alive) say("stopped the agent's left-over processes");
      out_.drain();
      err_.drain();
    }
    out_.close();
    err_.close();
    result_.stdout_tail = out_.tail();
    result_.stderr_tail = err_.tail();
  }

  HeldChild& child_;
  SignalRouter& router_;
  const SupervisorOptions& options_;
  AgentExit result_;
  OutputRelay out_;
  OutputRelay err_;
  std::optional<Clock::time_point> completion_deadline_, drain_deadline_;
  sigset_t sent_;  // every signal the wrapper sent to the agent's group
  GroupStop stop_;
  Channel channels_[2];
};

}  // namespace

AgentExit supervise_agent(HeldChild& child, SignalRouter& router,
                          const SupervisorOptions& options) {
  Supervision supervision(child, router, options);
  return supervision.run();
}

}  // namespace fleet
