// End to end: the real Qwen Code (0.24.4, tests/e2e/setup.sh) as an L3 orchestrator in a
// project wired by `fleet-hooks install --agent qwen` (.qwen/settings.json, Claude Code's hook
// dialect), and as a worker launched by `launch-wrapper --agent qwen`. It runs headless
// (`qwen -o stream-json --yolo`) in a private home against the scripted model on loopback
// speaking streamed Chat Completions (fixtures/chat_completions_wire.mjs), with the stdio MCP
// dispatcher as the server "kitchen" of the user's settings (the model calls
// mcp__kitchen__dispatch_food_truck), which launches Claude Code workers through
// launch-wrapper. Assertions use what Qwen Code sent back to its model, its stream-json
// events, the dispatcher's calls, launch-wrapper's summary and the store.

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

constexpr const char* kOwner = "c0ffee00-0000-4000-8000-0000000000a1";
constexpr const char* kStranger = "beef0000-0000-4000-8000-0000000000a2";
constexpr const char* kTool = "mcp__kitchen__dispatch_food_truck";  // Qwen Code's name for it

// A private home whose ~/.qwen/settings.json points Qwen Code at the mock model (OpenAI auth)
// and names the dispatcher as the MCP server "kitchen", with folder trust on when
// `folder_trust`; the suite on PATH; a project with no hooks wired yet.
class QwenProject {
 public:
  explicit QwenProject(bool folder_trust = false)
      : qwen_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "qwen")),
        claude_(fleet::test::claude_or_skip(FLEET_E2E_CACHE)) {
    for (const std::string& dir : {home_, home_ + "/.qwen", project_, bin_, state_})
      ::mkdir(dir.c_str(), 0755);
    fleet::test::link_suite(bin_,
                            {"resume-guard", "provenance-writer", "launch-wrapper", "fleet-hooks"});
    path_ = bin_ + ":" + fleet::env_value("PATH");
    api_ = std::make_unique<MockMessagesApi>(FLEET_E2E_FIXTURES, tmp_.path());
    write_file(home_ + "/.qwen/settings.json", user_settings(folder_trust));
  }

  // `fleet-hooks <subcommand> --agent qwen --project <project>` as the user runs it.
  RunResult fleet_hooks(const std::string& subcommand) const {
    return run_process(
        {bin_ + "/fleet-hooks", subcommand, "--agent", "qwen", "--project", project_},
        {"", suite_env(), ""});
  }

  // Trusts the project as Qwen Code's trust dialog does (~/.qwen/trustedFolders.json).
  void trust() const {
    rapidjson::Document folders(rapidjson::kObjectType);
    rapidjson::Value folder = fleet::json_string(project_, folders.GetAllocator());
    folders.AddMember(folder, "TRUST_FOLDER", folders.GetAllocator());
    write_file(home_ + "/.qwen/trustedFolders.json", fleet::to_json(folders));
  }

  void script(const std::string& json) const { api_->script(json); }

  // `qwen <argv...>` headless in `cwd` (the project when empty) in `kitchen`.
  RunResult qwen(const std::vector<std::string>& args, const std::string& kitchen,
                 const std::string& cwd = "") const {
    std::vector<std::string> argv = {qwen_};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, {"", qwen_env(kitchen), cwd.empty() ? project_ : cwd});
  }

  // One headless run of an L3 as session `session` in `kitchen`; returns its process and the
  // session id of its "result" event ("" when there is none).
  std::pair<RunResult, std::string> l3(const std::string& prompt, const std::string& session,
                                       const std::string& kitchen) const {
    const RunResult run =
        qwen({"-o", "stream-json", "--yolo", "--session-id", session, prompt}, kitchen);
    return {run, result_event_member(run.out, "session_id")};
  }

  // `launch-wrapper <args>` in `cwd` with Qwen Code's environment; returns its summary.
  std::pair<RunResult, std::string> launch(const std::vector<std::string>& args,
                                           const std::string& cwd) const {
    const std::string summary = tmp_ / ("summary-" + std::to_string(++launches_) + ".json");
    std::vector<std::string> argv = {bin_ + "/launch-wrapper", "--state-dir", state_,
                                     "--summary-file", summary};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult run = run_process(argv, {"", qwen_env("kitchen-1"), cwd});
    return {run, read_file(summary)};
  }

  std::vector<std::string> calls() const { return split_lines(read_file(calls_)); }
  std::string tool_results() const { return api_->tool_results(); }
  std::string store() const { return state_ + "/session_provenance.jsonl"; }
  const std::string& state() const { return state_; }
  const std::string& qwen_path() const { return qwen_; }
  std::string scratch(const std::string& name) const {
    const std::string dir = tmp_ / name;
    ::mkdir(dir.c_str(), 0755);
    return dir;
  }

  // The member `key` of the "result" event in stream-json output `out` ("" when none).
  static std::string result_event_member(const std::string& out, const char* key) {
    std::string found;
    for (const std::string& line : split_lines(out)) {
      const auto doc = fleet::parse_json_object(line);
      if (doc.ok() && fleet::string_member(*doc, "type") == "result")
        found = std::string(fleet::string_member(*doc, key).value_or(""));
    }
    return found;
  }

 private:
  Env suite_env() const {
    return {{"HOME", home_}, {"PATH", path_}, {"FLEET_HOOKS_STATE_DIR", state_}};
  }

  Env qwen_env(const std::string& kitchen) const {
    Env env = suite_env();
    env.insert(env.end(), {{"FLEET_HOOKS_KITCHEN_ID", kitchen},
                           {"OPENAI_API_KEY", "test"},
                           {"OPENAI_BASE_URL", "http://127.0.0.1:" + api_->port() + "/v1"},
                           {"OPENAI_MODEL", "mock"},
                           {"QWEN_CODE_SUPPRESS_YOLO_WARNING", "1"}});
    return env;
  }

  // OpenAI auth (the mock's key and base URL come from the environment), the dispatcher as the
  // MCP server "kitchen" whose worker is recorded by the L3's PostToolUse hook.
  std::string user_settings(bool folder_trust) const {
    rapidjson::Document doc(rapidjson::kObjectType);
    auto& alloc = doc.GetAllocator();
    rapidjson::Value auth(rapidjson::kObjectType);
    auth.AddMember("selectedType", "openai", alloc);
    rapidjson::Value security(rapidjson::kObjectType);
    security.AddMember("auth", auth, alloc);
    if (folder_trust) {
      rapidjson::Value trust(rapidjson::kObjectType);
      trust.AddMember("enabled", true, alloc);
      security.AddMember("folderTrust", trust, alloc);
    }
    doc.AddMember("security", security, alloc);
    rapidjson::Value variables(rapidjson::kObjectType);
    for (const auto& [name, value] :
         fleet::test::mcp_dispatcher_env(*api_, {home_, path_, bin_, claude_, state_, calls_}))
      variables.AddMember(fleet::json_string(name, alloc), fleet::json_string(value, alloc), alloc);
    rapidjson::Value args(rapidjson::kArrayType);
    args.PushBack(
        fleet::json_string(std::string(FLEET_E2E_FIXTURES) + "/mcp_dispatcher.mjs", alloc), alloc);
    rapidjson::Value server(rapidjson::kObjectType);
    server.AddMember("command", "node", alloc);
    server.AddMember("args", args, alloc);
    server.AddMember("env", variables, alloc);
    server.AddMember("trust", true, alloc);
    rapidjson::Value servers(rapidjson::kObjectType);
    servers.AddMember("kitchen", server, alloc);
    doc.AddMember("mcpServers", servers, alloc);
    return fleet::to_json(doc);
  }

  std::string qwen_;
  std::string claude_;
  TempDir tmp_;
  std::string home_ = tmp_ / "home";
  std::string project_ = tmp_ / "project";
  std::string bin_ = tmp_ / "bin";
  std::string state_ = tmp_ / "state";
  std::string calls_ = tmp_ / "calls.jsonl";
  std::string path_;
  std::unique_ptr<MockMessagesApi> api_;
  mutable int launches_ = 0;
};

std::string dispatch_turn(const std::string& input_json) {
  return fleet::test::dispatch_turn(input_json, kTool);
}

// A stranger in kitchen-2 resumes `worker`: CHECKs that the guard denies it, Qwen Code tells its
// model why (the reason itself is the tool's result) and the dispatcher, which ran `calls` tool
// calls so far, runs none.
void check_stranger_denied(const QwenProject& project, const std::string& worker,
                           std::size_t calls) {
  project.script(
      R"({"rules":[{"match":"L3-STEAL","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"gave up"}]}],"default":{"text":"ok"}})");
  const auto [stranger, stranger_session] =
      project.l3("L3-STEAL resume the worker", kStranger, "kitchen-2");
  CHECK_MESSAGE(stranger.exit_code == 0, stranger.err);
  CHECK(stranger_session == kStranger);
  CHECK(project.calls().size() == calls);
  CHECK_MESSAGE(
      project.tool_results().find("Refused to resume session '" + worker) != std::string::npos,
      project.tool_results());
}

}  // namespace

TEST_CASE("e2e: qwen - a stranger's resume is denied, the owner's runs, a dispatch is recorded") {
  QwenProject project;
  const RunResult install = project.fleet_hooks("install");
  REQUIRE_MESSAGE(install.exit_code == 0, (install.out + install.err));
  // Folder trust is off by default: the project's hooks run as they are.
  const RunResult check = project.fleet_hooks("check");
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));

  // The owner dispatches a worker and resumes it: both run, and the worker is recorded by the
  // PostToolUse hook with the owner's session as the caller.
  project.script(
      R"({"rules":[{"match":"L3-OWN","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") + "," +
      dispatch_turn(R"({"prompt":"L2-WORK more","resume_session_id":"{{last_session_id}}"})") +
      R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
      R"("default":{"text":"ok"}})");
  const auto [owner, owner_session] = project.l3("L3-OWN dispatch the build", kOwner, "kitchen-1");
  CHECK_MESSAGE(owner.exit_code == 0, owner.err);
  CHECK(owner_session == kOwner);
  const auto calls = project.calls();
  REQUIRE_MESSAGE(calls.size() == 2, (project.tool_results() + owner.out + owner.err));
  const std::string worker = call_field(calls[0], "result", "session_id");
  REQUIRE(!worker.empty());
  CHECK(call_field(calls[1], "input", "resume_session_id") == worker);
  CHECK(project.tool_results().find("Refused") == std::string::npos);
  const auto record = fleet::lookup_session(project.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, read_file(project.store()));
  CHECK(record.record.caller_session_id == kOwner);
  CHECK(record.record.recipe_name == "implement");

  check_stranger_denied(project, worker, 2);
  // Qwen Code rewrote .qwen/settings.json on its first run (it adds "$version"): the wiring it
  // left still passes.
  const RunResult after = project.fleet_hooks("check");
  CHECK_MESSAGE(after.exit_code == 0, (after.out + after.err));
}

TEST_CASE("e2e: qwen - with folder trust on, check fails until the project is trusted") {
  QwenProject project(true);
  REQUIRE(project.fleet_hooks("install").exit_code == 0);
  const RunResult untrusted = project.fleet_hooks("check");
  CHECK(untrusted.exit_code != 0);
  CHECK_MESSAGE(untrusted.out.find("qwen-folder-untrusted") != std::string::npos,
                (untrusted.out + untrusted.err));

  project.trust();
  const RunResult trusted = project.fleet_hooks("check");
  CHECK_MESSAGE(trusted.exit_code == 0, (trusted.out + trusted.err));
  // Trusted, Qwen Code runs the project's hooks: a stranger's resume is denied.
  const std::string worker = "0d07e5d0-0000-4000-8000-0000000000a3";
  fleet::test::write_record(project.state(), worker, kOwner, "kitchen-1");
  check_stranger_denied(project, worker, 0);
}

TEST_CASE("e2e: qwen - launch-wrapper sees a worker finish in its result event, and resumes it") {
  QwenProject project;
  const std::string cwd = project.scratch("worker");
  project.script(R"({"rules":[{"match":"L2-QWEN","turns":[{"text":"built it\n%%DONE%%"}]}],)"
                 R"("default":{"text":"ok"}})");
  const std::vector<std::string> watch = {"--agent",   "qwen", "--completion-marker", "%%DONE%%",
                                          "--drain",   "5",    "--retries",           "1",
                                          "--backoff", "0.1"};
  const auto launch = [&](std::vector<std::string> qwen_args) {
    std::vector<std::string> args = watch;
    args.insert(args.end(),
                {"--assign-session-id", "--", project.qwen_path(), "-o", "stream-json", "--yolo"});
    args.insert(args.end(), qwen_args.begin(), qwen_args.end());
    return project.launch(args, cwd);
  };
  const auto summary_member = [](const std::string& summary, const char* key) {
    const auto doc = fleet::parse_json_object(summary);
    REQUIRE_MESSAGE(doc.ok(), summary);
    const auto* value = fleet::member(*doc, key);
    REQUIRE(value != nullptr);
    return value->IsString() ? std::string(value->GetString()) : fleet::to_json(*value);
  };

  // A fresh worker: the id launch-wrapper assigned is the session's, and its completion is the
  // result event on stdout (its session file has no such record).
  const auto [fresh, fresh_summary] = launch({"L2-QWEN build it"});
  CHECK_MESSAGE(fresh.exit_code == 0, (fresh.err + fresh_summary));
  const std::string id = summary_member(fresh_summary, "session_id");
  CHECK(QwenProject::result_event_member(fresh.out, "session_id") == id);
  CHECK(summary_member(fresh_summary, "completion_seen") == "true");

  // Resumed with -r: the same session, whose file holds the first answer; seen again only in
  // this run's result event.
  const auto [resumed, resumed_summary] = launch({"-r", id, "L2-QWEN more"});
  CHECK_MESSAGE(resumed.exit_code == 0, (resumed.err + resumed_summary));
  CHECK(summary_member(resumed_summary, "session_id") == id);
  CHECK(summary_member(resumed_summary, "completion_seen") == "true");

  // An id Qwen Code has no session of: a stale session, retried as a fresh one.
  const std::string unknown = "99999999-0000-4000-8000-0000000000a4";
  const auto [stale, stale_summary] = launch({"-r", unknown, "L2-QWEN again"});
  CHECK_MESSAGE(stale.exit_code == 0, (stale.err + stale_summary));
  CHECK(summary_member(stale_summary, "attempts") == "2");
  CHECK(summary_member(stale_summary, "failure_classes") == R"(["stale_session"])");
  CHECK(summary_member(stale_summary, "session_id") != unknown);
  CHECK(summary_member(stale_summary, "completion_seen") == "true");
}
