#pragma once
// Test support for the end-to-end tests: the real Claude Code CLI that tests/e2e/setup.sh
// installed, and the scripted Messages API it talks to on loopback
// (tests/e2e/fixtures/mock_api.mjs).

#include <rapidjson/document.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "process.h"

namespace fleet::test {

// The command of the agent CLI `name` (claude, codex, gemini) that tests/e2e/setup.sh recorded
// in `cache_dir` (tests/e2e/.cache); when there is none, prints why and exits with kSkipped,
// which CTest reports as a skipped test — or, where the environment variable CI is set, with
// 1: a CI runner fails rather than skip a test for want of a CLI.
std::string cli_or_skip(const std::string& cache_dir, const std::string& name);

// cli_or_skip(cache_dir, "claude").
std::string claude_or_skip(const std::string& cache_dir);

// The launch-wrapper options every test dispatcher adds (FLEET_DISPATCH_WRAPPER_ARGS): one
// quick retry, and a short drain and grace after a completion marker.
inline constexpr const char* kDispatcherWrapperArgs =
    R"(["--retries","1","--backoff","0.1","--drain","3","--grace","2"])";

// Writes the --mcp-config file at `path` that runs the MCP dispatcher
// (the script `dispatcher`, with node) as the stdio server "kitchen" with `env`;
// returns `path`.
std::string write_dispatcher_config(const std::string& path, const std::string& dispatcher,
                                    const std::vector<std::pair<std::string, std::string>>& env);

// One run of `claude -p ... --output-format stream-json --verbose`.
struct ClaudeRun {
  RunResult process;
  rapidjson::Document output;  // the final "result" event
  // The "system" events Claude Code streamed, e.g. a hook's systemMessage shown to the user.
  std::string system_events;
  // How many tool calls Claude Code denied (its permission_denials), and the tool of the i-th.
  std::size_t denials() const;
  std::string denied_tool(std::size_t i) const;
};

// Runs the Claude Code command line `argv` with `options`; REQUIREs its "result" event.
ClaudeRun run_claude(const std::vector<std::string>& argv, const RunOptions& options);

// A turn of the mock API's script: the model calls `tool` with `input_json`.
std::string dispatch_turn(const std::string& input_json, const std::string& tool = kDispatchTool);

// The mock Messages API, run with node from `fixtures_dir`; its script, port file and request
// log (api.jsonl) live in `dir`. It answers "ok" until script() gives it rules.
class MockMessagesApi {
 public:
  MockMessagesApi(const std::string& fixtures_dir, const std::string& dir);  // REQUIREs it listens
  void script(const std::string& json) const;
  const std::string& port() const { return port_; }
  // The environment that points Claude Code at this API (with a test key, no other traffic).
  std::vector<std::pair<std::string, std::string>> client_env() const;
  // The text of every tool_result Claude Code sent back to the model so far, a line each.
  std::string tool_results() const;

 private:
  std::string dir_;
  std::unique_ptr<BackgroundProcess> server_;
  std::string port_;
};

}  // namespace fleet::test
