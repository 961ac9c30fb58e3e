#pragma once
// What a launch was asked to do: launch-wrapper's options, grouped by the piece of the launch
// that reads them (the plan reads `session`, the retry policy `retry`, one attempt the rest).

#include <sys/types.h>
#include <chrono>
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "agent/agent_cli.h"
#include "agent/agent_profile.h"
#include "base/enum_names.h"
#include "launch/containment.h"
#include "process/launch_caller.h"

namespace fleet {

// What a launch says while it runs, one line at a time, for a person ("previous agent of
// member m1: …", "attempt 2: agent pid 4242"). The program's main decides where the lines go
// (launch-wrapper: stderr, as "launch-wrapper: <line>"); library code never prints.
using LaunchNotice = std::function<void(const std::string& line)>;

// Which pid the FLEET_PID line names.
enum class AnnounceMode {
  agent,    // each attempt's agent, one line per attempt (for launchers that read every line)
  wrapper,  // the wrapper's own pid, once: it stays valid across retries, and killing it
            // kills the current agent (PR_SET_PDEATHSIG) (for launchers that keep the first
            // line only and kill that pid's tree)
};
template <>
struct EnumNames<AnnounceMode> {
  static constexpr std::array<std::string_view, 2> names{"agent", "wrapper"};
};

// What of the agent's stdout reaches the wrapper's stdout (the FLEET_PID lines always do).
enum class StdoutMode {
  live,           // every attempt's, passed through as it arrives
  final_attempt,  // only the final attempt's, when the launch ends: each attempt's stdout is
                  // spooled (bounded), for launchers that parse the whole stream at the end
};
template <>
struct EnumNames<StdoutMode> {
  static constexpr std::array<std::string_view, 2> names{"live", "final"};
};

// The launched session: its id, and the resume-pending lifecycle of a keyed session.
struct SessionOptions {
  std::string session_id;  // --session-id ("" takes the command's own)
  bool assign_session_id = false;
  std::string session_key;  // "" keeps no session state
  int max_restarts = 3;
  std::string resume_note_arg;  // e.g. --append-system-prompt: pass the note as argument
};

// The ownership record appended to the provenance store before the agent runs.
struct ProvenanceOptions {
  bool record = false;
  bool fsync = false;
  std::string caller_session_id;  // "": launch_caller.h finds it
  DispatchCall call;              // --mcp-call, --mcp-meta ("": not given)
  // The CLIs whose caller variable may name the caller (AgentCli::caller_variable).
  std::span<const AgentCli* const> caller_clis = {};
  // The CLIs whose processes a launch knows above it (process/agent_process.h).
  std::span<const AgentProfile* const> caller_profiles = {};
  std::string kitchen_id;
  std::string dispatch_id;
  std::string recipe_name;
  std::string step_name;
};

// The completion watch on the agent's transcript.
struct CompletionOptions {
  std::string marker;       // "" disables the watch
  std::string session_log;  // transcript path ("" derives it from the session id)
  std::string record_type;  // "" : the agent CLI's (agent_profile.h)
  bool marker_anywhere = false;
  std::chrono::milliseconds poll_interval{500};
  bool use_inotify = true;
};

struct RetryOptions {
  int retries = 0;
  double backoff_seconds = 1.0;
};

struct LaunchOptions {
  const AgentProfile* agent = nullptr;  // --agent: the CLI the command runs
  std::vector<std::string> command;     // after "--"
  std::string member;                   // --member: "" keeps no registry record
  std::string state_dir;                // --state-dir
  std::string announce_prefix = "FLEET_PID:";
  AnnounceMode announce = AnnounceMode::agent;
  // The wrapper's parent, taken first thing in main (0: taken when the launch starts). When
  // getppid() differs from it, the parent is gone and a failed attempt is not retried.
  pid_t parent = 0;
  ContainmentMode containment = ContainmentMode::automatic;
  std::chrono::milliseconds grace{5000};
  std::chrono::milliseconds drain{5000};
  bool leave_children = false;
  // When the launcher's end of stdout/stderr closes: spool the output to
  // <state dir>/output/ and let the agent run on (false), or stop it at once (true).
  bool stop_on_output_closed = false;
  std::size_t tail_bytes = 64 * 1024;  // kept of stdout and of stderr for classification
  StdoutMode stdout_mode = StdoutMode::live;
  std::size_t stdout_limit = 64 << 20;  // with final_attempt: the last bytes kept of an attempt
  bool quiet = false;                   // no summary line
  std::string summary_file;             // also write the summary line here
  SessionOptions session;
  ProvenanceOptions provenance;
  CompletionOptions completion;
  RetryOptions retry;
};

}  // namespace fleet
