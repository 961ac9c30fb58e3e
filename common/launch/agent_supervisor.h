#pragma once
// Supervising a released agent until it has exited: its output passes through, signals to
// the wrapper reach its group, an optional completion watch ends it after a drain window,
// and with drain-on-stop, TERM and USR1 give it time to finish its turn before it is stopped.

#include <chrono>
#include <functional>
#include <string>

#include "launch/completion_watch.h"
#include "process/child_process.h"
#include "process/signal_router.h"

namespace fleet {

struct SupervisorOptions {
  std::chrono::milliseconds grace{5000};  // TERM -> KILL when stopping the group
  std::chrono::milliseconds drain{5000};  // time to exit alone after completion or TERM/USR1
  bool leave_children = false;
  std::size_t tail_bytes = 64 * 1024;
  CompletionWatch* watch = nullptr;    // completion watch, or none
  bool drain_on_stop_signals = false;  // TERM and USR1 start a drain instead of passing on
  // Called when a drain started by `signal` ran out, before the group is stopped.
  std::function<void(int signal)> on_drain_timeout;
  // When the launcher's end of our stdout (or stderr) closes, noticed as it happens when it
  // is a pipe or socket: `spool_output` opens the file to go on writing that stream to
  // ("out" or "err") and returns its descriptor; with `stop_on_output_closed`, or when it
  // returns -1, the agent is stopped at once instead.
  bool stop_on_output_closed = false;
  std::function<int(const char* stream)> spool_output;
  // When set, the agent's stdout goes here instead of ours (--stdout final), until the
  // launcher's end of our stdout closes.
  std::function<void(const char* data, std::size_t size)> stdout_sink;
  // Shown every byte of the agent's stdout, wherever it goes (e.g. to learn its session id).
  std::function<void(const char* data, std::size_t size)> stdout_observer;
  // Receives one line for a person (completion seen, left-over processes stopped).
  std::function<void(const std::string&)> log;
};

struct AgentExit {
  int status = 0;            // wait status of the agent
  int forwarded_signal = 0;  // last terminating signal passed on to the agent
  bool completion_seen = false;
  bool stopped_after_completion = false;  // the drain after completion ran out
  int drain_signal = 0;                   // TERM or USR1 that started a drain
  bool drain_timed_out = false;
  // The signal that ended the agent when the wrapper did not send it (it was killed from
  // outside: a launcher, a person, the OOM killer), else 0.
  int outside_signal = 0;
  bool output_closed = false;   // the launcher's end of stdout/stderr closed during the run
  bool output_stopped = false;  // ... and the agent was stopped for it
  std::string stdout_tail;      // last bytes of stdout
  std::string stderr_tail;      // last bytes of stderr
};

AgentExit supervise_agent(HeldChild& child, SignalRouter& router, const SupervisorOptions& options);

}  // namespace fleet
