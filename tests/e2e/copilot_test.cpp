// End to end: the real GitHub Copilot CLI (1.0.102, tests/e2e/setup.sh) as an L3 orchestrator in
// a repository wired for Claude Code (`fleet-hooks install`, no --agent): Copilot runs the hooks
// of .claude/settings.json once the folder is trusted in ~/.copilot/config.json. It runs offline,
// with no GitHub login, against the scripted model on loopback speaking streamed Chat
// Completions (fixtures/chat_completions_wire.mjs), with the stdio MCP dispatcher as its server
// "kitchen" (the model calls kitchen-dispatch_food_truck), which launches Claude Code workers
// through launch-wrapper. Assertions use what Copilot sent back to its model, the dispatcher's
// calls and the store.

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

constexpr const char* kOwner = "c0ffee00-0000-4000-8000-0000000000c1";
constexpr const char* kStranger = "beef0000-0000-4000-8000-0000000000c2";
constexpr const char* kTool = "kitchen-dispatch_food_truck";  // Copilot's name for the MCP tool

std::string json_text(const std::string& text) {
  rapidjson::Document doc;
  return fleet::to_json(fleet::json_string(text, doc.GetAllocator()));
}

// A private home whose ~/.copilot/config.json trusts the project (as Copilot writes it, with its
// comment lines), the suite on PATH, a project wired for Claude Code, the mock model and the
// dispatcher.
class CopilotRepository {
 public:
  CopilotRepository()
      : copilot_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "copilot")),
        claude_(fleet::test::claude_or_skip(FLEET_E2E_CACHE)) {
    for (const std::string& dir : {home_, home_ + "/.copilot", project_, bin_, state_})
      ::mkdir(dir.c_str(), 0755);
    fleet::test::link_suite(bin_,
                            {"resume-guard", "provenance-writer", "launch-wrapper", "fleet-hooks"});
    path_ = bin_ + ":" + fleet::env_value("PATH");
    write_file(home_ + "/.copilot/config.json",
               "// User settings belong in settings.json.\n// This file is managed "
               "automatically.\n{\n  \"trustedFolders\": [\n    " +
                   json_text(project_) + "\n  ]\n}\n");
    api_ = std::make_unique<MockMessagesApi>(FLEET_E2E_FIXTURES, tmp_.path());
  }

  // `fleet-hooks <args> --project <project>` as the user runs it.
  RunResult fleet_hooks(const std::string& subcommand) const {
    return run_process({bin_ + "/fleet-hooks", subcommand, "--project", project_},
                       {"", suite_env(), ""});
  }

  void script(const std::string& json) const { api_->script(json); }

  // One headless Copilot run as session `session` in `kitchen`; returns its process and the
  // session id of its last "result" line ("" when there is none).
  std::pair<RunResult, std::string> l3(const std::string& prompt, const std::string& session,
                                       const std::string& kitchen) const {
    Env env = suite_env();
    env.insert(env.end(),
               {{"FLEET_HOOKS_KITCHEN_ID", kitchen},
                {"COPILOT_OFFLINE", "true"},
                {"COPILOT_AUTO_UPDATE", "false"},
                {"COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:" + api_->port() + "/v1"},
                {"COPILOT_PROVIDER_API_KEY", "fleet-e2e-7c41d9b2"},
                {"COPILOT_MODEL", "mock"},
                // The loader unpacks ~235 MB of Copilot into its cache once, not
                // into every test's home.
                {"XDG_CACHE_HOME", std::string(FLEET_E2E_CACHE) + "/copilot-xdg-cache"}});
    const RunResult run =
        run_process({copilot_, "-p", prompt, "--session-id", session, "--allow-all-tools",
                     "--output-format", "json", "--additional-mcp-config", mcp_config()},
                    {"", env, project_});
    std::string reported;
    for (const std::string& line : split_lines(run.out)) {
      const auto doc = fleet::parse_json_object(line);
      if (doc.ok() && fleet::string_member(*doc, "type") == "result")
        reported = std::string(fleet::string_member(*doc, "sessionId").value_or(""));
    }
    return {run, reported};
  }

  std::vector<std::string> calls() const { return split_lines(read_file(calls_)); }
  std::string tool_results() const { return api_->tool_results(); }
  std::string store() const { return state_ + "/session_provenance.jsonl"; }

 private:
  Env suite_env() const {
    return {{"HOME", home_}, {"PATH", path_}, {"FLEET_HOOKS_STATE_DIR", state_}};
  }

  // The dispatcher as Copilot's MCP server "kitchen"; the worker is recorded by the L3's
  // PostToolUse hook, not by the dispatcher.
  std::string mcp_config() const {
    const Env env =
        fleet::test::mcp_dispatcher_env(*api_, {home_, path_, bin_, claude_, state_, calls_});
    rapidjson::Document doc(rapidjson::kObjectType);
    auto& alloc = doc.GetAllocator();
    rapidjson::Value variables(rapidjson::kObjectType);
    for (const auto& [name, value] : env)
      variables.AddMember(fleet::json_string(name, alloc), fleet::json_string(value, alloc), alloc);
    rapidjson::Value args(rapidjson::kArrayType);
    args.PushBack(
        fleet::json_string(std::string(FLEET_E2E_FIXTURES) + "/mcp_dispatcher.mjs", alloc), alloc);
    rapidjson::Value tools(rapidjson::kArrayType);
    tools.PushBack("*", alloc);
    rapidjson::Value server(rapidjson::kObjectType);
    server.AddMember("type", "local", alloc);
    server.AddMember("command", "node", alloc);
    server.AddMember("args", args, alloc);
    server.AddMember("env", variables, alloc);
    server.AddMember("tools", tools, alloc);
    rapidjson::Value servers(rapidjson::kObjectType);
    servers.AddMember("kitchen", server, alloc);
    doc.AddMember("mcpServers", servers, alloc);
    return fleet::to_json(doc);
  }

  std::string copilot_;
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

TEST_CASE("e2e: copilot - a Claude-wired repository denies a stranger's resume, the owner's runs") {
  CopilotRepository repo;
  const RunResult install = repo.fleet_hooks("install");
  REQUIRE_MESSAGE(install.exit_code == 0, (install.out + install.err));
  const RunResult check = repo.fleet_hooks("check");
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));

  // The owner dispatches a worker and resumes it: both run, and the worker is recorded by the
  // PostToolUse hook Copilot runs, with the owner's session as the caller.
  repo.script(
      R"({"rules":[{"match":"L3-OWN","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") + "," +
      dispatch_turn(R"({"prompt":"L2-WORK more","resume_session_id":"{{last_session_id}}"})") +
      R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
      R"("default":{"text":"ok"}})");
  const auto [owner, owner_session] = repo.l3("L3-OWN dispatch the build", kOwner, "kitchen-1");
  CHECK_MESSAGE(owner.exit_code == 0, owner.err);
  CHECK(owner_session == kOwner);
  auto calls = repo.calls();
  REQUIRE_MESSAGE(calls.size() == 2, (repo.tool_results() + owner.out + owner.err));
  const std::string worker = call_field(calls[0], "result", "session_id");
  REQUIRE(!worker.empty());
  CHECK(call_field(calls[1], "input", "resume_session_id") == worker);
  CHECK(repo.tool_results().find("Refused") == std::string::npos);
  const auto record = fleet::lookup_session(repo.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, read_file(repo.store()));
  CHECK(record.record.caller_session_id == kOwner);
  CHECK(record.record.recipe_name == "implement");

  // A stranger in another kitchen resumes that worker: the guard denies it, Copilot tells its
  // model why, and the dispatcher never runs.
  repo.script(
      R"({"rules":[{"match":"L3-STEAL","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"gave up"}]}],"default":{"text":"ok"}})");
  const auto [stranger, stranger_session] =
      repo.l3("L3-STEAL resume the worker", kStranger, "kitchen-2");
  CHECK_MESSAGE(stranger.exit_code == 0, stranger.err);
  CHECK(stranger_session == kStranger);
  CHECK(repo.calls().size() == 2);
  CHECK_MESSAGE(
      repo.tool_results().find("Refused to resume session '" + worker) != std::string::npos,
      repo.tool_results());
}

TEST_CASE("e2e: copilot - a subagent's call is judged and recorded as its main session's") {
  // Copilot CLI 1.0.102: a tool call of a subagent (the "task" tool) carries the subagent's
  // own id as session_id and the main session as parent_agent_id.
  CopilotRepository repo;
  REQUIRE(repo.fleet_hooks("install").exit_code == 0);
  const auto task = [](const std::string& prompt) {
    return R"({"tool_use":{"name":"task","input":{"description":"dispatch a truck","prompt":")" +
           prompt + R"(","agent_type":"general-purpose","name":"dispatcher"}}})";
  };
  // The owner's subagent dispatches a worker: recorded with the owner as the caller.
  repo.script(R"({"rules":[{"match":"SUB-DISPATCH","turns":[)" +
              dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
              R"(,{"text":"sub done"}]},{"match":"L3-OWN","turns":[)" +
              task("SUB-DISPATCH dispatch the build") +
              R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
              R"("default":{"text":"ok"}})");
  const auto [owner, owner_session] =
      repo.l3("L3-OWN dispatch through a subagent", kOwner, "kitchen-1");
  CHECK_MESSAGE(owner.exit_code == 0, owner.err);
  CHECK(owner_session == kOwner);
  REQUIRE_MESSAGE(repo.calls().size() == 1, (repo.tool_results() + owner.out + owner.err));
  const std::string worker = call_field(repo.calls()[0], "result", "session_id");
  const auto record = fleet::lookup_session(repo.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, read_file(repo.store()));
  CHECK(record.record.caller_session_id == kOwner);

  // A stranger's subagent resumes it: denied, the dispatcher does not run.
  repo.script(
      R"({"rules":[{"match":"SUB-STEAL","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"sub gave up"}]},{"match":"L3-STEAL","turns":[)" +
      task("SUB-STEAL resume the worker") + R"(,{"text":"L3 done"}]}],"default":{"text":"ok"}})");
  const auto [stranger, stranger_session] =
      repo.l3("L3-STEAL resume through a subagent", kStranger, "kitchen-2");
  CHECK_MESSAGE(stranger.exit_code == 0, stranger.err);
  CHECK(stranger_session == kStranger);
  CHECK(repo.calls().size() == 1);
  CHECK_MESSAGE(
      repo.tool_results().find("Refused to resume session '" + worker) != std::string::npos,
      repo.tool_results());
}
