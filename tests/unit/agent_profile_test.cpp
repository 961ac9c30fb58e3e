#include "agent/agent_profile.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <memory>

#include "agent/agent_cli.h"
#include "agents/agent_texts.h"
#include "base/error.h"
#include "launch/command_line.h"
#include "launch/completion_marker.h"
#include "launch/error_class.h"
#include "launch/plan.h"
#include "launch/retry_policy.h"

using namespace fleet;
using Argv = std::vector<std::string>;

namespace {

SessionIdSource counting_ids() {
  auto next = std::make_shared<int>(0);
  return [next] { return "s-new-" + std::to_string(++*next); };
}

const AgentProfile& profile(std::string_view name) {
  const AgentProfile* found = find_agent_profile(name);
  REQUIRE(found != nullptr);
  return *found;
}

// One CLI's command lines: a fresh run, the same run resuming "s-1", and what --assign-session-id
// makes of the fresh run ("" id when the CLI picks its own).
struct PlanCase {
  std::string_view agent;
  Argv fresh;
  Argv resuming;
  Argv assigned;
  std::string assigned_id;
};

const PlanCase kPlanCases[] = {
    {"claude",
     {"claude", "-p", "go"},
     {"claude", "--resume", "s-1", "-p", "go"},
     {"claude", "--session-id", "s-new-1", "-p", "go"},
     "s-new-1"},
    {"codex",
     {"codex", "exec", "--json", "go"},
     {"codex", "exec", "resume", "s-1", "--json", "go"},
     {"codex", "exec", "--json", "go"},
     ""},
    {"gemini",
     {"gemini", "-p", "go"},
     {"gemini", "--resume", "s-1", "-p", "go"},
     {"gemini", "--session-id", "s-new-1", "-p", "go"},
     "s-new-1"},
    {"copilot",
     {"copilot", "-p", "go"},
     {"copilot", "--resume", "s-1", "-p", "go"},
     {"copilot", "--session-id", "s-new-1", "-p", "go"},
     "s-new-1"},
    // OpenCode 1.18.33 takes --session before its subcommand too (run here: an unknown id gave
    // "Error: Session not found" in both places).
    {"opencode",
     {"opencode", "run", "--format", "json", "go"},
     {"opencode", "--session", "s-1", "run", "--format", "json", "go"},
     {"opencode", "run", "--format", "json", "go"},
     ""},
};

}  // namespace

TEST_CASE("agent_profile: every agent CLI the hooks know has a launch profile") {
  for (const AgentCli* cli : agent_clis()) {
    const AgentProfile* found = find_agent_profile(cli->name);
    REQUIRE_MESSAGE(found != nullptr, cli->name);
    CHECK(found->display_name == cli->display_name);
  }
  CHECK(&claude_profile() == agent_profiles().front());
  CHECK(find_agent_profile("vim") == nullptr);
}

TEST_CASE("agent_profile: launch plan - assigned or captured id, resume form, fresh retry") {
  for (const PlanCase& c : kPlanCases) {
    CAPTURE(c.agent);
    const AgentProfile& agent = profile(c.agent);
    SessionOptions session;
    session.assign_session_id = true;
    LaunchPlan plan = plan_launch(c.fresh, session, std::nullopt, counting_ids(), agent);
    CHECK(plan.command == c.assigned);
    CHECK(plan.session_id == c.assigned_id);
    CHECK(plan.capture_session_id == c.assigned_id.empty());

    plan = plan_launch(c.resuming, SessionOptions{}, std::nullopt, counting_ids(), agent);
    CHECK(plan.resume_id == "s-1");
    CHECK(plan.session_id == "s-1");
    CHECK(resumes_session(c.resuming, agent));
    CHECK(with_resume(c.fresh, agent, "s-1") == c.resuming);
    CHECK(without_resume(c.resuming, agent) == c.fresh);
    // The stale-session retry runs the fresh command (with a new id where one is assigned).
    const LaunchPlan fresh = fresh_session_plan(plan, true, counting_ids(), agent);
    CHECK(fresh.command == c.assigned);
    CHECK(fresh.resume_id.empty());
  }
}

TEST_CASE("agent_profile: launch plan - a pending keyed session resumes in the CLI's form") {
  const SessionState pending{
      "k", "s-1", SessionStatus::resume_pending, ResumeReason::shutdown_timeout, "t", 1};
  SessionOptions session;
  session.session_key = "k";
  for (const PlanCase& c : kPlanCases) {
    CAPTURE(c.agent);
    const LaunchPlan plan =
        plan_launch(c.fresh, session, pending, counting_ids(), profile(c.agent));
    CHECK(plan.command == c.resuming);
    CHECK(plan.resume_id == "s-1");
  }
}

TEST_CASE("agent_profile: launch plan - a command that is not the CLI's is never rewritten") {
  const Argv shell = {"/bin/sh", "-c", "exec claude -p go \"$@\"", "sh"};
  const SessionState pending{
      "k", "s-1", SessionStatus::resume_pending, ResumeReason::shutdown_timeout, "t", 1};
  for (const PlanCase& c : kPlanCases) {
    CAPTURE(c.agent);
    const AgentProfile& agent = profile(c.agent);
    CHECK_FALSE(is_agent_command(shell, agent));
    SessionOptions session;
    session.assign_session_id = true;
    LaunchPlan plan = plan_launch(shell, session, std::nullopt, counting_ids(), agent);
    CHECK(plan.command == shell);
    if (!c.assigned_id.empty()) {
      CHECK(plan.environment == Argv{"FLEET_SESSION_ID=" + c.assigned_id});
      REQUIRE(plan.notice);
      CHECK(plan.notice->find("FLEET_SESSION_ID") != std::string::npos);
    }
    session.session_key.assign(1, 'k');
    const Argv resuming = {"/bin/sh", "-c", "exec claude -p go \"$@\"", "sh", "--resume", "x"};
    plan = plan_launch(resuming, session, pending, counting_ids(), agent);
    CHECK(plan.command == resuming);
    CHECK(plan.resume_id == "s-1");
    CHECK(std::find(plan.environment.begin(), plan.environment.end(),
                    "FLEET_RESUME_SESSION_ID=s-1") != plan.environment.end());
  }
  // Codex's resume is a subcommand of exec, exec's options before it or not; its id is the
  // first word after it that is not an option.
  const AgentProfile& codex = profile("codex");
  const Argv late = {"codex", "exec", "--json", "--skip-git-repo-check", "resume", "s-1", "go on"};
  CHECK(resumed_session_id(late, codex) == "s-1");
  CHECK(without_resume(late, codex) ==
        Argv{"codex", "exec", "--json", "--skip-git-repo-check", "go on"});
  CHECK(without_resume({"codex", "exec", "resume", "--last", "go"}, codex) ==
        Argv{"codex", "exec", "go"});
  CHECK_FALSE(resumed_session_id({"codex", "exec", "resume", "--last", "--json"}, codex));
  // `codex` without exec is not a command it can resume.
  CHECK_FALSE(is_agent_command({"codex", "--version"}, profile("codex")));
  CHECK(is_agent_command({"/usr/bin/codex", "exec", "go"}, profile("codex")));
  CHECK(is_agent_command({"claude.exe", "-p", "go"}, profile("claude")));
}

TEST_CASE("agent_profile: launch plan - a Codex command without --json is told its id is lost") {
  const AgentProfile& codex = profile("codex");
  LaunchPlan plan =
      plan_launch({"codex", "exec", "go"}, SessionOptions{}, std::nullopt, counting_ids(), codex);
  CHECK(plan.capture_session_id);
  REQUIRE(plan.notice);
  CHECK(plan.notice->find("add --json") != std::string::npos);
  plan = plan_launch({"codex", "exec", "--json", "go"}, SessionOptions{}, std::nullopt,
                     counting_ids(), codex);
  CHECK_FALSE(plan.notice);
}

TEST_CASE("agent_profile: launch plan - --session-id cannot name a new Codex session") {
  LaunchOptions options;
  options.agent = &profile("codex");
  options.session.session_id = "019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88";
  options.command = {"codex", "exec", "--json", "go"};
  const auto record = [](const std::string& id) {
    return ProvenanceRecord{id, "c", "", "", "", "", ""};
  };
  LaunchPlan plan =
      plan_launch(options.command, options.session, std::nullopt, counting_ids(), *options.agent);
  CHECK_THROWS_WITH_AS(check_plan(options, plan, "", record), doctest::Contains("picks its own id"),
                       Error);
  // Resuming it is what the id is for.
  options.command = {"codex", "exec", "resume", "019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88", "go"};
  plan =
      plan_launch(options.command, options.session, std::nullopt, counting_ids(), *options.agent);
  CHECK_NOTHROW(check_plan(options, plan, "", record));
  options.agent = &profile("gemini");
  options.command = {"gemini", "-p", "go"};
  plan =
      plan_launch(options.command, options.session, std::nullopt, counting_ids(), *options.agent);
  CHECK_NOTHROW(check_plan(options, plan, "", record));
}

namespace {

struct ErrorCase {
  std::string_view agent;
  int exit_status;
  std::string_view tail;
  ErrorClass expected;
  bool not_retried;  // the summary says why a failure that asked for a retry was not retried
};

const ErrorCase kErrorCases[] = {
    {"claude", 1, "No conversation found with session ID: s-1", ErrorClass::stale_session, false},
    {"claude", 1, "API Error: 529 overloaded", ErrorClass::retryable, false},
    {"claude", 1, "Error: invalid API key", ErrorClass::fatal, false},
    {"codex", 1, "Error: thread/resume failed: no rollout found for thread id s-1",
     ErrorClass::stale_session, false},
    {"codex", 1, "ERROR: exceeded retry limit, last status: 429 Too Many Requests",
     ErrorClass::retryable, false},
    {"codex", 1, "ERROR: unexpected status 503 Service Unavailable: busy", ErrorClass::retryable,
     false},
    {"codex", 1, "ERROR: stream disconnected before completion: eof", ErrorClass::retryable, false},
    {"codex", 1, "ERROR: unexpected status 401 Unauthorized: bad key", ErrorClass::fatal, false},
    {"codex", 1, "Missing environment variable: `OPENAI_API_KEY`", ErrorClass::fatal, false},
    {"gemini", 1, "Invalid session identifier \"s-1\".", ErrorClass::stale_session, false},
    {"gemini", 41, "auth failed", ErrorClass::fatal, false},
    {"gemini", 55, "untrusted", ErrorClass::fatal, false},
    {"gemini", 130, "", ErrorClass::fatal, false},
    {"gemini", 429 % 256, "Attempt 10 failed with status 429. Retrying with backoff...",
     ErrorClass::fatal, true},
    {"gemini", 503 % 256, "status 503 UNAVAILABLE", ErrorClass::fatal, true},
    {"gemini", 401 % 256, "API error 401", ErrorClass::fatal, false},
    {"copilot", 1, "Error: No session, task, or name matched 's-1'.", ErrorClass::stale_session,
     false},
    {"opencode", 1, "\x1b[91m\x1b[1mError: \x1b[0mSession not found", ErrorClass::stale_session,
     false},
};

}  // namespace

TEST_CASE("agent_profile: retry classes come from each CLI's error texts and exit statuses") {
  for (const ErrorCase& c : kErrorCases) {
    CAPTURE(c.agent);
    CAPTURE(c.tail);
    const AgentProfile& agent = profile(c.agent);
    CHECK(classify_failure(c.tail, c.exit_status, agent.errors).error_class == c.expected);
    AttemptResult attempt;
    attempt.pid = 1;
    attempt.exit_code = c.exit_status;
    attempt.stderr_tail = std::string(c.tail);
    const Argv command = {std::string(agent.programs.front()), "-p", "go"};
    const RetryDecision d =
        decide_retry(attempt, 1, RetryOptions{3, 1.0}, false, false, command, agent);
    CHECK(d.failure == c.expected);
    CHECK((d.step == RetryStep::backoff) == (c.expected == ErrorClass::retryable));
    CHECK(d.not_retried.empty() != c.not_retried);
  }
}

namespace {

struct CompletionCase {
  std::string_view agent;
  std::string_view line;
  bool completes;
};

const CompletionCase kCompletionCases[] = {
    {"claude",
     R"({"type":"assistant","message":{"content":[{"type":"text","text":"ok\n%%DONE%%"}]}})", true},
    {"claude", R"({"type":"user","message":{"content":"%%DONE%%"}})", false},
    {"codex",
     R"({"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","last_agent_message":"ok\n%%DONE%%"}})",
     true},
    {"codex",
     R"({"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"%%DONE%%"}})",
     false},
    {"codex",
     R"({"timestamp":"t","type":"response_item","payload":{"type":"message","content":[{"type":"output_text","text":"%%DONE%%"}]}})",
     false},
    {"codex",
     R"({"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","last_agent_message":null}})",
     false},
    {"gemini", R"({"id":"m2","timestamp":"t","type":"gemini","content":"ok\n%%DONE%%"})", true},
    {"gemini", R"({"id":"m1","timestamp":"t","type":"user","content":[{"text":"%%DONE%%"}]})",
     false},
    {"gemini", R"({"$set":{"sessionId":"%%DONE%%"}})", false},
    // A resume repeats the earlier messages, the old answer among them, inside a $set.
    {"gemini",
     R"({"$set":{"messages":[{"id":"m2","type":"gemini","content":[{"text":"%%DONE%%"}]}]}})",
     false},
    {"copilot",
     R"({"type":"assistant.message","data":{"messageId":"m","content":"ok\n%%DONE%%"},"id":"e"})",
     true},
    {"copilot", R"({"type":"user.message","data":{"content":"say %%DONE%%"},"id":"e"})", false},
    // OpenCode 1.18.33 `run --format json` prints a text part once it has ended.
    {"opencode",
     R"({"type":"text","timestamp":1,"sessionID":"ses_1","part":{"type":"text","text":"ok\n%%DONE%%","time":{"start":1,"end":2}}})",
     true},
    {"opencode",
     R"({"type":"tool_use","timestamp":1,"sessionID":"ses_1","part":{"type":"tool","state":{"input":{"prompt":"%%DONE%%"}}}})",
     false},
    {"opencode",
     R"({"type":"step_finish","timestamp":1,"sessionID":"ses_1","part":{"type":"step-finish","reason":"stop","text":"%%DONE%%"}})",
     false},
};

}  // namespace

TEST_CASE("agent_profile: completion records - only each CLI's finished answer counts") {
  for (const CompletionCase& c : kCompletionCases) {
    CAPTURE(c.line);
    const MarkerRule rule{"%%DONE%%", "", false, &profile(c.agent).completion};
    CHECK(record_has_marker(c.line, rule) == c.completes);
  }
}

TEST_CASE("agent_profile: --session-log's help names where each CLI records its turns") {
  const std::string text = session_files_text();
  CAPTURE(text);
  for (const AgentProfile* agent : agent_profiles()) {
    CAPTURE(agent->name);
    CHECK((agent->session_file == nullptr) == agent->session_file_shown.empty());
    if (agent->session_file != nullptr)
      CHECK(text.find(std::string(agent->name) + ": " + std::string(agent->session_file_shown)) !=
            std::string::npos);
    else
      CHECK(text.find(std::string(agent->name)) > text.rfind("; "));
  }
  CHECK(text.starts_with("claude: ~/.claude/projects/<munged cwd>/<session id>.jsonl; codex: "));
  CHECK(text.ends_with("qwen and opencode: their stdout"));
}
