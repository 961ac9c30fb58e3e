// End to end: the real OpenCode (1.18.33, tests/e2e/setup.sh) as an L3 orchestrator guarded by
// the suite's plugin, which `fleet-hooks install --agent opencode` writes into the project's
// .opencode/plugins/.
// It runs offline in a private home (HOME and XDG_*, an unreachable npm registry for the
// package OpenCode tries to install on start) against the scripted model on loopback speaking
// streamed Chat Completions (fixtures/chat_completions_wire.mjs), with the stdio MCP dispatcher
// as its server "kitchen" (the model calls kitchen_dispatch_food_truck), which launches Claude
// Code workers through launch-wrapper --record-provenance: the caller comes from the guard's
// caller handover, since OpenCode gives its MCP servers no session id. Assertions use what
// OpenCode sent back to its model, the dispatcher's calls and the store.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <memory>
#include <string>
#include <vector>

#include "agent_orchestrator.h"
#include "base/json.h"
#include "base/paths.h"
#include "claude_cli.h"
#include "fixtures.h"
#include "process.h"
#include "store/provenance_store.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::call_field;
using fleet::test::MockMessagesApi;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

using Env = fleet::test::EnvList;

constexpr const char* kTool = "kitchen_dispatch_food_truck";  // OpenCode's name for the MCP tool

// A private home, a project whose .opencode/plugins/ holds the suite's guard plugin and whose
// opencode.json names the mock model and the dispatcher, the suite on PATH.
class OpenCodeProject {
 public:
  // With `record_at_launch` the dispatcher records each worker at launch
  // (launch-wrapper --record-provenance); else the plugin's tool.execute.after does. The
  // dispatcher's tool is `tool`, wired with install --tool when it is not dispatch_food_truck.
  explicit OpenCodeProject(bool record_at_launch = true,
                           const std::string& tool = "dispatch_food_truck")
      : record_at_launch_(record_at_launch),
        tool_(tool),
        opencode_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "opencode")),
        claude_(fleet::test::claude_or_skip(FLEET_E2E_CACHE)) {
    for (const std::string& dir :
         {home_, project_, project_ + "/.opencode", project_ + "/.opencode/plugins", bin_, state_})
      ::mkdir(dir.c_str(), 0755);
    for (const std::string& dir : {home_ + "/.config", home_ + "/.config/opencode"})
      ::mkdir(dir.c_str(), 0755);
    // OpenCode installs @opencode-ai/plugin into each config folder on start and waits for it,
    // unless the folder has node_modules/ and a package-lock.json naming that package (read in
    // OpenCode 1.18.33's Npm.install): saying so skips seconds of a failing offline npm run.
    for (const std::string& dir : {home_ + "/.config/opencode", project_ + "/.opencode"}) {
      ::mkdir((dir + "/node_modules").c_str(), 0755);
      write_file(dir + "/package-lock.json",
                 R"({"packages":{"":{"dependencies":{"@opencode-ai/plugin":"*"}}}})");
    }
    fleet::test::link_suite(bin_,
                            {"resume-guard", "provenance-writer", "launch-wrapper", "fleet-hooks"});
    path_ = bin_ + ":" + fleet::env_value("PATH");
    std::vector<std::string> install = {"install", "--agent", "opencode"};
    if (tool != "dispatch_food_truck") install.insert(install.end(), {"--tool", tool});
    const RunResult installed = fleet_hooks(install);
    REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
    api_ = std::make_unique<MockMessagesApi>(FLEET_E2E_FIXTURES, tmp_.path());
    write_file(project_ + "/opencode.json", config());
  }

  void script(const std::string& json) const { api_->script(json); }

  // `fleet-hooks ARGS --project <the project>` as its owner runs it.
  RunResult fleet_hooks(std::vector<std::string> args) const {
    args.insert(args.begin(), bin_ + "/fleet-hooks");
    args.insert(args.end(), {"--project", project_});
    return run_process(args, {"", Env{{"HOME", home_}, {"PATH", path_}}, project_});
  }

  // One `opencode run --format json` in the project as a session of `kitchen` (resuming
  // `session` when not empty); returns its process and the session id its events carry.
  std::pair<RunResult, std::string> l3(const std::string& prompt, const std::string& kitchen,
                                       const std::string& path) const {
    const Env env = {{"HOME", home_},
                     {"XDG_CONFIG_HOME", home_ + "/.config"},
                     {"XDG_DATA_HOME", home_ + "/.local/share"},
                     {"XDG_CACHE_HOME", home_ + "/.cache"},
                     {"XDG_STATE_HOME", home_ + "/.local/state"},
                     {"PATH", path},
                     {"PWD", project_},  // OpenCode takes its project folder from $PWD
                     {"FLEET_HOOKS_STATE_DIR", state_},
                     {"FLEET_HOOKS_KITCHEN_ID", kitchen},
                     {"OPENCODE_DISABLE_MODELS_FETCH", "1"},
                     {"OPENCODE_DISABLE_AUTOUPDATE", "1"},
                     // Should it install @opencode-ai/plugin after all, offline that fails at
                     // once instead of after npm's retries.
                     {"npm_config_registry", "http://127.0.0.1:9/"},
                     {"npm_config_fetch_retries", "0"},
                     {"npm_config_offline", "true"}};
    const RunResult run =
        run_process({opencode_, "run", "--format", "json", prompt}, {"", env, project_});
    std::string session;
    for (const std::string& line : split_lines(run.out)) {
      const auto doc = fleet::parse_json_object(line);
      if (doc.ok() && session.empty())
        session = std::string(fleet::string_member(*doc, "sessionID").value_or(""));
    }
    return {run, session};
  }

  const std::string& suite_path() const { return path_; }
  std::vector<std::string> calls() const { return split_lines(read_file(calls_)); }
  std::string tool_results() const { return api_->tool_results(); }
  std::string store() const { return state_ + "/session_provenance.jsonl"; }

 private:
  // opencode.json: the mock as an OpenAI-compatible provider, the dispatcher as the local MCP
  // server "kitchen".
  std::string config() const {
    Env dispatcher = fleet::test::mcp_dispatcher_env(
        *api_, {home_, path_, bin_, claude_, state_, calls_, record_at_launch_});
    dispatcher.emplace_back("FLEET_E2E_TOOL", tool_);
    rapidjson::Document doc = fleet::test::json_document(
        R"({"provider":{"mock":{"npm":"@ai-sdk/openai-compatible","options":{"apiKey":"k"},)"
        R"("models":{"mock":{"tool_call":true}}}},"model":"mock/mock",)"
        R"("mcp":{"kitchen":{"type":"local","command":["node"],"environment":{}}}})");
    auto& alloc = doc.GetAllocator();
    doc["provider"]["mock"]["options"].AddMember(
        "baseURL", fleet::json_string("http://127.0.0.1:" + api_->port() + "/v1", alloc), alloc);
    rapidjson::Value& server = doc["mcp"]["kitchen"];
    server["command"].PushBack(
        fleet::json_string(std::string(FLEET_E2E_FIXTURES) + "/mcp_dispatcher.mjs", alloc), alloc);
    for (const auto& [name, value] : dispatcher)
      server["environment"].AddMember(fleet::json_string(name, alloc),
                                      fleet::json_string(value, alloc), alloc);
    return fleet::to_json(doc);
  }

  bool record_at_launch_;
  std::string tool_;
  std::string opencode_;
  std::string claude_;
  TempDir tmp_;
  std::string home_ = tmp_ / "home";
  std::string project_ = tmp_ / "project";
  std::string bin_ = tmp_ / "bin";
  std::string state_ = tmp_ / "state";
  std::string calls_ = tmp_ / "calls.jsonl";
  std::string path_;
  std::unique_ptr<MockMessagesApi> api_;
};

std::string dispatch_turn(const std::string& input_json) {
  return fleet::test::dispatch_turn(input_json, kTool);
}

}  // namespace

TEST_CASE("e2e: opencode - the guard plugin denies a stranger's resume, the owner's runs") {
  OpenCodeProject project;  // wired by fleet-hooks install --agent opencode
  const RunResult checked = project.fleet_hooks({"check", "--agent", "opencode"});
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);

  // The owner's subagent (a child session of its own) dispatches a worker and reports its id;
  // the owner resumes it. The worker is recorded at launch with the owner's main session as the
  // caller, not the child's, and the owner's resume runs although it is in another kitchen than
  // the worker's (kitchen-1): the guard judged the child's call as its main session's.
  const std::string task =
      R"({"tool_use":{"name":"task","input":{"description":"dispatch a truck","prompt":)"
      R"("SUB-DISPATCH dispatch the build","subagent_type":"general"}}})";
  project.script(
      R"({"rules":[{"match":"SUB-DISPATCH","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
      R"(,{"text":"{\"session_id\":\"{{last_session_id}}\"}"}]},{"match":"L3-OWN","turns":[)" +
      task + "," +
      dispatch_turn(R"({"prompt":"L2-WORK more","resume_session_id":"{{last_session_id}}"})") +
      R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
      R"("default":{"text":"ok"}})");
  const auto [owner, owner_session] =
      project.l3("L3-OWN dispatch the build", "kitchen-own", project.suite_path());
  CHECK_MESSAGE(owner.exit_code == 0, owner.err);
  REQUIRE(owner_session.rfind("ses_", 0) == 0);
  auto calls = project.calls();
  REQUIRE_MESSAGE(calls.size() == 2, (project.tool_results() + owner.out + owner.err));
  const std::string worker = call_field(calls[0], "result", "session_id");
  REQUIRE(!worker.empty());
  CHECK(call_field(calls[1], "input", "resume_session_id") == worker);
  CHECK(project.tool_results().find("Refused") == std::string::npos);
  const auto record = fleet::lookup_session(project.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, read_file(project.store()));
  CHECK(record.record.caller_session_id == owner_session);
  CHECK(record.record.recipe_name == "implement");

  // A stranger in another kitchen resumes that worker: the plugin refuses it with the guard's
  // reason, OpenCode tells its model, and the dispatcher never runs.
  project.script(
      R"({"rules":[{"match":"L3-STEAL","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"gave up"}]}],"default":{"text":"ok"}})");
  const auto [stranger, stranger_session] =
      project.l3("L3-STEAL resume the worker", "kitchen-2", project.suite_path());
  CHECK_MESSAGE(stranger.exit_code == 0, stranger.err);
  CHECK(stranger_session != owner_session);
  CHECK(project.calls().size() == 2);
  CHECK_MESSAGE(
      project.tool_results().find("Refused to resume session '" + worker) != std::string::npos,
      project.tool_results());
}

TEST_CASE("e2e: opencode - without resume-guard on PATH the plugin refuses every dispatch") {
  OpenCodeProject project;
  const std::string bare_path = fleet::env_value("PATH");
  fleet::test::require_suite_absent(bare_path);
  project.script(R"({"rules":[{"match":"L3-FRESH","turns":[)" +
                 dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
                 R"(,{"text":"L3 done"}]}],"default":{"text":"ok"}})");
  const auto [run, session] = project.l3("L3-FRESH dispatch the build", "kitchen-1", bare_path);
  CHECK_MESSAGE(run.exit_code == 0, run.err);
  CHECK(project.calls().empty());
  CHECK_MESSAGE(project.tool_results().find("resume-guard could not run") != std::string::npos,
                project.tool_results());
}

TEST_CASE("e2e: opencode - the plugin records a fresh dispatch with the run's own session") {
  OpenCodeProject project(/*record_at_launch=*/false);
  project.script(
      R"({"rules":[{"match":"L3-FRESH","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
      R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
      R"("default":{"text":"ok"}})");
  const auto [run, session] =
      project.l3("L3-FRESH dispatch the build", "kitchen-1", project.suite_path());
  CHECK_MESSAGE(run.exit_code == 0, run.err);
  REQUIRE(session.rfind("ses_", 0) == 0);
  REQUIRE_MESSAGE(project.calls().size() == 1, (project.tool_results() + run.out + run.err));
  const std::string worker = call_field(project.calls()[0], "result", "session_id");
  const auto record = fleet::lookup_session(project.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, run.err);
  CHECK(record.record.caller_session_id == session);
  CHECK(record.record.recipe_name == "implement");
}

TEST_CASE("e2e: opencode - install --tool spawn_worker guards and records that tool too") {
  // The dispatcher's tool is spawn_worker (the model calls kitchen_spawn_worker); the plugin
  // the L3 runs was written by install --agent opencode --tool spawn_worker.
  OpenCodeProject project(/*record_at_launch=*/false, "spawn_worker");
  const RunResult checked =
      project.fleet_hooks({"check", "--agent", "opencode", "--tool", "spawn_worker"});
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);
  const auto spawn_turn = [](const std::string& input_json) {
    return fleet::test::dispatch_turn(input_json, "kitchen_spawn_worker");
  };
  // The owner's fresh spawn_worker call runs and the plugin records it with the owner's session.
  project.script(
      R"({"rules":[{"match":"L3-FRESH","turns":[)" +
      spawn_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
      R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
      R"("default":{"text":"ok"}})");
  const auto [owner, owner_session] =
      project.l3("L3-FRESH dispatch the build", "kitchen-1", project.suite_path());
  CHECK_MESSAGE(owner.exit_code == 0, owner.err);
  REQUIRE(owner_session.rfind("ses_", 0) == 0);
  REQUIRE_MESSAGE(project.calls().size() == 1, (project.tool_results() + owner.out + owner.err));
  const std::string worker = call_field(project.calls()[0], "result", "session_id");
  const auto record = fleet::lookup_session(project.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, owner.err);
  CHECK(record.record.caller_session_id == owner_session);

  // A stranger in another kitchen resumes that worker through spawn_worker: refused with the
  // guard's reason, and the dispatcher never runs.
  project.script(
      R"({"rules":[{"match":"L3-STEAL","turns":[)" +
      spawn_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"gave up"}]}],"default":{"text":"ok"}})");
  const auto [stranger, stranger_session] =
      project.l3("L3-STEAL resume the worker", "kitchen-2", project.suite_path());
  CHECK_MESSAGE(stranger.exit_code == 0, stranger.err);
  CHECK(stranger_session != owner_session);
  CHECK(project.calls().size() == 1);
  CHECK_MESSAGE(
      project.tool_results().find("Refused to resume session '" + worker) != std::string::npos,
      project.tool_results());
}
