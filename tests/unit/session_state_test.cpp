#include "launch/session_state.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <csignal>

#include "base/error.h"
#include "temp_dir.h"

using namespace fleet;

TEST_CASE("session_state: JSON round trip and invalid records") {
  SessionState state{"k",
                     "s-1",
                     SessionStatus::resume_pending,
                     ResumeReason::restart_timeout,
                     "2026-11-22T00:00:00.000000+00:00",
                     2};
  const auto parsed = parse_session_state(session_state_json(state));
  REQUIRE_MESSAGE(parsed, parsed.problem());
  CHECK(*parsed == state);
  const auto unfinished = parse_session_state("{");
  CHECK_FALSE(unfinished);
  CHECK(unfinished.problem().find("not valid JSON") != std::string::npos);
  const auto partial = parse_session_state(R"({"session_key":"k"})");
  CHECK_FALSE(partial);
  CHECK(partial.problem().find("missing") != std::string::npos);
  std::string bad_state = session_state_json(state);
  bad_state.replace(bad_state.find("resume_pending"), 14, "sleeping");
  const auto sleeping = parse_session_state(bad_state);
  CHECK_FALSE(sleeping);
  CHECK(sleeping.problem().find("sleeping") != std::string::npos);
  std::string bad_reason = session_state_json(state);
  bad_reason.replace(bad_reason.find("restart_timeout"), 15, "nap_timeout");
  const auto napping = parse_session_state(bad_reason);
  CHECK_FALSE(napping);
  CHECK(napping.problem().find("nap_timeout") != std::string::npos);
}

TEST_CASE("session_state: transitions") {
  const std::vector<std::string> command = {"claude", "-p", "x"};
  CHECK(plan_session_launch(std::nullopt, "k", command, "", claude_profile()).kind ==
        SessionLaunch::Kind::fresh);
  SessionState state{"k", "s-1", SessionStatus::active, ResumeReason::none, "", 0};
  CHECK(plan_session_launch(state, "k", command, "", claude_profile()).kind ==
        SessionLaunch::Kind::fresh);
  mark_drain_timeout(state, SIGTERM, 3, "t1");
  CHECK(state.state == SessionStatus::resume_pending);
  CHECK(state.resume_reason == ResumeReason::shutdown_timeout);
  CHECK(state.restart_failure_count == 1);
  const SessionLaunch plan = plan_session_launch(state, "k", command, "", claude_profile());
  CHECK(plan.kind == SessionLaunch::Kind::resume);
  CHECK(plan.resume_id == "s-1");
  CHECK(plan.environment.front() == "FLEET_RESUME_REASON=shutdown_timeout");
  mark_drain_timeout(state, SIGUSR1, 3, "t2");
  CHECK(state.state == SessionStatus::resume_pending);
  CHECK(state.resume_reason == ResumeReason::restart_timeout);
  mark_drain_timeout(state, SIGUSR1, 3, "t3");
  CHECK(state.state == SessionStatus::suspended);  // suspended wins over resume_pending
  CHECK(state.last_resume_marked_at == "t3");
  CHECK(plan_session_launch(state, "k", command, "", claude_profile()).kind ==
        SessionLaunch::Kind::fresh_after_suspension);
  mark_success(state);
  CHECK(state.state == SessionStatus::active);
  CHECK(state.restart_failure_count == 0);
  CHECK(state.resume_reason == ResumeReason::none);
  CHECK(resume_note(ResumeReason::restart_timeout, "s-1").find("restarted") != std::string::npos);
  CHECK(drain_timeout_notice("k", SIGUSR1) ==
        "the agent did not finish within the drain; session k is marked for resume "
        "(restart_timeout)");
}

TEST_CASE("session_state: a resume rewrites the command and carries the note") {
  const SessionState pending{
      "k", "s-1", SessionStatus::resume_pending, ResumeReason::restart_timeout, "t", 1};
  const SessionLaunch plan = plan_session_launch(
      pending, "k", {"claude", "--session-id", "s-9", "--resume", "old", "-p", "x"},
      "--append-system-prompt", claude_profile());
  const std::string note = resume_note(ResumeReason::restart_timeout, "s-1");
  CHECK(plan.command == std::vector<std::string>{"claude", "--resume", "s-1",
                                                 "--append-system-prompt", note, "-p", "x"});
  CHECK(plan.environment == std::vector<std::string>{"FLEET_RESUME_REASON=restart_timeout",
                                                     "FLEET_RESUME_NOTE=" + note,
                                                     "FLEET_RESUME_SESSION_ID=s-1"});
  CHECK(plan.notice == "session k resumes s-1 (restart_timeout)");
  // Resumed: the recorded state is kept as it is until the run ends.
  CHECK(state_at_launch(pending, "k", plan.kind, "s-1") == pending);

  const SessionState suspended{"k", "s-1", SessionStatus::suspended, ResumeReason::restart_timeout,
                               "t", 3};
  const SessionLaunch fresh = plan_session_launch(
      suspended, "k", {"claude", "--resume", "s-1", "-p", "x"}, "", claude_profile());
  CHECK(fresh.kind == SessionLaunch::Kind::fresh_after_suspension);
  CHECK(fresh.command == std::vector<std::string>{"claude", "-p", "x"});
  CHECK(fresh.notice ==
        "session k is suspended after 3 interrupted restarts; starting a fresh session instead "
        "of resuming s-1");
  CHECK(state_at_launch(suspended, "k", fresh.kind, "s-2") ==
        SessionState{"k", "s-2", SessionStatus::active, ResumeReason::none, "", 0});
}

TEST_CASE("session_state: the store") {
  fleet::test::TempDir tmp;
  CHECK_THROWS_AS(SessionStore(tmp.path(), "../k"), Error);
  const SessionStore store(tmp.path(), "k");
  CHECK_FALSE(store.read());
  const SessionState state{"k", "s-1", SessionStatus::active, ResumeReason::none, "", 0};
  store.write(state);
  CHECK(store.read() == state);
  fleet::test::write_file(store.path(), "garbage");
  CHECK_THROWS_AS(store.read(), Error);
}
