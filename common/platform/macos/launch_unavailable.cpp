// launch-wrapper's entry points where its engine has no home yet (platform seam, macOS home;
// ../README.md and doc/platforms.md). Each refuses with an Error saying so, which
// launch-wrapper reports ("launch-wrapper: ...") with exit status 125: no agent is started,
// no process is signalled, nothing is recorded.
#include "base/error.h"
#include "launch/agent_control.h"
#include "launch/run.h"

namespace fleet {
namespace {

[[noreturn]] void refuse(const std::string& what) {
  throw Error(what +
              " is not available on macOS yet: its process containment, signal routing and "
              "transcript watch exist for Linux only (doc/platforms.md). Run the agent without "
              "launch-wrapper here, or launch it on Linux.");
}

}  // namespace

LaunchOutcome run_launch(const LaunchOptions&, const LaunchNotice&) {
  refuse("launching an agent");
}

AgentStop stop_member_agent(const LaunchRegistry&, std::chrono::milliseconds) {
  refuse("launch-wrapper stop");
}

MemberStatus member_status(const LaunchRegistry&) {
  refuse("launch-wrapper status");
}

}  // namespace fleet
