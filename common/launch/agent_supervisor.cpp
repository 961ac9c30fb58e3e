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

// The launcher's end of one of our output streams.
struct Channel {
  int fd;
  const char* name;
  OutputRelay* relay;
  bool watched;
  bool closed = false;
};

int ms_until(Clock::time_point when) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(when - Clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

}  // namespace

AgentExit supervise_agent(HeldChild& child, SignalRouter& router,
                          const SupervisorOptions& options) {
  AgentExit result;
  const auto say = [&](const std::string& line) {
    if (options.log) options.log(line);
  };
  OutputRelay out(std::move(child.out), STDOUT_FILENO, options.tail_bytes);
  OutputRelay err(std::move(child.err), STDERR_FILENO, options.tail_bytes);
  if (options.stdout_sink) out.divert(options.stdout_sink);
  if (options.stdout_observer) out.observe(options.stdout_observer);
  std::optional<Clock::time_point> completion_deadline, drain_deadline;
  sigset_t sent;  // every signal the wrapper sent to the agent's group
  sigemptyset(&sent);
  const auto send = [&](int sig) {
    sigaddset(&sent, sig);
    ::kill(-child.pid, sig);
  };
  GroupStop stop(child.pid, options.grace, send);
  Channel channels[2] = {{STDOUT_FILENO, "out", &out, reader_can_vanish(STDOUT_FILENO)},
                         {STDERR_FILENO, "err", &err, reader_can_vanish(STDERR_FILENO)}};
  // Returns the descriptor the stream goes on to, or -1 when it ends.
  const auto output_closed = [&](Channel& channel) -> int {
    if (channel.closed) return -1;
    channel.closed = true;
    result.output_closed = true;
    int spool = -1;
    if (!options.stop_on_output_closed && options.spool_output)
      spool = options.spool_output(channel.name);
    if (spool >= 0) {
      channel.relay->redirect(spool);
      return spool;
    }
    if (!result.output_stopped) {
      result.output_stopped = true;
      say("the launcher's end of std" + std::string(channel.name) + " closed; stopping the agent");
      stop.begin();
    }
    return -1;
  };
  struct Replacement {
    decltype(output_closed)* handler;
    Channel* channel;
  } replacements[2] = {{&output_closed, &channels[0]}, {&output_closed, &channels[1]}};
  for (Replacement& r : replacements) {
    r.channel->relay->on_destination_gone(
        [](void* context) {
          auto* self = static_cast<Replacement*>(context);
          return (*self->handler)(*self->channel);
        },
        &r);
  }
  if (options.watch != nullptr && options.watch->check()) {
    result.completion_seen = true;
    completion_deadline = Clock::now() + options.drain;
  }

  bool exited = false;
  while (!exited) {
    int timeout =
        options.watch != nullptr && !result.completion_seen ? options.watch->wait_ms() : -1;
    for (const auto& deadline : {completion_deadline, drain_deadline, stop.kill_due()}) {
      if (deadline)
        timeout = timeout < 0 ? ms_until(*deadline) : std::min(timeout, ms_until(*deadline));
    }
    const auto launcher_end = [&](const Channel& c) {
      return c.watched && !c.closed ? c.fd : -1;  // events 0: only POLLERR/POLLHUP come back
    };
    struct pollfd fds[6] = {{router.fd(), POLLIN, 0},
                            {out.fd(), POLLIN, 0},
                            {err.fd(), POLLIN, 0},
                            {options.watch != nullptr ? options.watch->fd() : -1, POLLIN, 0},
                            {launcher_end(channels[0]), 0, 0},
                            {launcher_end(channels[1]), 0, 0}};
    if (::poll(fds, 6, timeout) < 0 && errno != EINTR) throw_errno("poll failed");
    for (int i = 0; i < 2; ++i) {
      if (fds[4 + i].fd >= 0 && (fds[4 + i].revents & (POLLERR | POLLHUP)) != 0) {
        output_closed(channels[i]);
      }
    }
    if (fds[1].revents != 0) out.pump();
    if (fds[2].revents != 0) err.pump();
    if (options.watch != nullptr && !result.completion_seen && options.watch->check()) {
      result.completion_seen = true;
      completion_deadline = Clock::now() + options.drain;
      say("completion marker seen; the agent has " +
          seconds_text(static_cast<double>(options.drain.count()) / 1000) + " to exit");
    }
    if (fds[0].revents != 0) {
      for (int sig; (sig = router.next()) != 0;) {
        if (sig == SIGCHLD) {
          if (const std::optional<int> status = reap_children(child.pid)) {
            result.status = *status;
            exited = true;
          }
        } else if (options.drain_on_stop_signals && (sig == SIGTERM || sig == SIGUSR1) &&
                   result.drain_signal == 0) {
          result.drain_signal = sig;
          drain_deadline = Clock::now() + options.drain;
        } else {
          send(sig);
          if (is_stop_signal(sig)) result.forwarded_signal = sig;
        }
      }
    }
    if (exited) break;
    const auto now = Clock::now();
    if (completion_deadline && now >= *completion_deadline && !stop.begun()) {
      result.stopped_after_completion = true;
      stop.begin();
    }
    if (drain_deadline && now >= *drain_deadline && !stop.begun()) {
      result.drain_timed_out = true;
      if (options.on_drain_timeout) options.on_drain_timeout(result.drain_signal);
      stop.begin();
    }
    stop.kill_if_due(now);
  }
  // Killed from outside: by a signal, or - an agent behind a shell or npx whose child was
  // killed - by exiting 128+SIGKILL or 128+SIGTERM; either way a signal the wrapper did not send.
  int ended_by = 0;
  if (WIFSIGNALED(result.status)) {
    ended_by = WTERMSIG(result.status);
  } else if (WIFEXITED(result.status) &&
             (WEXITSTATUS(result.status) == exit_status::of_signal(SIGKILL) ||
              WEXITSTATUS(result.status) == exit_status::of_signal(SIGTERM))) {
    ended_by = WEXITSTATUS(result.status) - exit_status::of_signal(0);
  }
  if (ended_by != 0 && sigismember(&sent, ended_by) != 1) result.outside_signal = ended_by;
  out.drain();
  err.drain();
  if (!options.leave_children) {
    const StopResult left = stop_process_group(child.pid, options.grace, std::chrono::seconds(5),
                                               &reap_exited_children);
    if (left.was_alive) say("stopped the agent's left-over processes");
    out.drain();
    err.drain();
  }
  out.close();
  err.close();
  result.output_tail = out.tail() + "\n" + err.tail();
  return result;
}

}  // namespace fleet
