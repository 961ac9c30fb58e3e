// End to end, a mixed fleet: a Claude Code L3 orchestrator dispatches a worker of each other
// CLI (kWorkers: Codex, Gemini, Qwen Code, GitHub Copilot CLI, OpenCode) through the stdio MCP
// dispatcher, which launches each with launch-wrapper --agent <cli> --record-provenance, and
// resumes it; every CLI talks to the same scripted mock and the project is wired for all six by
// fleet-hooks install (Codex and Copilot trusted with --trust, Gemini's folder trusted).
// Assertions use what each worker's model was sent, the store, and each CLI's own session
// files (OpenCode's: its database).

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <string>

#include "agent_orchestrator.h"
#include "base/json.h"
#include "base/paths.h"
#include "claude_cli.h"
#include "fixtures.h"
#include "store/provenance_store.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::EnvList;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;

namespace {

class MixedFleet {
 public:
  MixedFleet()
      : claude_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "claude")),
        codex_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "codex")),
        gemini_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "gemini")),
        qwen_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "qwen")),
        copilot_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "copilot")),
        opencode_(fleet::test::cli_or_skip(FLEET_E2E_CACHE, "opencode")) {
    for (const std::string& dir : {home_, home_ + "/.qwen", codex_home_, project_, bin_, state_}) {
      ::mkdir(dir.c_str(), 0755);
    }
    fleet::test::link_suite(bin_,
                            {"resume-guard", "provenance-writer", "launch-wrapper", "fleet-hooks"});
    api_ = std::make_unique<fleet::test::MockMessagesApi>(FLEET_E2E_FIXTURES, tmp_.path());
    fleet::test::write_codex_config(codex_home_, api_->port(), "", {});
    fleet::test::write_gemini_user_settings(home_);
    fleet::test::trust_gemini_folder(home_, project_);
    // Qwen Code's OpenAI auth; its key, base URL and model come from the environment.
    fleet::test::write_file(home_ + "/.qwen/settings.json",
                            R"({"security":{"auth":{"selectedType":"openai"}}})");
    fleet::test::write_copilot_config(home_, {});
    // OpenCode's opencode.json: the mock as its provider, no MCP server for a worker.
    fleet::test::write_opencode_config(home_, project_, api_->port(), "", {});
    std::vector<std::string> agents;
    for (const char* cli : {"claude", "codex", "gemini", "qwen", "copilot", "opencode"})
      agents.insert(agents.end(), {"--agent", cli});
    fleet_hooks(with(agents, "install"));
    fleet_hooks({"install", "--agent", "codex", "--agent", "copilot", "--trust"});
    fleet_hooks(with(agents, "check"));

    EnvList env = {
        {"HOME", home_},
        {"PATH", path_},
        {"CODEX_HOME", codex_home_},
        {"FLEET_HOOKS_STATE_DIR", state_},
        {"FLEET_DISPATCH_LAUNCHER", bin_ + "/launch-wrapper"},
        {"FLEET_DISPATCH_PROGRAM_CLAUDE", claude_},
        {"FLEET_DISPATCH_PROGRAM_CODEX", codex_},
        {"FLEET_DISPATCH_PROGRAM_GEMINI", gemini_},
        {"FLEET_DISPATCH_PROGRAM_QWEN", qwen_},
        {"FLEET_DISPATCH_PROGRAM_COPILOT", copilot_},
        // Copilot's loader unpacks itself into the set-up's cache once, not into
        // every home; OpenCode keeps its files in the test's home.
        {"FLEET_DISPATCH_ENV_COPILOT",
         R"({"XDG_CACHE_HOME":")" + std::string(FLEET_E2E_CACHE) + R"(/copilot-xdg-cache"})"},
        {"FLEET_DISPATCH_ENV_OPENCODE",
         R"({"XDG_CONFIG_HOME":")" + home_ + R"(/.config","XDG_DATA_HOME":")" + home_ +
             R"(/.local/share","XDG_CACHE_HOME":")" + home_ + R"(/.cache","XDG_STATE_HOME":")" +
             home_ + R"(/.local/state"})"},
        {"FLEET_DISPATCH_PROGRAM_OPENCODE", opencode_},
        {"FLEET_DISPATCH_WRAPPER_ARGS", fleet::test::kDispatcherWrapperArgs},
        {"COPILOT_OFFLINE", "true"},
        {"COPILOT_AUTO_UPDATE", "false"},
        {"COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:" + api_->port() + "/v1"},
        {"COPILOT_PROVIDER_API_KEY", "fleet-e2e-7c41d9b2"},
        {"COPILOT_MODEL", "mock"},
        {"OPENCODE_DISABLE_MODELS_FETCH", "1"},
        {"OPENCODE_DISABLE_AUTOUPDATE", "1"},
        {"OPENAI_API_KEY", "test"},
        {"OPENAI_BASE_URL", "http://127.0.0.1:" + api_->port() + "/v1"},
        {"OPENAI_MODEL", "mock"},
        {"QWEN_CODE_SUPPRESS_YOLO_WARNING", "1"},
        {"FLEET_DISPATCH_STATE_DIR", state_},
        {"FLEET_DISPATCH_KITCHEN", "kitchen-1"},
        {"FLEET_DISPATCH_JOURNAL", tmp_ / "calls.jsonl"}};
    const EnvList model = fleet::test::agent_model_env(api_->port());
    env.insert(env.end(), model.begin(), model.end());
    fleet::test::write_dispatcher_config(tmp_ / "mcp.json", FLEET_EXAMPLE_DISPATCHER, env);
  }

  void script(const std::string& json) const { api_->script(json); }

  fleet::test::ClaudeRun l3(const std::string& prompt) const {
    auto env = api_->client_env();
    env.insert(env.end(), {{"HOME", home_},
                           {"PATH", path_},
                           {"CODEX_HOME", codex_home_},
                           {"FLEET_HOOKS_STATE_DIR", state_},
                           {"FLEET_HOOKS_KITCHEN_ID", "kitchen-1"}});
    return fleet::test::run_claude(
        {claude_, "-p", prompt, "--session-id", fleet::test::kL3, "--output-format", "stream-json",
         "--verbose", "--mcp-config", tmp_ / "mcp.json", "--allowedTools",
         fleet::test::kDispatchTool},
        {"", env, project_});
  }

  std::vector<std::string> calls() const {
    return fleet::test::split_lines(read_file(tmp_ / "calls.jsonl"));
  }
  std::string store() const { return state_ + "/session_provenance.jsonl"; }
  std::string api_log() const { return read_file(tmp_ / "api.jsonl"); }
  // Every file a CLI keeps its sessions in under `root` (Codex rollouts, Gemini chats, Copilot's
  // events, OpenCode's SQLite database and its log), concatenated.
  static std::string session_files(const std::string& root) {
    std::string all;
    std::error_code ignored;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root, ignored)) {
      if (entry.is_regular_file(ignored)) all += read_file(entry.path().string());
    }
    return all;
  }
  // The session files under `folder` of this fleet's temporary directory.
  std::string sessions(const std::string& folder) const { return session_files(tmp_ / folder); }

 private:
  static std::vector<std::string> with(std::vector<std::string> args, const char* subcommand) {
    args.insert(args.begin(), subcommand);
    return args;
  }

  void fleet_hooks(std::vector<std::string> args) const {
    args.insert(args.begin(), bin_ + "/fleet-hooks");
    args.insert(args.end(), {"--project", project_});
    const RunResult run = run_process(
        args, {"", {{"HOME", home_}, {"PATH", path_}, {"CODEX_HOME", codex_home_}}, ""});
    REQUIRE_MESSAGE(run.exit_code == 0, (args[1] + ": " + run.out + run.err));
  }

  fleet::test::TempDir tmp_;
  std::string claude_;
  std::string codex_;
  std::string gemini_;
  std::string qwen_;
  std::string copilot_;
  std::string opencode_;
  std::string home_ = tmp_ / "home";
  std::string codex_home_ = tmp_ / "codex-home";
  std::string project_ = tmp_ / "project";
  std::string bin_ = tmp_ / "bin";
  std::string state_ = tmp_ / "state";
  std::string path_ = bin_ + ":" + fleet::env_value("PATH");
  std::unique_ptr<fleet::test::MockMessagesApi> api_;
};

std::string field(const std::string& call_line, const char* key) {
  const auto doc = fleet::parse_json_object(call_line);
  REQUIRE(doc.ok());
  const auto* result = fleet::member(*doc, "result");
  REQUIRE(result != nullptr);
  const auto* value = fleet::member(*result, key);
  if (value == nullptr) return "";
  return value->IsString() ? std::string(value->GetString()) : fleet::to_json(*value);
}

// A worker's turns: its first tool call prints the store (so its model sees whether the worker
// was recorded before that call), then a first answer with the completion marker; resumed, a
// second answer with the marker again, slower than launch-wrapper's 3 s drain: a wrapper that
// took the old marker for the resumed run's would stop the worker before it.
std::string worker_rules(const std::string& name, const std::string& shell_call,
                         const std::string& store) {
  return R"({"match":")" + name + R"(-FIRST","turns":[{"tool_use":)" + shell_call + store +
         R"("}}},{"text":")" + name + R"( part one\n%%L2_DONE%%"}]},{"match":")" + name +
         R"(-AGAIN","turns":[{"text":")" + name + R"( part two\n%%L2_DONE%%","delay_ms":4000}]})";
}

// What launch-wrapper printed on stderr for a dispatcher call.
std::string stderr_of(const std::string& call_line) {
  const auto doc = fleet::parse_json_object(call_line);
  REQUIRE(doc.ok());
  return std::string(fleet::string_member(*doc, "stderr").value_or(""));
}

std::string dispatch(const std::string& input_json) {
  return fleet::test::dispatch_turn(input_json);
}

}  // namespace

// A worker CLI of the fleet: its --agent name, the word its rules match, its shell tool call
// (up to the command), and where it writes its session files (under the fleet's temporary
// directory).
struct Worker {
  const char* cli;
  const char* name;
  const char* shell_call;
  const char* sessions;
};

constexpr Worker kWorkers[] = {
    {.cli = "codex",
     .name = "CODEX",
     .shell_call = R"({"name":"exec_command","input":{"cmd":"cat )",
     .sessions = "codex-home/sessions"},
    {.cli = "gemini",
     .name = "GEMINI",
     .shell_call = R"({"name":"run_shell_command","input":{"command":"cat )",
     .sessions = "home/.gemini/tmp"},
    {.cli = "qwen",
     .name = "QWEN",
     .shell_call = R"({"name":"run_shell_command","input":{"command":"cat )",
     .sessions = "home/.qwen/projects"},
    {.cli = "copilot",
     .name = "COPILOT",
     .shell_call = R"({"name":"bash","input":{"description":"print the store","command":"cat )",
     .sessions = "home/.copilot/session-state"},
    {.cli = "opencode",
     .name = "OPENCODE",
     .shell_call = R"({"name":"bash","input":{"description":"print the store","command":"cat )",
     .sessions = "home/.local/share/opencode"},
};

TEST_CASE("e2e: mixed fleet - Claude Code dispatches and resumes a worker of each other CLI") {
  MixedFleet fleet;
  const std::string marker = R"(,"completion_marker":"%%L2_DONE%%")";
  std::string l3_turns;
  std::string worker_turns;
  for (const Worker& worker : kWorkers) {
    const std::string agent = std::string(R"(,"agent":")") + worker.cli + "\"";
    l3_turns += dispatch(std::string(R"({"prompt":")") + worker.name + "-FIRST work\"" + agent +
                         marker + "}") +
                "," +
                dispatch(std::string(R"({"prompt":")") + worker.name + "-AGAIN more\"" + agent +
                         R"(,"resume_session_id":"{{last_session_id}}")" + marker + "}") +
                ",";
    worker_turns += worker_rules(worker.name, worker.shell_call, fleet.store()) + ",";
  }
  worker_turns.pop_back();
  fleet.script(R"({"rules":[{"match":"L3-MIXED","turns":[)" + l3_turns +
               R"({"text":"L3 done"}]},)" + worker_turns + R"(],"default":{"text":"ok"}})");
  const auto run = fleet.l3("L3-MIXED dispatch a worker of each CLI");
  CHECK(run.denials() == 0);
  const auto calls = fleet.calls();
  REQUIRE_MESSAGE(calls.size() == 2 * std::size(kWorkers), fleet.api_log());
  for (const auto& call : calls) CHECK_MESSAGE(field(call, "exit_code") == "0", call);

  for (std::size_t i = 0; i < std::size(kWorkers); ++i) {
    const Worker& worker = kWorkers[i];
    INFO(std::string(worker.cli));
    const std::string id = field(calls[2 * i], "session_id");
    REQUIRE(!id.empty());
    // The resume ran the same session, with its CLI's own flags.
    CHECK(field(calls[2 * i + 1], "session_id") == id);
    // Recorded as the L3's worker, in its CLI ...
    const auto owner = fleet::lookup_session(fleet.store(), id);
    REQUIRE(owner.status == fleet::StoreLookup::Status::found);
    CHECK(owner.record.caller_session_id == fleet::test::kL3);
    CHECK(owner.record.agent_cli == worker.cli);
    // ... before its first tool call: the store that call printed already held it.
    bool seen = false;
    for (const auto& line : fleet::test::split_lines(fleet.api_log())) {
      if (line.find(std::string(R"("match":")") + worker.name + "-FIRST\"") != std::string::npos &&
          line.find(id) != std::string::npos) {
        seen = true;
      }
    }
    CHECK_MESSAGE(seen, fleet.api_log());
    // The resumed worker was not stopped by the completion marker its session files already
    // held: it made its slow second answer, which its CLI wrote to the same session.
    CHECK(fleet.sessions(worker.sessions).find(std::string(worker.name) + " part two") !=
          std::string::npos);
    // Its own start hook recorded it (launch-wrapper had no late record to warn about); a
    // resume records nothing, and has nothing to warn about either.
    CHECK_MESSAGE(stderr_of(calls[2 * i]).find("was not recorded") == std::string::npos,
                  stderr_of(calls[2 * i]));
    CHECK(stderr_of(calls[2 * i + 1]).find("was not recorded") == std::string::npos);
  }
}
