#include "launch/retry_policy.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

using namespace fleet;

namespace {

AttemptResult failed(int exit_code, std::string tail) {
  AttemptResult attempt;
  attempt.pid = 100;
  attempt.exit_code = exit_code;
  attempt.stderr_tail = std::move(tail);
  return attempt;
}

const std::vector<std::string> kFresh = {"claude", "-p", "hi"};
const std::vector<std::string> kResuming = {"claude", "--resume", "s-1", "-p", "hi"};

RetryOptions retries(int n, double backoff = 1.0) {
  return RetryOptions{n, backoff};
}

}  // namespace

TEST_CASE("retry_policy: success and fatal failures finish") {
  AttemptResult ok = failed(0, "API Error: 529");
  RetryDecision d = decide_retry(ok, 1, retries(3), false, false, kFresh, claude_profile());
  CHECK(d.step == RetryStep::finish);
  CHECK_FALSE(d.failure);
  CHECK_FALSE(d.notice);

  d = decide_retry(failed(1, "SyntaxError"), 1, retries(3), false, false, kFresh, claude_profile());
  CHECK(d.step == RetryStep::finish);
  CHECK(d.failure == ErrorClass::fatal);
  CHECK_FALSE(d.notice);
}

TEST_CASE("retry_policy: a retryable failure backs off exponentially while retries are left") {
  const AttemptResult attempt = failed(1, "API Error: 529 overloaded");
  RetryDecision d =
      decide_retry(attempt, 1, retries(3, 0.5), false, false, kFresh, claude_profile());
  CHECK(d.step == RetryStep::backoff);
  CHECK(d.failure == ErrorClass::retryable);
  CHECK(d.delay_seconds == doctest::Approx(0.5));
  CHECK(d.notice == "attempt 1 failed with a retryable error (exit 1); retrying in 0.5 s");
  d = decide_retry(attempt, 3, retries(3, 0.5), false, false, kFresh, claude_profile());
  CHECK(d.step == RetryStep::backoff);
  CHECK(d.delay_seconds == doctest::Approx(2.0));
  // Attempt 4 after 3 retries: none left, and not classified.
  d = decide_retry(attempt, 4, retries(3, 0.5), false, false, kFresh, claude_profile());
  CHECK(d.step == RetryStep::finish);
  CHECK_FALSE(d.failure);
}

TEST_CASE("retry_policy: a stop is never undone by a retry") {
  for (const KillReason reason :
       {KillReason::signal, KillReason::killed, KillReason::superseded, KillReason::output_closed,
        KillReason::exec_failed, KillReason::drain_timeout}) {
    AttemptResult attempt = failed(1, "API Error: 529");
    attempt.kill_reason = reason;
    const RetryDecision d =
        decide_retry(attempt, 1, retries(3), false, false, kResuming, claude_profile());
    CHECK_MESSAGE(d.step == RetryStep::finish, to_string(reason));
    CHECK_FALSE(d.failure);
  }
  // A drain that the agent survived by exiting on its own is a stop too.
  AttemptResult drained = failed(1, "API Error: 529");
  drained.ended_by_signal = true;
  CHECK(decide_retry(drained, 1, retries(3), false, false, kFresh, claude_profile()).step ==
        RetryStep::finish);
}

TEST_CASE("retry_policy: no retry once the wrapper's parent is gone") {
  const RetryDecision d = decide_retry(failed(1, "API Error: 529"), 2, retries(3), true, false,
                                       kFresh, claude_profile());
  CHECK(d.step == RetryStep::finish);
  CHECK_FALSE(d.failure);
  CHECK(d.notice == "attempt 2 failed and the wrapper's parent is gone: no retry");
}

TEST_CASE("retry_policy: a stale resume is retried once as a fresh session") {
  const AttemptResult stale = failed(1, "No conversation found with session ID: s-1");
  RetryDecision d = decide_retry(stale, 1, retries(2), false, false, kResuming, claude_profile());
  CHECK(d.step == RetryStep::fresh_session);
  CHECK(d.failure == ErrorClass::stale_session);
  CHECK(d.notice ==
        "attempt 1 failed: the resumed session no longer exists; retrying as a fresh session");
  // Once only, and only for a command that resumes.
  d = decide_retry(stale, 2, retries(2), false, true, kResuming, claude_profile());
  CHECK(d.step == RetryStep::finish);
  CHECK(d.failure == ErrorClass::stale_session);
  CHECK(decide_retry(stale, 1, retries(2), false, false, kFresh, claude_profile()).step ==
        RetryStep::finish);
}

TEST_CASE("retry_policy: a stale resume of a command that is not Claude Code is not retried") {
  const AttemptResult stale = failed(1, "No conversation found with session ID: s-1");
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"sh", "-c", "claude --resume s-1 -p hi"},
        std::vector<std::string>{"/usr/bin/npx", "claude", "--resume", "s-1"},
        std::vector<std::string>{"./claude-wrapper", "--resume", "s-1"}}) {
    const RetryDecision d =
        decide_retry(stale, 1, retries(2), false, false, command, claude_profile());
    CHECK_MESSAGE(d.step == RetryStep::finish, command.front());
    CHECK(d.failure == ErrorClass::stale_session);
    CHECK(d.not_retried == "a stale-session retry rewrites only a Claude Code command line ('" +
                               command.front() + "' is not claude)");
    REQUIRE(d.notice);
    CHECK(d.notice->find("no retry") != std::string::npos);
  }
  for (const std::string program : {"claude", "/opt/bin/claude", "bin/claude.exe"}) {
    const RetryDecision d =
        decide_retry(stale, 1, retries(2), false, false, {program, "--resume", "s-1", "-p", "hi"},
                     claude_profile());
    CHECK_MESSAGE(d.step == RetryStep::fresh_session, program);
    CHECK(d.not_retried.empty());
  }
}
