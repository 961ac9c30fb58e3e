// The dispatcher users copy (examples/dispatcher), driven as an agent CLI drives its MCP
// server: JSON-RPC lines on its stdin, started the way users start it (`npx <its folder>`,
// here offline from the folder itself), launching each worker through a shell. The agent CLI
// is stood in for by a process named gemini (tests/support/process.h, under_agent_cli) that
// runs resume-guard on the call first, as the CLI runs its pre-tool hook.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "fixtures.h"
#include "process.h"
#include "store/provenance_store.h"
#include "suite.h"
#include "temp_dir.h"

using namespace fleet::test;

namespace {

const std::string kCaller = "c0ffee00-0000-4000-8000-0000000000d1";

// The MCP requests of one dispatch call with `arguments`, as lines for the server's stdin.
std::string requests(const std::string& arguments) {
  return R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}})"
         "\n"
         R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"dispatch_food_truck",)"
         R"("arguments":)" +
         arguments + "}}\n";
}

struct ExampleFleet {
  TempDir tmp;
  std::string state = tmp / "state";
  std::string store = state + "/session_provenance.jsonl";
  std::string worker;
  std::string launcher;

  ExampleFleet() {
    REQUIRE(::mkdir(state.c_str(), 0700) == 0);
    REQUIRE(::mkdir((tmp / "home").c_str(), 0700) == 0);
    // Named claude: the assigned id goes on Claude Code's command line (--session-id <id>).
    worker = write_script(tmp / "claude", "grep -q \"\\\"session_id\\\":\\\"$2\\\"\" " + store +
                                              " && echo recorded-before-start $2\n");
    // Through a shell that waits for it (`sh -c "cd DIR && launch-wrapper …"`, Python's
    // shell=True): one more process between the launch and the CLI.
    launcher = write_script(tmp / "launch-through-a-shell",
                            std::string(FLEET_LAUNCH_WRAPPER) + " \"$@\"\nexit $?\n");
  }

  // The CLI stand-in: its hook judges `caller`'s fresh dispatch call (none when `caller` is
  // ""), then npx starts the dispatcher, which gets `input` on its stdin.
  RunResult dispatch(const std::string& caller, const std::string& input) {
    const std::string hook_input = tmp / "hook-input.json";
    write_file(hook_input, pre_tool_use(caller, ""));
    write_file(tmp / "requests", input);
    return run_process(
        under_agent_cli(
            tmp.path(), "qwen", {},
            {"/bin/sh", "-c",
             (caller.empty() ? std::string()
                             : std::string(FLEET_RESUME_GUARD) + " --state-dir " + state + " < " +
                                   hook_input + " && ") +
                 "npx --yes " + FLEET_SOURCE_DIR + "/examples/dispatcher < " + tmp / "requests"}),
        {"",
         {{"HOME", tmp / "home"},
          {"npm_config_registry", "http://127.0.0.1:9/"},
          {"npm_config_fetch_retries", "0"},
          {"npm_config_update_notifier", "false"},
          {"FLEET_DISPATCH_LAUNCHER", launcher},
          {"FLEET_DISPATCH_PROGRAM_CLAUDE", worker},
          {"FLEET_DISPATCH_STATE_DIR", state},
          {"FLEET_DISPATCH_KITCHEN", "kitchen-1"}},
         ""});
  }
};

}  // namespace

TEST_CASE("example dispatcher: under npx and a shell, the worker is recorded with its L3") {
  // launch-wrapper, the shell, the dispatcher (node), npx's `sh -c`, `npm exec`, the shell of
  // the hook, the CLI: six levels up, further than a launch looked before.
  ExampleFleet fleet;
  const RunResult r = fleet.dispatch(kCaller, requests(R"({"prompt":"build"})"));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const std::size_t reply = r.out.find(R"("id":2)");
  REQUIRE_MESSAGE(reply != std::string::npos, r.out);
  CHECK(r.out.find(R"(\"session_id\":)", reply) != std::string::npos);
  CHECK(r.out.find("isError", reply) == std::string::npos);
  const auto lines = split_lines(read_file(fleet.store));
  REQUIRE(lines.size() == 1);
  const auto record = fleet::parse_provenance_line(lines[0]);
  REQUIRE(record);
  CHECK(record->caller_session_id == kCaller);
  CHECK(record->kitchen_id == "kitchen-1");
}

TEST_CASE("example dispatcher: a refused launch reaches the model as an error naming why") {
  ExampleFleet fleet;
  // No guard ran on the call (not wired), so no caller is certain: launch-wrapper refuses
  // (exit 125) before running anything, and the dispatcher answers with its reason.
  const RunResult r = fleet.dispatch("", requests(R"({"prompt":"build"})"));
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const std::size_t reply = r.out.find(R"("id":2)");
  REQUIRE_MESSAGE(reply != std::string::npos, r.out);
  CHECK(r.out.find(R"("isError":true)", reply) != std::string::npos);
  CHECK_MESSAGE(r.out.find("Refused: launch-wrapper: --record-provenance needs the caller",
                           reply) != std::string::npos,
                r.out);
  CHECK(r.out.find("recorded-before-start") == std::string::npos);
  CHECK(::access(fleet.store.c_str(), F_OK) != 0);
}
