#include "launch/agent_control.h"

#include "base/error.h"
#include "base/json.h"
#include "base/paths.h"

namespace fleet {
namespace {

// What a no_record answer says: which state directory was searched, and whether it exists.
std::string no_record_message(const LaunchRegistry& registry, const std::string& member) {
  std::string message =
      "no agent is recorded for member " + member + " in state directory " + registry.state_dir();
  if (const auto problem = directory_problem(registry.state_dir())) {
    message +=
        " (it " + *problem + "; the launch may have used another --state-dir or project directory)";
  }
  return message;
}

}  // namespace

AgentStop stop_recorded_agent(const LaunchRegistry& registry, std::chrono::milliseconds grace) {
  AgentStop result;
  const RegistryRead read = registry.read();
  switch (read.status) {
    case RegistryRead::Status::missing:
      result.message = no_record_message(registry, registry.member());
      return result;
    case RegistryRead::Status::corrupt:
      result.outcome = AgentStop::Outcome::corrupt;
      result.message =
          "the launch record is unreadable and was discarded without signalling "
          "anything (" +
          read.problem + ")";
      registry.remove();
      return result;
    case RegistryRead::Status::ok:
      break;
  }
  const LaunchRecord& record = read.record;
  result.pid = record.process.pid;
  const std::string who = "agent pid " + std::to_string(record.process.pid);
  const Liveness liveness = check_process(record.process);
  if (liveness == Liveness::reused) {
    result.outcome = AgentStop::Outcome::pid_reused;
    result.message = who +
                     " is gone and the pid now names another process (other start "
                     "time or boot); nothing was signalled";
    registry.remove();
    return result;
  }
  // The group is stopped only while the pid still names the recorded process, alive or a
  // zombie (which keeps the pid, and so the group id, from being reused). Once the pid is
  // gone, only the launch's containment (its cgroup, its token) can name what is left.
  StopResult group;
  group.gone = true;
  if (liveness != Liveness::gone) group = stop_process_group(record.pgid, grace);
  const ContainedStop contained = stop_contained(record.containment, grace);
  result.killed = group.killed || contained.killed;
  if (!group.gone || !contained.gone) {
    result.outcome = AgentStop::Outcome::failed;
    result.message = who + " (group " + std::to_string(record.pgid) +
                     ") or processes it started are still alive after SIGKILL; they may not "
                     "be ours to signal";
    return result;
  }
  const bool left_overs = (liveness != Liveness::same && group.was_alive) || contained.found > 0;
  if (liveness == Liveness::same) {
    result.outcome = AgentStop::Outcome::stopped;
    result.message = who + " was stopped" +
                     (result.killed ? " with SIGKILL after the grace period" : " with SIGTERM");
  } else {
    result.outcome = AgentStop::Outcome::not_running;
    result.message =
        who + " had already exited" + (left_overs ? "; its left-over processes were stopped" : "");
  }
  registry.remove();
  return result;
}

AgentStop stop_member_agent(const LaunchRegistry& registry, std::chrono::milliseconds grace) {
  const UniqueFd lock = registry.lock_if_known();
  return stop_recorded_agent(registry, grace);
}

MemberStatus member_status(const LaunchRegistry& registry) {
  const std::string& member = registry.member();
  MemberStatus status;
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("member", json_string(member, alloc), alloc);
  doc.AddMember("state_dir", json_string(registry.state_dir(), alloc), alloc);
  const RegistryRead read = registry.read();
  rapidjson::Value record(rapidjson::kNullType);
  if (read.status == RegistryRead::Status::corrupt) {
    status.state = MemberState::corrupt;
    doc.AddMember("problem", json_string(read.problem, alloc), alloc);
  } else if (read.status == RegistryRead::Status::ok) {
    switch (check_process(read.record.process)) {
      case Liveness::same:
        status.state = MemberState::alive;
        break;
      case Liveness::exited:
      case Liveness::gone:
        status.state = MemberState::exited;
        break;
      case Liveness::reused:
        status.state = MemberState::pid_reused;
        break;
    }
    if (const auto parsed = parse_json(launch_record_json(read.record))) {
      record.CopyFrom(*parsed, alloc);
    }
  }
  doc.AddMember("state", json_string(to_string(status.state), alloc), alloc);
  if (read.status == RegistryRead::Status::missing) {
    doc.AddMember("message", json_string(no_record_message(registry, member), alloc), alloc);
  }
  doc.AddMember("record", record, alloc);
  status.json = to_json(doc) + "\n";
  return status;
}

}  // namespace fleet
