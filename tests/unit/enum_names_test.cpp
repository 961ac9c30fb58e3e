#include "base/enum_names.h"

#include <doctest/doctest.h>
#include <set>
#include <string>

#include "launch/agent_control.h"
#include "launch/error_class.h"
#include "launch/options.h"
#include "launch/retry_policy.h"
#include "launch/session_state.h"
#include "launch/summary.h"

using namespace fleet;

namespace {

// Every value has a distinct name that reads back as that value.
template <NamedEnum E>
void check_round_trip() {
  std::set<std::string_view> seen;
  for (const E value : all_values<E>()) {
    const std::string_view name = to_string(value);
    CHECK_MESSAGE(seen.insert(name).second, name);
    CHECK(from_string<E>(name) == value);
  }
  CHECK_FALSE(from_string<E>("no such name"));
}

}  // namespace

TEST_CASE("enum_names: every named enum reads back what it writes") {
  check_round_trip<KillReason>();
  check_round_trip<SessionStatus>();
  check_round_trip<ResumeReason>();
  check_round_trip<ErrorClass>();
  check_round_trip<RetryStep>();
  check_round_trip<AgentStop::Outcome>();
  check_round_trip<MemberState>();
  check_round_trip<AnnounceMode>();
}

TEST_CASE("enum_names: the names are the words of the summary, the state files and stop") {
  std::string kill_reasons;
  for (const KillReason reason : all_values<KillReason>()) {
    kill_reasons += std::string(to_string(reason)) + " ";
  }
  CHECK(kill_reasons ==
        "natural_exit completed_then_stopped signal killed output_closed drain_timeout "
        "superseded exec_failed ");
  CHECK(to_string(SessionStatus::resume_pending) == "resume_pending");
  CHECK(to_string(ResumeReason::none).empty());
  CHECK(from_string<ResumeReason>("") == ResumeReason::none);
  CHECK(to_string(ResumeReason::restart_timeout) == "restart_timeout");
  CHECK(to_string(AgentStop::Outcome::not_running) == "not_running");
  CHECK(to_string(MemberState::pid_reused) == "pid_reused");
  CHECK(to_string(ErrorClass::stale_session) == "stale_session");
  static_assert(to_string(KillReason::superseded) == "superseded");
}
