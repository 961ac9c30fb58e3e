#include "session_state.h"

#include <doctest/doctest.h>

#include "error.h"
#include "temp_dir.h"

using namespace fleet;

TEST_CASE("session_state: JSON round trip and invalid records") {
  SessionState state{
      "k", "s-1", "resume_pending", "restart_timeout", "2026-11-22T00:00:00.000000+00:00", 2};
  std::string problem;
  const auto parsed = parse_session_state(session_state_json(state), problem);
  REQUIRE_MESSAGE(parsed, problem);
  CHECK(*parsed == state);
  CHECK_FALSE(parse_session_state("{", problem));
  CHECK_FALSE(parse_session_state(R"({"session_key":"k"})", problem));
  std::string bad_state = session_state_json(state);
  bad_state.replace(bad_state.find("resume_pending"), 14, "sleeping");
  CHECK_FALSE(parse_session_state(bad_state, problem));
  CHECK(problem.find("sleeping") != std::string::npos);
}

TEST_CASE("session_state: transitions") {
  CHECK(plan_launch(std::nullopt).kind == LaunchPlan::Kind::fresh);
  SessionState state{"k", "s-1", "active", "", "", 0};
  CHECK(plan_launch(state).kind == LaunchPlan::Kind::fresh);
  mark_drain_timeout(state, "shutdown_timeout", 3, "t1");
  CHECK(state.state == "resume_pending");
  CHECK(state.restart_failure_count == 1);
  const LaunchPlan plan = plan_launch(state);
  CHECK(plan.kind == LaunchPlan::Kind::resume);
  CHECK(plan.resume_id == "s-1");
  CHECK(plan.resume_reason == "shutdown_timeout");
  mark_drain_timeout(state, "restart_timeout", 3, "t2");
  CHECK(state.state == "resume_pending");
  mark_drain_timeout(state, "restart_timeout", 3, "t3");
  CHECK(state.state == "suspended");  // suspended wins over resume_pending
  CHECK(state.last_resume_marked_at == "t3");
  CHECK(plan_launch(state).kind == LaunchPlan::Kind::fresh_after_suspension);
  mark_success(state);
  CHECK(state.state == "active");
  CHECK(state.restart_failure_count == 0);
  CHECK(state.resume_reason.empty());
  CHECK(resume_note("restart_timeout", "s-1").find("restarted") != std::string::npos);
}

TEST_CASE("session_state: the store") {
  fleet::test::TempDir tmp;
  CHECK_THROWS_AS(SessionStore(tmp.path(), "../k"), Error);
  const SessionStore store(tmp.path(), "k");
  CHECK_FALSE(store.read());
  const SessionState state{"k", "s-1", "active", "", "", 0};
  store.write(state);
  CHECK(store.read() == state);
  fleet::test::write_file(store.path(), "garbage");
  CHECK_THROWS_AS(store.read(), Error);
}
