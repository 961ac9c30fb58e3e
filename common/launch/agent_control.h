#pragma once
// Acting on a member's recorded agent from outside: stop it (only after verifying it is the
// recorded process) and report whether it is alive (`launch-wrapper stop` and `status`).

#include <chrono>
#include <string>

#include "base/enum_names.h"
#include "launch/registry.h"

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
// recorded agent as doc/launch-wrapper.md says (TERM, `grace`, KILL; the whole group) when
// its start time and boot id still match, and removes the record unless the stop failed. A record
// naming a reused pid, or one that cannot be read, is removed without signalling anything.
AgentStop stop_recorded_agent(const LaunchRegistry& registry, std::chrono::milliseconds grace);

template <>
struct EnumNames<AgentStop::Outcome> {
  static constexpr std::array<std::string_view, 6> names{"no_record",  "stopped", "not_running",
                                                         "pid_reused", "corrupt", "failed"};
};

// `launch-wrapper stop`: stop_recorded_agent with the member's lock held — taken only when
// the member has a lock file or a record, so asking about an unknown member creates nothing.
AgentStop stop_member_agent(const LaunchRegistry& registry, std::chrono::milliseconds grace);

enum class MemberState { alive, exited, pid_reused, no_record, corrupt };
template <>
struct EnumNames<MemberState> {
  static constexpr std::array<std::string_view, 5> names{"alive", "exited", "pid_reused",
                                                         "no_record", "corrupt"};
};

struct MemberStatus {
  MemberState state = MemberState::no_record;
  // {"member", "state_dir", "state", "record"}, with a "message" naming the state directory
  // searched when no_record, a "problem" when corrupt; one line with a newline.
  std::string json;
};

// `launch-wrapper status`. Reads only: takes no lock and creates no file.
MemberStatus member_status(const LaunchRegistry& registry);

}  // namespace fleet
