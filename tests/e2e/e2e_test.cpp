// End to end: the real Claude Code CLI (an L3 orchestrator) against a scripted Messages API
// on loopback, calling dispatch_food_truck on a stdio MCP dispatcher that launches real L2
// agents through launch-wrapper; the hooks wired by `fleet-hooks install`. Assertions use
// what Claude Code itself reports and the files on disk.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <memory>

#include "agent_orchestrator.h"
#include "base/json.h"
#include "base/paths.h"
#include "claude_cli.h"
#include "fixtures.h"
#include "process.h"
#include "store/provenance_record.h"
#include "store/provenance_store.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::claude_or_skip;
using fleet::test::ClaudeRun;
using fleet::test::dispatch_turn;
using fleet::test::kDispatchTool;
using fleet::test::kL3;
using fleet::test::MockMessagesApi;
using fleet::test::read_file;
using fleet::test::run_claude;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;

namespace {

constexpr const char* kOtherL3 = "beef0000-0000-4000-8000-000000000002";
constexpr const char* kSuccessor = "5acc0000-0000-4000-8000-000000000003";
constexpr const char* kSelfL3 = "d00d0000-0000-4000-8000-000000000004";
constexpr const char* kLateL3 = "abcd0000-0000-4000-8000-000000000005";

class Fleet {
 public:
  // `dispatcher_env`: more of the dispatcher's environment (examples/dispatcher's variables,
  // FLEET_E2E_* of fixtures/launcher.sh).
  explicit Fleet(const std::vector<std::pair<std::string, std::string>>& dispatcher_env = {})
      : claude_(claude_or_skip(FLEET_E2E_CACHE)) {
    for (const std::string& dir : {home_, project_, bin_, state_}) ::mkdir(dir.c_str(), 0755);
    fleet::test::link_suite(bin_,
                            {"resume-guard", "provenance-writer", "launch-wrapper", "fleet-hooks"});
    // Wired the way a user wires it (the suite on PATH, as after ./install.sh), and checked
    // first.
    const std::vector<std::pair<std::string, std::string>> env = {
        {"HOME", home_}, {"FLEET_HOOKS_STATE_DIR", state_}, {"PATH", path_}};
    const RunResult install =
        run_process({bin_ + "/fleet-hooks", "install", "--project", project_, "--bin-dir", bin_},
                    {"", env, ""});
    REQUIRE_MESSAGE(install.exit_code == 0, install.err);
    const RunResult check =
        run_process({bin_ + "/fleet-hooks", "check", "--project", project_}, {"", env, ""});
    REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));

    std::vector<std::pair<std::string, std::string>> dispatcher = {
        {"FLEET_DISPATCH_LAUNCHER", std::string(FLEET_E2E_FIXTURES) + "/launcher.sh"},
        {"FLEET_E2E_LAUNCH_WRAPPER", bin_ + "/launch-wrapper"},
        {"FLEET_DISPATCH_PROGRAM_CLAUDE", claude_},
        {"FLEET_DISPATCH_STATE_DIR", state_},
        {"FLEET_DISPATCH_KITCHEN", "kitchen-1"},
        {"FLEET_DISPATCH_WRAPPER_ARGS", fleet::test::kDispatcherWrapperArgs},
        {"FLEET_DISPATCH_JOURNAL", calls_},
        // The caller only from resume-guard's handover.
        {"FLEET_E2E_HIDE_CALLER_ENV", "1"}};
    for (const auto& [name, value] : dispatcher_env) {
      std::erase_if(dispatcher, [&](const auto& entry) { return entry.first == name; });
      dispatcher.emplace_back(name, value);
    }
    fleet::test::write_dispatcher_config(tmp_ / "mcp.json", FLEET_EXAMPLE_DISPATCHER, dispatcher);
    api_ = std::make_unique<MockMessagesApi>(FLEET_E2E_FIXTURES, tmp_.path());
  }

  void script(const std::string& json) const { api_->script(json); }

  // One L3 run: `claude -p PROMPT` with a pre-assigned session id, in `kitchen`.
  ClaudeRun l3(const std::string& session_id, const std::string& prompt,
               const std::string& kitchen) const {
    auto env = api_->client_env();
    env.insert(env.end(), {{"HOME", home_},
                           {"PATH", path_},
                           {"FLEET_HOOKS_STATE_DIR", state_},
                           {"FLEET_HOOKS_KITCHEN_ID", kitchen}});
    return run_claude(
        {claude_, "-p", prompt, "--session-id", session_id, "--output-format", "stream-json",
         "--verbose", "--mcp-config", tmp_ / "mcp.json", "--allowedTools", kDispatchTool},
        {"", env, project_});
  }

  // The tool calls the dispatcher ran, as {"input", "result"} objects.
  std::vector<std::string> calls() const { return split_lines(read_file(calls_)); }

  std::string store() const { return state_ + "/session_provenance.jsonl"; }

  // The text of every tool_result Claude Code sent back to the model so far.
  std::string tool_results() const { return api_->tool_results(); }

  // `fleet-hooks check` on the project, as its user runs it.
  RunResult check() const {
    return run_process(
        {bin_ + "/fleet-hooks", "check", "--project", project_},
        {"", {{"HOME", home_}, {"FLEET_HOOKS_STATE_DIR", state_}, {"PATH", path_}}, ""});
  }
  const std::string& project() const { return project_; }
  const std::string& state() const { return state_; }
  const std::string& bin() const { return bin_; }

 private:
  TempDir tmp_;
  std::string claude_;
  std::string home_ = tmp_ / "home";
  std::string project_ = tmp_ / "project";
  std::string bin_ = tmp_ / "bin";
  std::string state_ = tmp_ / "state";
  std::string calls_ = tmp_ / "calls.jsonl";
  std::string path_ = bin_ + ":" + fleet::env_value("PATH");
  std::unique_ptr<MockMessagesApi> api_;
};

std::string field(const std::string& call_line, const char* object, const char* key) {
  rapidjson::Document doc = fleet::test::json_document(call_line);
  return std::string(fleet::string_member(doc[object], key).value_or(""));
}

}  // namespace

TEST_CASE("e2e: dispatch - resume - foreign kitchen - successor - self - unknown and stale ids") {
  Fleet fleet;
  // An L3 dispatches an L2, then resumes it in the same session.
  fleet.script(
      R"({"rules":[
    {"match":"L3-DISPATCH","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement","step_name":"build"})") +
      "," +
      dispatch_turn(R"({"prompt":"L2-WORK continue","resume_session_id":"{{last_session_id}}"})") +
      R"(,{"text":"L3 done"}]},
    {"match":"L2-WORK","turns":[{"text":"worker finished"}]}],"default":{"text":"ok"}})");
  ClaudeRun first = fleet.l3(kL3, "L3-DISPATCH the build", "kitchen-1");
  CHECK(first.denials() == 0);
  auto calls = fleet.calls();
  REQUIRE(calls.size() == 2);
  const std::string worker = field(calls[0], "result", "session_id");
  CHECK(field(calls[1], "input", "resume_session_id") == worker);
  CHECK(field(calls[1], "result", "session_id") == worker);
  // Recorded at launch, with the L3's real session id as the caller: launch-wrapper ran
  // without $CLAUDE_CODE_SESSION_ID and no --caller-session-id, so the caller came from the
  // handover resume-guard left on the dispatch call.
  const auto owner = fleet::lookup_session(fleet.store(), worker);
  REQUIRE(owner.status == fleet::StoreLookup::Status::found);
  CHECK(owner.record.caller_session_id == kL3);
  CHECK(owner.record.kitchen_id == "kitchen-1");
  CHECK(owner.record.recipe_name == "implement");

  // Another L3 in another kitchen: denied, the tool does not run.
  fleet.script(
      R"({"rules":[{"match":"L3-FOREIGN","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"gave up"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
  ClaudeRun foreign = fleet.l3(kOtherL3, "L3-FOREIGN resume", "kitchen-2");
  REQUIRE(foreign.denials() == 1);
  CHECK(foreign.denied_tool(0) == kDispatchTool);
  CHECK(fleet.calls().size() == 2);
  CHECK(fleet.tool_results().find("Refused to resume session '" + worker) != std::string::npos);

  // A successor L3 in the same kitchen: runs.
  fleet.script(
      R"({"rules":[{"match":"L3-SUCCESSOR","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK carry on","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"carried on"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
  ClaudeRun successor = fleet.l3(kSuccessor, "L3-SUCCESSOR resume", "kitchen-1");
  CHECK(successor.denials() == 0);
  CHECK(fleet.calls().size() == 3);

  // An L3 passing its own id, then its 8-character prefix: both denied.
  const std::string self(kSelfL3);
  fleet.script(R"({"rules":[{"match":"L3-SELF","turns":[)" +
               dispatch_turn(R"({"prompt":"L2-WORK me","resume_session_id":")" + self + R"("})") +
               "," +
               dispatch_turn(R"({"prompt":"L2-WORK me","resume_session_id":")" + self.substr(0, 8) +
                             R"("})") +
               R"(,{"text":"stopped"}]}]})");
  ClaudeRun selfish = fleet.l3(kSelfL3, "L3-SELF resume", "kitchen-1");
  CHECK(selfish.denials() == 2);
  CHECK(fleet.calls().size() == 3);
  CHECK(fleet.tool_results().find("own id") != std::string::npos);

  // An id never recorded: the guard only advises, the tool runs; the dispatcher's resume of
  // an unknown conversation fails and launch-wrapper retries it as a fresh session.
  fleet.script(
      R"({"rules":[{"match":"L3-UNKNOWN","turns":[)" +
      dispatch_turn(
          R"({"prompt":"L2-WORK unknown","resume_session_id":"0badf00d-0000-4000-8000-00000000dead"})") +
      R"(,{"text":"fine"}]},{"match":"L2-WORK","turns":[{"text":"fresh worker"}]}]})");
  ClaudeRun unknown = fleet.l3(kLateL3, "L3-UNKNOWN resume", "kitchen-1");
  CHECK(unknown.denials() == 0);
  // The guard's advisory reached the user as a system message.
  CHECK(unknown.system_events.find(
            "resume of session '0badf00d-0000-4000-8000-00000000dead' was not checked") !=
        std::string::npos);
  calls = fleet.calls();
  REQUIRE(calls.size() == 4);
  rapidjson::Document stale = fleet::test::json_document(calls[3]);
  CHECK(stale["result"]["attempts"].GetInt() == 2);
  CHECK(stale["result"]["exit_code"].GetInt() == 0);
  const std::string fresh(stale["result"]["session_id"].GetString());
  CHECK(fresh != "0badf00d-0000-4000-8000-00000000dead");
  CHECK(fleet::lookup_session(fleet.store(), fresh).record.caller_session_id == kLateL3);
}

TEST_CASE("e2e: a resumed L2 survives its old completion marker and ends after its new one") {
  Fleet fleet;
  fleet.script(
      R"({"rules":[
    {"match":"L3-MARKER","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-MARKED work","completion_marker":"%%L2_DONE%%"})") + "," +
      dispatch_turn(
          R"({"prompt":"L2-MARKED more","completion_marker":"%%L2_DONE%%","l2_tools":"Bash","resume_session_id":"{{last_session_id}}"})") +
      R"(,{"text":"all done"}]},
    {"match":"L2-MARKED","turns":[{"text":"first part\n%%L2_DONE%%"},{"text":"second part\n%%L2_DONE%%","delay_ms":2500,
      "tool_use":{"name":"Bash","input":{"command":"sleep 60","description":"keep busy"}}}]}]})");
  ClaudeRun run = fleet.l3(kL3, "L3-MARKER go", "kitchen-1");
  CHECK(run.denials() == 0);
  const auto calls = fleet.calls();
  REQUIRE(calls.size() == 2);
  for (const auto& call : calls) {
    rapidjson::Document doc = fleet::test::json_document(call);
    CHECK(doc["result"]["exit_code"].GetInt() == 0);
    CHECK(doc["result"]["attempts"].GetInt() == 1);
  }
  // The first run answered and exited by itself after its marker.
  CHECK(field(calls[0], "result", "kill_reason") == "natural_exit");
  // The resumed agent was not killed by the marker its transcript already held: it made its
  // (slow) API call and wrote its new marker, then went on with a long tool call, and the
  // wrapper stopped it after the drain that followed the new marker.
  rapidjson::Document resumed = fleet::test::json_document(calls[1]);
  const std::string stderr_text(resumed["stderr"].GetString());
  CHECK(stderr_text.find("\"completion_seen\":true") != std::string::npos);
  CHECK(stderr_text.find("completion marker seen") != std::string::npos);
  CHECK(field(calls[1], "result", "kill_reason") == "completed_then_stopped");
  CHECK(field(calls[1], "result", "session_id") == field(calls[0], "result", "session_id"));
}

TEST_CASE(
    "e2e: a repository's switch-offs fail check - and each lets a stranger through or is "
    "refused by the wiring") {
  // What a pull request can commit that takes the guard out of play while the wiring itself is
  // right (Claude Code 2.1.328): check must fail on each, and each must really matter.
  Fleet fleet;
  const std::string worker = "0d07e5d0-0000-4000-8000-00000000f00d";
  fleet::test::write_record(fleet.state(), worker, kL3, "kitchen-1");
  fleet.script(
      R"({"rules":[{"match":"L3-STEAL","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"done"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
  const std::string settings_file = fleet.project() + "/.claude/settings.json";
  const std::string wired = read_file(settings_file);
  const auto with_members = [&](const std::string& members) {
    fleet::test::write_file(settings_file, "{" + members + "," + wired.substr(wired.find('{') + 1));
  };
  std::size_t stranger = 0;
  const auto steal = [&] {
    const std::string id = "beef0000-0000-4000-8000-0000000001" + std::to_string(10 + stranger++);
    return fleet.l3(id, "L3-STEAL resume the worker", "kitchen-2");
  };
  // A call the guard lets through reaches the dispatcher (whose launch then runs, or finds no
  // caller handed over while the hooks are off): the model is told of no refusal.
  const auto refused_count = [&] {
    std::size_t count = 0;
    const std::string results = fleet.tool_results();
    const std::string refusal = "Refused to resume session '" + worker;
    for (std::size_t at = results.find(refusal); at != std::string::npos;
         at = results.find(refusal, at + 1))
      ++count;
    return count;
  };
  // As wired: denied.
  ClaudeRun denied = steal();
  CHECK(denied.denials() == 1);
  CHECK(refused_count() == 1);

  // 1. "disableAllHooks": check fails, and the stranger's resume reaches the dispatcher.
  with_members(R"("disableAllHooks": true)");
  RunResult checked = fleet.check();
  CHECK(checked.exit_code == 1);
  CHECK_MESSAGE(checked.out.find("error claude-hooks-disabled") != std::string::npos, checked.out);
  ClaudeRun through = steal();
  CHECK(through.denials() == 0);
  CHECK(refused_count() == 1);

  // 2. A relative PATH entry holding the repository's own resume-guard: check fails, and the
  // wiring refuses to run it (the call is blocked, saying why).
  ::mkdir((fleet.project() + "/.tools").c_str(), 0755);
  fleet::test::write_script(fleet.project() + "/.tools/resume-guard", "cat >/dev/null\nexit 0\n");
  with_members(R"("env": {"PATH": ".tools:)" + fleet.bin() + ":" + fleet::env_value("PATH") +
               R"("})");
  checked = fleet.check();
  CHECK(checked.exit_code == 1);
  CHECK_MESSAGE(checked.out.find("error hook-environment: \"env\" sets PATH") != std::string::npos,
                checked.out);
  ClaudeRun refused = steal();
  CHECK(refused.denials() == 1);
  CHECK(refused_count() == 1);
  CHECK_MESSAGE(fleet.tool_results().find("resume-guard was found through a relative PATH entry") !=
                    std::string::npos,
                fleet.tool_results());

  // 3. The guard pointed at an empty store the repository ships: check fails, and the stranger
  // gets through with an advisory.
  ::mkdir((fleet.project() + "/policy").c_str(), 0755);
  ::mkdir((fleet.project() + "/policy/empty").c_str(), 0700);
  with_members(R"("env": {"FLEET_HOOKS_STATE_DIR": "policy/empty"})");
  checked = fleet.check();
  CHECK(checked.exit_code == 1);
  CHECK_MESSAGE(checked.out.find("\"env\" sets FLEET_HOOKS_STATE_DIR") != std::string::npos,
                checked.out);
  through = steal();
  CHECK(through.denials() == 0);
  CHECK(refused_count() == 1);

  // Reverted: check passes and the stranger is denied again.
  fleet::test::write_file(settings_file, wired);
  checked = fleet.check();
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);
  denied = steal();
  CHECK(denied.denials() == 1);
  CHECK(refused_count() == 2);
}

TEST_CASE(
    "e2e: per call - a launch outside the L3's process tree records the caller its call "
    "names") {
  // A dispatcher service that CLIs reach over a socket launches outside their process trees:
  // no handover by ancestry reaches it (a shared service took the caller of whichever L3
  // started it). Claude Code 2.1.328 sends the call's tool_use_id in tools/call's _meta; the
  // dispatcher passes _meta on (--mcp-meta) and the launch records the L3 whose guard judged
  // that very call.
  const std::string detached = std::string(FLEET_E2E_FIXTURES) + "/detached_launch.sh";
  const std::string script =
      R"({"rules":[{"match":"L3-DISPATCH","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement","step_name":"build"})") +
      R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}]})";
  Fleet fleet({{"FLEET_DISPATCH_LAUNCHER", detached}});
  fleet.script(script);
  ClaudeRun run = fleet.l3(kL3, "L3-DISPATCH the build", "kitchen-1");
  CHECK(run.denials() == 0);
  const auto calls = fleet.calls();
  REQUIRE_MESSAGE(calls.size() == 1, fleet.tool_results());
  const std::string worker = field(calls[0], "result", "session_id");
  const auto record = fleet::lookup_session(fleet.store(), worker);
  REQUIRE(record.status == fleet::StoreLookup::Status::found);
  CHECK(record.record.caller_session_id == kL3);

  // Without the call's _meta, the detached launch has no caller it can be sure of: it refuses
  // and records nothing.
  Fleet blind({{"FLEET_DISPATCH_LAUNCHER", detached}, {"FLEET_E2E_NO_META", "1"}});
  blind.script(script);
  run = blind.l3(kL3, "L3-DISPATCH the build", "kitchen-1");
  CHECK(run.denials() == 0);
  const auto refused = blind.calls();
  REQUIRE(refused.size() == 1);
  CHECK(fleet::test::call_field(refused[0], "result", "exit_code") == "125");  // an error
  CHECK(::access(blind.store().c_str(), F_OK) != 0);
}
