#include "launch/stdout_completion.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

#include <string>

using namespace fleet;

namespace {

// Qwen Code 0.24.4's `-o stream-json` events: the turn's answer as an "assistant" event, then
// {"type":"result","result":<the answer>} once the turn is finished.
constexpr CompletionRecordForm kResultEvent = {"result", "", "", "", {"result", ""}, ""};

MarkerRule rule(bool anywhere = false) {
  return {"%%DONE%%", "", anywhere, &kResultEvent};
}

bool completes(StdoutCompletion& watch, const std::string& out, std::size_t piece) {
  for (std::size_t at = 0; at < out.size(); at += piece)
    watch.feed(out.data() + at, std::min(piece, out.size() - at));
  return watch.check();
}

}  // namespace

TEST_CASE("stdout_completion: the result event holding the marker completes, in any pieces") {
  const std::string out =
      R"({"type":"system","subtype":"init","session_id":"s-1"})"
      "\n"
      R"({"type":"assistant","message":{"content":[{"type":"text","text":"%%DONE%%"}]}})"
      "\n"
      R"({"type":"result","subtype":"success","is_error":false,"result":"all built\n%%DONE%%"})"
      "\n";
  for (const std::size_t piece : {std::size_t{1}, std::size_t{13}, out.size()}) {
    CAPTURE(piece);
    StdoutCompletion watch(rule());
    CHECK(completes(watch, out.substr(0, out.size() - 1), piece) == false);  // no newline yet
    CHECK(completes(watch, "\n", 1));
    CHECK(watch.check());  // stays seen
    CHECK(watch.fd() == -1);
    CHECK(watch.wait_ms() == -1);
  }
}

TEST_CASE("stdout_completion: other events, other text and the marker inside a line do not") {
  StdoutCompletion watch(rule());
  CHECK_FALSE(
      completes(watch,
                "%%DONE%%\n"
                R"({"type":"assistant","message":{"content":[{"type":"text","text":"%%DONE%%"}]}})"
                "\n"
                R"({"type":"result","result":"not done"})"
                "\n"
                R"({"type":"result","result":"said %%DONE%% too early"})"
                "\n",
                7));
  StdoutCompletion anywhere(rule(true));
  CHECK(completes(anywhere,
                  R"({"type":"result","result":"said %%DONE%% inside"})"
                  "\n",
                  5));
}

TEST_CASE("stdout_completion: the watch reads stdout only for a CLI that reports there") {
  CompletionOptions completion;
  completion.marker = "%%DONE%%";
  AgentProfile reports_on_stdout = claude_profile();
  reports_on_stdout.completion_on_stdout = {"--output-format", "-o", "stream-json"};
  CHECK(completes_on_stdout(completion, reports_on_stdout));
  CHECK_FALSE(completes_on_stdout(completion, claude_profile()));
  completion.session_log = "/tmp/transcript.jsonl";  // a file named: the file is watched
  CHECK_FALSE(completes_on_stdout(completion, reports_on_stdout));
}
