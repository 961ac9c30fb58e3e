#pragma once
// Acting on a member's recorded agent from outside: stop it (only after verifying it is the
// recorded process) and report whether it is alive.

#include <chrono>
#include <string>

#include "launch_registry.h"

namespace fleet {

struct AgentStop {
  enum class Outcome {
    no_record,    // nothing recorded for the member
    stopped,      // the recorded agent was alive and its group is gone now
    not_running,  // the recorded agent had exited (left-over group members were stopped)
    pid_reused,   // the pid names another process now: nothing was signalled
    corrupt,      // the record could not be read: nothing was signalled
    failed,       // the group is still alive after KILL (not ours to kill: EPERM)
  };
  Outcome outcome = Outcome::no_record;
  pid_t pid = 0;
  bool killed = false;  // SIGKILL was needed
  std::string message;  // one line for a person
};

// With the registry lock held by the caller (LaunchRegistry::lock_if_known): stops the member's
// recorded agent as README.md's "launch-wrapper" says (TERM, `grace`, KILL; the whole group) when
// its start time and boot id still match, and removes the record unless the stop failed. A record
// naming a reused pid, or one that cannot be read, is removed without signalling anything.
AgentStop stop_recorded_agent(const LaunchRegistry& registry, std::chrono::milliseconds grace);

const char* outcome_name(AgentStop::Outcome outcome);

// `launch-wrapper status`: a JSON object {"member", "state_dir", "state", "record"} where
// state is "alive", "exited", "pid_reused", "no_record" (with a "message" naming the state
// directory searched) or "corrupt"; `alive` tells which. Reads only: takes no lock and
// creates no file.
std::string member_status_json(const LaunchRegistry& registry, const std::string& member,
                               bool& alive);

}  // namespace fleet
