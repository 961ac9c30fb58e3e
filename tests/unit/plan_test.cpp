#include "launch/plan.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <memory>

#include "base/error.h"
#include "launch/command_line.h"

using namespace fleet;
using Argv = std::vector<std::string>;

namespace {

// Hands out s-new-1, s-new-2, ... so that assigned ids are predictable.
SessionIdSource counting_ids() {
  auto next = std::make_shared<int>(0);
  return [next] { return "s-new-" + std::to_string(++*next); };
}

SessionOptions keyed(std::string key = "k") {
  SessionOptions session;
  session.session_key = std::move(key);
  return session;
}

}  // namespace

TEST_CASE("plan: the session id comes from the option, the command or the resume") {
  const auto ids = counting_ids();
  SessionOptions session;
  LaunchPlan plan =
      plan_launch({"claude", "-p", "x"}, session, std::nullopt, ids, claude_profile());
  CHECK(plan.command == Argv{"claude", "-p", "x"});
  CHECK(plan.session_id.empty());
  CHECK(plan.resume_id.empty());
  CHECK_FALSE(plan.session_state);

  plan = plan_launch({"claude", "--session-id", "s-1", "-p", "x"}, session, std::nullopt, ids,
                     claude_profile());
  CHECK(plan.session_id == "s-1");

  plan = plan_launch({"claude", "--resume", "s-2", "-p", "x"}, session, std::nullopt, ids,
                     claude_profile());
  CHECK(plan.session_id == "s-2");
  CHECK(plan.resume_id == "s-2");

  session.session_id = "s-3";
  plan =
      plan_launch({"claude", "--session-id", "s-1"}, session, std::nullopt, ids, claude_profile());
  CHECK(plan.session_id == "s-3");
  CHECK(plan.command == Argv{"claude", "--session-id", "s-1"});  // the command is not rewritten
}

TEST_CASE("plan: --assign-session-id puts a new id after the program name") {
  const auto ids = counting_ids();
  SessionOptions session;
  session.assign_session_id = true;
  LaunchPlan plan =
      plan_launch({"claude", "-p", "x"}, session, std::nullopt, ids, claude_profile());
  CHECK(plan.session_id == "s-new-1");
  CHECK(plan.command == Argv{"claude", "--session-id", "s-new-1", "-p", "x"});
  // An id that is already known is kept.
  plan =
      plan_launch({"claude", "--session-id", "s-1"}, session, std::nullopt, ids, claude_profile());
  CHECK(plan.session_id == "s-1");
  CHECK(plan.command == Argv{"claude", "--session-id", "s-1"});
}

TEST_CASE("plan: a keyed session records itself active with the launch's id") {
  const auto ids = counting_ids();
  SessionOptions session = keyed();
  session.assign_session_id = true;
  const SessionState before{"k", "s-old", SessionStatus::active, ResumeReason::none, "t", 2};
  const LaunchPlan plan =
      plan_launch({"claude", "-p", "x"}, session, before, ids, claude_profile());
  CHECK(plan.command == Argv{"claude", "--session-id", "s-new-1", "-p", "x"});
  REQUIRE(plan.session_state);
  CHECK(*plan.session_state ==
        SessionState{"k", "s-new-1", SessionStatus::active, ResumeReason::none, "t", 2});
  CHECK_FALSE(plan.notice);
  CHECK(plan.environment == Argv{"FLEET_SESSION_ID=s-new-1"});
}

TEST_CASE("plan: a pending session is resumed with its reason and note") {
  const auto ids = counting_ids();
  SessionOptions session = keyed();
  session.assign_session_id = true;
  session.resume_note_arg = "--append-system-prompt";
  const SessionState pending{
      "k", "s-1", SessionStatus::resume_pending, ResumeReason::shutdown_timeout, "t", 1};
  const LaunchPlan plan = plan_launch({"claude", "--session-id", "s-9", "-p", "x"}, session,
                                      pending, ids, claude_profile());
  const std::string note = resume_note(ResumeReason::shutdown_timeout, "s-1");
  CHECK(plan.command ==
        Argv{"claude", "--resume", "s-1", "--append-system-prompt", note, "-p", "x"});
  CHECK(plan.session_id == "s-1");
  CHECK(plan.resume_id == "s-1");
  CHECK(plan.environment == Argv{"FLEET_RESUME_REASON=shutdown_timeout",
                                 "FLEET_RESUME_NOTE=" + note, "FLEET_RESUME_SESSION_ID=s-1",
                                 "FLEET_SESSION_ID=s-1"});
  CHECK(plan.notice == "session k resumes s-1 (shutdown_timeout)");
  CHECK(plan.session_state == pending);  // unchanged until the run ends
}

TEST_CASE("plan: a suspended session starts fresh with a new id") {
  const auto ids = counting_ids();
  const SessionState suspended{"k", "s-1", SessionStatus::suspended, ResumeReason::restart_timeout,
                               "t", 3};
  const LaunchPlan plan = plan_launch({"claude", "--resume", "s-1", "-p", "x"}, keyed(), suspended,
                                      ids, claude_profile());
  CHECK(plan.command == Argv{"claude", "--session-id", "s-new-1", "-p", "x"});
  CHECK(plan.session_id == "s-new-1");
  CHECK(plan.resume_id.empty());
  CHECK(plan.notice.value_or("").find("is suspended after 3 interrupted restarts") !=
        std::string::npos);
  CHECK(plan.session_state ==
        SessionState{"k", "s-new-1", SessionStatus::active, ResumeReason::none, "", 0});
}

TEST_CASE("plan: a stale resume is retried as a fresh session") {
  const auto ids = counting_ids();
  const LaunchPlan stale = plan_launch({"claude", "--resume", "s-1", "-p", "x"}, SessionOptions{},
                                       std::nullopt, ids, claude_profile());
  CHECK(resumes_session(stale.command, claude_profile()));
  LaunchPlan fresh = fresh_session_plan(stale, false, ids, claude_profile());
  CHECK(fresh.command == Argv{"claude", "-p", "x"});
  CHECK(fresh.session_id.empty());
  CHECK(fresh.resume_id.empty());
  CHECK_FALSE(resumes_session(fresh.command, claude_profile()));
  fresh = fresh_session_plan(stale, true, ids, claude_profile());
  CHECK(fresh.command == Argv{"claude", "--session-id", "s-new-1", "-p", "x"});
  CHECK(fresh.session_id == "s-new-1");
  for (const Argv& command : {Argv{"claude", "-r", "s"}, Argv{"claude", "--resume=s"},
                              Argv{"claude", "--continue"}, Argv{"claude", "-c", "-p", "x"}}) {
    CHECK(resumes_session(command, claude_profile()));
  }
}

TEST_CASE("plan: check_plan names what is missing") {
  const auto ids = counting_ids();
  LaunchOptions options;
  options.agent = &fleet::claude_profile();
  options.command = {"claude", "-p", "x"};
  const auto record = [](const std::string& id) {
    return ProvenanceRecord{id, "c0ffee00-0000-4000-8000-000000000001", "k1", "", "",
                            "", "2026-11-22T00:00:00.000000+00:00"};
  };
  LaunchPlan plan =
      plan_launch(options.command, options.session, std::nullopt, ids, claude_profile());
  CHECK_NOTHROW(check_plan(options, plan, "", record));

  options.provenance.record = true;
  CHECK_THROWS_WITH_AS(check_plan(options, plan, "", record), doctest::Contains("needs the caller"),
                       Error);
  CHECK_THROWS_WITH_AS(check_plan(options, plan, "caller", record),
                       doctest::Contains("needs the session id"), Error);
  plan.session_id = "s-1";
  CHECK_NOTHROW(check_plan(options, plan, "caller", record));

  options.provenance.record = false;
  options.completion.marker = "%%DONE%%";
  plan.session_id.clear();
  CHECK_THROWS_WITH_AS(check_plan(options, plan, "", record),
                       doctest::Contains("--completion-marker needs the transcript"), Error);
  options.completion.session_log = "/tmp/t.jsonl";
  CHECK_NOTHROW(check_plan(options, plan, "", record));

  plan.session_id = "../escape";
  CHECK_THROWS_AS(check_plan(options, plan, "", record), Error);
}

TEST_CASE("plan: a CLI that reports completion on stdout needs its command to print it") {
  AgentProfile agent = claude_profile();
  agent.completion = {"result", "", "", "", {"result", ""}, ""};
  agent.completion_on_stdout = {"--output-format", "-o", "stream-json"};
  LaunchOptions options;
  options.agent = &agent;
  options.completion.marker = "%%DONE%%";
  const auto record = [](const std::string& id) {
    ProvenanceRecord found;
    found.session_id = id;
    return found;
  };
  const auto plan_of = [&](const Argv& command) {
    options.command = command;
    return plan_launch(command, options.session, std::nullopt, counting_ids(), agent);
  };
  // No session id is needed: the watch reads stdout.
  CHECK_NOTHROW(
      check_plan(options, plan_of({"claude", "-o", "stream-json", "-p", "x"}), "", record));
  CHECK_NOTHROW(
      check_plan(options, plan_of({"claude", "--output-format=stream-json"}), "", record));
  CHECK_THROWS_WITH_AS(
      check_plan(options, plan_of({"claude", "-o", "json", "-p", "x"}), "", record),
      doctest::Contains("add --output-format stream-json to the command"), Error);
  CHECK_THROWS_AS(check_plan(options, plan_of({"claude", "-p", "x"}), "", record), Error);
  // Not the CLI's own command (a script around it): its output is its own business.
  CHECK_NOTHROW(check_plan(options, plan_of({"./run-agent.sh", "x"}), "", record));
  // A file named with --session-log is watched instead.
  options.completion.session_log = "/tmp/t.jsonl";
  CHECK_NOTHROW(check_plan(options, plan_of({"claude", "-p", "x"}), "", record));
}

TEST_CASE("plan: a CLI that picks its own id is told the flag that prints it, as typed") {
  const auto ids = counting_ids();
  const AgentProfile& opencode = *find_agent_profile("opencode");
  LaunchPlan plan = plan_launch({"opencode", "run", "x"}, {}, std::nullopt, ids, opencode);
  CHECK(plan.capture_session_id);
  CHECK(plan.notice.value_or("").find("add --format json to the command") != std::string::npos);
  for (const Argv& command : {Argv{"opencode", "run", "--format", "json", "x"},
                              Argv{"opencode", "run", "--format=json", "x"}}) {
    plan = plan_launch(command, {}, std::nullopt, ids, opencode);
    CHECK(plan.capture_session_id);
    CHECK_FALSE(plan.notice);
  }
  plan = plan_launch({"codex", "exec", "--json", "x"}, {}, std::nullopt, ids,
                     *find_agent_profile("codex"));
  CHECK_FALSE(plan.notice);
}
