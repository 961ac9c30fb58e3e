#include "launch/worker_record.h"

#include "store/pending_launch.h"

namespace fleet {
namespace {

std::string wire_the_hook(const AgentProfile& agent) {
  const std::string name(agent.name);
  return "wire its " + std::string(agent.session_id.start_hook) +
         " with `fleet-hooks install --agent " + name + "`; `fleet-hooks check --agent " + name +
         "` says whether " + std::string(agent.display_name) + " will run it (doc/agents.md)";
}

}  // namespace

SettledLaunch settle_pending_launch(const std::string& pending_path, const std::string& captured_id,
                                    const AgentProfile& agent, const AppendOptions& options) {
  SettledLaunch settled;
  const std::string cli(agent.display_name);
  // One claimer wins: the hook, or the launch now (then no hook ran for this session).
  if (!captured_id.empty() && claim_pending_launch(pending_path, captured_id, options)) {
    settled.session_id = captured_id;
    settled.recorded_late = true;
    settled.warning = cli + " session " + captured_id + " was not recorded by its " +
                      std::string(agent.session_id.start_hook) +
                      " (not wired, or not trusted): launch-wrapper recorded it only now, so the "
                      "worker ran unguarded until then; " +
                      wire_the_hook(agent);
    return settled;
  }
  const PendingLaunch pending = read_pending_launch(pending_path);
  if (pending.state == PendingLaunch::State::claimed) {
    settled.session_id = captured_id.empty() ? pending.record.session_id : captured_id;
  } else if (!captured_id.empty()) {
    settled.session_id = captured_id;  // a hook is claiming it this moment (its rename won)
  } else {
    settled.warning = "the " + cli +
                      " worker's session id never appeared on its stdout (run it with " +
                      std::string(agent.session_id.stdout_flag) + ") and no " +
                      std::string(agent.session_id.start_hook) +
                      " recorded it: the worker ran unrecorded; " + wire_the_hook(agent);
  }
  return settled;
}

}  // namespace fleet
