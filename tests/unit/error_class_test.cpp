#include "launch/error_class.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <algorithm>
#include <string>
#include <utility>

#include "agent/agent_profile.h"

using namespace fleet;

namespace {

// A CLI's form that has only the generic rules.
constexpr ErrorForm kGenericOnly = {.texts = {}, .exits = {}, .generic_rules = true};

ErrorClass generic(std::string_view output) {
  return classify_failure(output, 1, kGenericOnly).error_class;
}

}  // namespace

TEST_CASE("error_class: each CLI's stale session text is read with its own form only") {
  for (const AgentProfile* agent : agent_profiles()) {
    CAPTURE(agent->name);
    const auto stale =
        std::ranges::find(agent->errors.texts, ErrorClass::stale_session, &ErrorText::error_class);
    REQUIRE(stale != agent->errors.texts.end());
    const std::string output = std::string(stale->text) + ": abc\n";
    CHECK(classify_failure(output, 1, agent->errors).error_class == ErrorClass::stale_session);
    for (const AgentProfile* other : agent_profiles()) {
      CAPTURE(other->name);
      if (std::ranges::find(other->errors.texts, stale->text, &ErrorText::text) !=
          other->errors.texts.end())
        continue;
      CHECK(classify_failure(output, 1, other->errors).error_class != ErrorClass::stale_session);
    }
  }
  // Claude Code's, as its users see it; Codex CLI's form does not know it.
  const std::string claude_stale = "No conversation found with session ID: abc\n";
  CHECK(classify_failure(claude_stale, 1, find_agent_profile("claude")->errors).error_class ==
        ErrorClass::stale_session);
  CHECK(classify_failure(claude_stale, 1, find_agent_profile("codex")->errors).error_class ==
        ErrorClass::fatal);
  CHECK(generic(claude_stale) == ErrorClass::fatal);
}

TEST_CASE("error_class: retryable API failures") {
  for (const std::string text :
       {"API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}",
        "API Error: 500 Internal server error", "HTTP 502 Bad Gateway", "status 503",
        "Error: 429 Too Many Requests", "Overloaded", "You hit the rate limit",
        "{\"type\":\"rate_limit_error\"}"}) {
    CHECK_MESSAGE(generic(text) == ErrorClass::retryable, text);
  }
}

TEST_CASE("error_class: everything else is fatal") {
  for (const std::string text :
       {"", "Error: invalid API key", "processed 500 files", "error code 5000", "api error 4290",
        "SyntaxError: unexpected token"}) {
    CHECK_MESSAGE(generic(text) == ErrorClass::fatal, text);
  }
  CHECK(to_string(ErrorClass::retryable) == "retryable");
  CHECK(to_string(ErrorClass::stale_session) == "stale_session");
  CHECK(to_string(ErrorClass::fatal) == "fatal");
}

TEST_CASE("error_class: only the CLI's own failure reports on stdout are read") {
  const auto profile = [](std::string_view name) { return find_agent_profile(name)->errors; };
  // A tool's output and an answer, as each CLI's JSON stream carries them.
  const std::string codex_items =
      R"({"type":"item.completed","item":{"type":"command_execution","aggregated_output":"500 passed","status":"completed"}})"
      "\n"
      R"({"type":"item.completed","item":{"type":"agent_message","text":"a rate limit"}})"
      "\n";
  const std::string claude_events =
      R"({"type":"user","message":{"content":[{"type":"tool_result","content":"HTTP 503 tests: ok"}]}})"
      "\n"
      R"({"type":"assistant","message":{"content":[{"type":"text","text":"overloaded queue"}]}})"
      "\n";
  const std::string gemini_events =
      R"({"type":"tool_result","output":"No previous sessions found for this project"})"
      "\n"
      R"({"type":"message","role":"assistant","content":"Invalid session identifier"})"
      "\n";
  for (const auto& [name, events] :
       {std::pair{"codex", codex_items}, std::pair{"claude", claude_events},
        std::pair{"gemini", gemini_events}}) {
    CAPTURE(name);
    const ErrorForm form = profile(name);
    CHECK(failure_output(events, "", form).empty());
    CHECK(classify_failure(failure_output(events, "", form), 1, form).error_class ==
          ErrorClass::fatal);
    // What the CLI says on stderr is read whole.
    CHECK(failure_output(events, "stream disconnected", form) == "stream disconnected");
  }
  // The CLI's own failure events are read.
  const std::string failed =
      R"({"type":"turn.failed","error":{"message":"exceeded retry limit, last status: 429"}})";
  CHECK(classify_failure(failure_output(codex_items + failed + "\n", "", profile("codex")), 1,
                         profile("codex"))
            .error_class == ErrorClass::retryable);
  const std::string result = R"({"type":"result","is_error":true,"result":"API Error: 529"})";
  CHECK(classify_failure(failure_output(claude_events + result, "", profile("claude")), 1,
                         profile("claude"))
            .error_class == ErrorClass::retryable);
  // Claude Code's -p prints its API failure as its answer: a plain line is read.
  CHECK(failure_output("API Error: 500 Internal server error\n", "", profile("claude")) ==
        "API Error: 500 Internal server error\n");
  CHECK(failure_output("The API rate limit is documented.\n", "", profile("codex")).empty());
}
