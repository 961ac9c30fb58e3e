#include "launch/session_id_capture.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

using namespace fleet;

TEST_CASE("session_id_capture: Codex's thread.started names the session, read in any pieces") {
  const AgentProfile& codex = *find_agent_profile("codex");
  const std::string out =
      "not json\n"
      R"({"type":"turn.started"})"
      "\n"
      R"({"type":"thread.started","thread_id":"019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88"})"
      "\n"
      R"({"type":"thread.started","thread_id":"019a8d2e-0000-7000-8000-000000000000"})"
      "\n";
  for (const std::size_t piece : {std::size_t{1}, std::size_t{7}, out.size()}) {
    CAPTURE(piece);
    SessionIdCapture capture(codex.session_id);
    int found = 0;
    for (std::size_t at = 0; at < out.size(); at += piece) {
      found += capture.feed(out.data() + at, std::min(piece, out.size() - at));
    }
    CHECK(found == 1);  // the first one names it, once
    CHECK(capture.id() == "019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88");
  }
}

TEST_CASE("session_id_capture: nothing is learned from other lines or other CLIs") {
  SessionIdCapture codex(find_agent_profile("codex")->session_id);
  const std::string lines = R"({"type":"thread.started","thread_id":"../x"})"
                            "\n"
                            R"({"type":"thread.started","thread_id":"019a8d2e-5b1c-7f20)";
  CHECK_FALSE(codex.feed(lines.data(), lines.size()));  // invalid id; no newline yet
  CHECK(codex.id().empty());
  SessionIdCapture claude(claude_profile().session_id);
  const std::string started =
      R"({"type":"thread.started","thread_id":"019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88"})"
      "\n";
  CHECK_FALSE(claude.feed(started.data(), started.size()));
  CHECK(claude.id().empty());
}

TEST_CASE("session_id_capture: the start hooks have run once a line follows turn.started") {
  SessionIdCapture capture(find_agent_profile("codex")->session_id);
  const std::string first =
      R"({"type":"thread.started","thread_id":"019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88"})"
      "\n"
      R"({"type":"item.completed","item":{"type":"error","message":"warning"}})"
      "\n"
      R"({"type":"turn.started"})"
      "\n";
  CHECK(capture.feed(first.data(), first.size()));
  CHECK_FALSE(capture.start_hooks_done());  // Codex runs them after printing turn.started
  const std::string next = R"({"type":"item.started","item":{"type":"command_execution"}})";
  capture.feed(next.data(), next.size());
  CHECK_FALSE(capture.start_hooks_done());  // not a complete line yet
  capture.feed("\n", 1);
  CHECK(capture.start_hooks_done());
  CHECK(capture.id() == "019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88");
}

TEST_CASE("session_id_capture: OpenCode's start hook ran before the line that names its session") {
  // The suite's plugin claims the launch in chat.message, before OpenCode's first model
  // request; the first step_start comes with that request's answer.
  SessionIdCapture capture(find_agent_profile("opencode")->session_id);
  const std::string step =
      R"({"type":"step_start","sessionID":"ses_de5591d66ffeX42VdPq2BLF4xe","part":{}})"
      "\n";
  CHECK(capture.feed(step.data(), step.size()));
  CHECK(capture.start_hooks_done());
  CHECK(capture.id() == "ses_de5591d66ffeX42VdPq2BLF4xe");
}
