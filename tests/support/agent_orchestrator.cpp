#include "agent_orchestrator.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <stdexcept>

#include "base/json.h"
#include "base/paths.h"
#include "store/provenance_store.h"
#include "suite.h"

namespace fleet::test {
namespace {

using Env = EnvList;

constexpr const char* kDefaultTool = "dispatch_food_truck";

// The member of a CLI's JSON output that names its session (Codex: "thread.started"'s
// thread_id; Copilot: the "result" line's sessionId; OpenCode: every event's sessionID).
const char* session_key(const std::string& agent) {
  if (agent == "codex") return "thread_id";
  if (agent == "copilot") return "sessionId";
  if (agent == "opencode") return "sessionID";
  return "session_id";
}

}  // namespace

const AgentCliProfile& agent_profile(const std::string& name) {
  static const AgentCliProfile codex{"codex", "Tool call blocked by PreToolUse hook: "};
  static const AgentCliProfile gemini{"gemini", "Tool execution blocked: "};
  static const AgentCliProfile copilot{"copilot", "Denied by preToolUse hook: "};
  // Qwen Code gives the model the hook's reason itself; OpenCode, the plugin's thrown message.
  static const AgentCliProfile qwen{"qwen", ""};
  static const AgentCliProfile opencode{"opencode", ""};
  for (const AgentCliProfile* profile : {&codex, &gemini, &copilot, &qwen, &opencode}) {
    if (profile->name == name) return *profile;
  }
  throw std::invalid_argument("no agent CLI profile named " + name);
}

AgentFleet::AgentFleet(const std::string& agent, const std::string& fixtures_dir,
                       const std::string& cache_dir, const FleetOptions& options)
    : profile_(agent_profile(agent)),
      options_(options),
      fixtures_(fixtures_dir),
      cache_dir_(cache_dir),
      cli_(cli_or_skip(cache_dir, agent)),
      claude_(cli_or_skip(cache_dir, "claude")) {
  for (const std::string& dir : {home_, codex_home_, project_, bin_, state_, home_ + "/.gemini"}) {
    ::mkdir(dir.c_str(), 0755);
  }
  link_suite(bin_, {"resume-guard", "provenance-writer", "launch-wrapper", "fleet-hooks"});
  if (options_.worktrees) {
    const RunResult repository = run_process(
        {"/bin/sh", "-c",
         "git init -q && git -c user.name=t -c user.email=t@example.com commit -q --allow-empty "
         "-m start"},
        {"", {{"HOME", home_}}, project_});
    REQUIRE_MESSAGE(repository.exit_code == 0, repository.err);
  }
  path_ = bin_ + ":" + env_value("PATH");
  if (options_.record_at_launch) {
    // Named claude: launch-wrapper gives it --session-id <id> as Claude Code's own option.
    ::mkdir((tmp_ / "worker").c_str(), 0755);
    claude_ = write_script(tmp_ / "worker/claude",
                           "id=; previous=\n"
                           "for arg in \"$@\"; do\n"
                           "  [ \"$previous\" = --session-id ] && id=$arg; previous=$arg\n"
                           "done\n"
                           "[ -n \"$id\" ] && grep \"\\\"session_id\\\":\\\"$id\\\"\" " +
                               store() + " > " + state_ +
                               "/seen-$id\n"
                               "echo '{\"type\":\"result\",\"result\":\"worker finished\"}'\n");
  }
  api_ = std::make_unique<MockMessagesApi>(fixtures_dir, tmp_.path());
  const std::string dispatcher = mcp_server();
  if (agent == "codex") {
    configure_codex();
  } else if (agent == "copilot") {
    write_copilot_config(home_, {});  // its MCP server is on its command line (l3)
  } else if (agent == "qwen") {
    write_qwen_user_settings(home_, mcp_server_json(dispatcher, dispatcher_env()),
                             options_.folder_trust);
  } else if (agent == "opencode") {
    write_opencode_config(home_, project_, api_->port(), dispatcher, dispatcher_env());
  } else {
    configure_gemini();
  }
}

AgentFleet::~AgentFleet() = default;

Env mcp_dispatcher_env(const MockMessagesApi& api, const DispatcherPaths& paths) {
  Env env = api.client_env();  // for the Claude Code workers
  env.insert(env.end(), {{"HOME", paths.home},
                         {"PATH", paths.path},
                         {"FLEET_DISPATCH_LAUNCHER", paths.detached_launcher.empty()
                                                         ? paths.bin + "/launch-wrapper"
                                                         : paths.detached_launcher},
                         {"FLEET_E2E_LAUNCH_WRAPPER", paths.bin + "/launch-wrapper"},
                         {"FLEET_DISPATCH_PROGRAM_CLAUDE", paths.claude},
                         {"FLEET_DISPATCH_KITCHEN", "kitchen-1"},
                         {"FLEET_DISPATCH_WRAPPER_ARGS", kDispatcherWrapperArgs},
                         {"FLEET_DISPATCH_JOURNAL", paths.calls}});
  // Else the record comes from the L3's PostToolUse / AfterTool hook.
  if (!paths.record_at_launch) env.emplace_back("FLEET_DISPATCH_RECORD", "0");
  if (!paths.tool.empty()) env.emplace_back("FLEET_DISPATCH_TOOL", paths.tool);
  if (paths.worktrees) {
    env.emplace_back("FLEET_DISPATCH_WORKTREES", "1");
  } else {
    env.emplace_back("FLEET_DISPATCH_STATE_DIR", paths.state);
  }
  return env;
}

std::string call_field(const std::string& call_line, const char* object, const char* key) {
  const auto doc = parse_json_object(call_line);
  REQUIRE(doc.ok());
  const auto* inner = member(*doc, object);
  REQUIRE(inner != nullptr);
  const auto* value = member(*inner, key);
  if (value == nullptr) return "";
  return value->IsString() ? std::string(value->GetString(), value->GetStringLength())
                           : to_json(*value);
}

Env AgentFleet::dispatcher_env() const {
  Env env = mcp_dispatcher_env(
      *api_,
      {home_, path_, bin_, claude_, state_, calls_, options_.record_at_launch, options_.tool,
       options_.worktrees, options_.detached ? fixtures_ + "/detached_launch.sh" : std::string()});
  if (!options_.service_socket.empty())
    env.emplace_back("FLEET_E2E_SERVICE_SOCKET", options_.service_socket);
  return env;
}

std::string AgentFleet::mcp_server() const {
  return options_.service_socket.empty() ? std::string(FLEET_EXAMPLE_DISPATCHER)
                                         : fixtures_ + "/dispatcher_service.mjs";
}

std::string AgentFleet::dispatcher_service(const std::string& socket) const {
  const std::string file = tmp_ / "dispatcher-service.json";
  write_file(file, mcp_server_json(FLEET_EXAMPLE_DISPATCHER, dispatcher_env()));
  return "node " + fixtures_ + "/dispatcher_service.mjs serve " + socket + " " + file;
}

void AgentFleet::configure_codex() const {
  write_codex_config(codex_home_, api_->port(), mcp_server(), dispatcher_env());
}

// The project's .gemini/settings.json: the dispatcher as the trusted MCP server "kitchen".
void AgentFleet::configure_gemini() const {
  write_gemini_user_settings(home_);
  ::mkdir((project_ + "/.gemini").c_str(), 0755);
  write_file(
      project_ + "/.gemini/settings.json",
      R"({"mcpServers":{"kitchen":)" + mcp_server_json(mcp_server(), dispatcher_env()) + "}}");
}

// The dispatcher as Copilot's MCP server "kitchen", for --additional-mcp-config.
std::string AgentFleet::copilot_mcp_config() const {
  rapidjson::Document doc = json_document(R"({"mcpServers":{"kitchen":)" +
                                          mcp_server_json(mcp_server(), dispatcher_env()) + "}}");
  auto& alloc = doc.GetAllocator();
  rapidjson::Value& server = doc["mcpServers"]["kitchen"];
  server.RemoveMember("trust");
  server.AddMember("type", "local", alloc);
  rapidjson::Value tools(rapidjson::kArrayType);
  tools.PushBack("*", alloc);
  server.AddMember("tools", tools, alloc);
  return to_json(doc);
}

void AgentFleet::install() const {
  std::vector<std::string> argv = {bin_ + "/fleet-hooks", "install",   "--agent",
                                   profile_.name,         "--project", project_};
  if (options_.tool != kDefaultTool) argv.insert(argv.end(), {"--tool", options_.tool});
  const RunResult install = run_process(argv, {"", suite_env(), ""});
  REQUIRE_MESSAGE(install.exit_code == 0, (install.out + install.err));
}

RunResult AgentFleet::check() const {
  return run_process(
      {bin_ + "/fleet-hooks", "check", "--agent", profile_.name, "--project", project_},
      {"", suite_env(), ""});
}

RunResult AgentFleet::fleet_hooks(const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {bin_ + "/fleet-hooks"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"--project", project_});
  return run_process(argv, {"", suite_env(), ""});
}

void AgentFleet::trust() const {
  if (profile_.name == "gemini") {
    trust_gemini_folder(home_, project_);
    return;
  }
  if (profile_.name == "copilot") {
    write_copilot_config(home_, {project_});
    return;
  }
  if (profile_.name == "qwen") {
    trust_qwen_folder(home_, project_);
    return;
  }
  const RunResult trusted = run_process(
      {bin_ + "/fleet-hooks", "install", "--agent", "codex", "--trust", "--project", project_},
      {"", suite_env(), ""});
  REQUIRE_MESSAGE(trusted.exit_code == 0, (trusted.out + trusted.err));
}

void AgentFleet::take_suite_off_path() {
  path_ = env_value("PATH");
  require_suite_absent(path_);
}

void AgentFleet::check_stranger_denied(const std::string& worker, const std::string& owner,
                                       std::size_t calls) const {
  script(R"({"rules":[{"match":"L3-STEAL","turns":[)" +
         dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
         R"(,{"text":"gave up"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
  const AgentRun stranger = l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK_MESSAGE(stranger.process.exit_code == 0, stranger.process.err);
  CHECK(stranger.session_id != owner);
  CHECK(this->calls().size() == calls);
  CHECK_MESSAGE(tool_results().find(profile_.blocked_prefix + "Refused to resume session '" +
                                    worker) != std::string::npos,
                tool_results());
}

std::string AgentFleet::check_guarded(const std::vector<std::string>& extra) const {
  const std::string agent = profile_.name;
  script(
      R"({"rules":[{"match":"L3-OWN","turns":[)" +
      dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement","step_name":"build"})") +
      "," +
      dispatch_turn(R"({"prompt":"L2-WORK continue","resume_session_id":"{{last_session_id}}"})") +
      R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
      R"("default":{"text":"ok"}})");
  const AgentRun owner = l3("L3-OWN dispatch the build", "kitchen-1", extra);
  CHECK_MESSAGE(owner.process.exit_code == 0, owner.process.err);
  REQUIRE_MESSAGE(!owner.session_id.empty(), (owner.process.out + owner.process.err));
  auto calls = this->calls();
  REQUIRE_MESSAGE(calls.size() == 2, (tool_results() + owner.process.err));
  const std::string worker = call_field(calls[0], "result", "session_id");
  REQUIRE(!worker.empty());
  // (b) the owner's resume ran.
  CHECK(call_field(calls[1], "input", "resume_session_id") == worker);
  CHECK(call_field(calls[1], "result", "session_id") == worker);
  // Nothing was blocked (Qwen Code and OpenCode give the model the guard's reason alone).
  const std::string blocked = profile_.blocked_prefix.empty() ? "Refused" : profile_.blocked_prefix;
  CHECK(tool_results().find(blocked) == std::string::npos);
  // (c) the fresh dispatch was recorded by `provenance-writer hook --agent <cli>` (the
  // dispatcher records nothing here), with the L3's own session id as the caller.
  const auto record = fleet::lookup_session(store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, agent);
  CHECK(record.record.caller_session_id == owner.session_id);
  CHECK(record.record.kitchen_id == "kitchen-1");
  CHECK(record.record.recipe_name == "implement");

  // (a) a stranger's resume is denied: the model is told why, the dispatcher does not run.
  check_stranger_denied(worker, owner.session_id, 2);
  return owner.session_id;
}

void AgentFleet::script(const std::string& json) const {
  api_->script(json);
}

std::string AgentFleet::dispatch_turn(const std::string& input_json) const {
  const std::string& tool = options_.tool;
  // Codex offers an MCP server's tools in the namespace mcp__<server>, under their own names;
  // Gemini offers them as mcp_<server>_<tool>, Qwen Code as mcp__<server>__<tool>, Copilot as
  // <server>-<tool>, OpenCode as <server>_<tool>.
  if (profile_.name == "codex") {
    return R"({"tool_use":{"name":")" + tool + R"(","namespace":"mcp__kitchen","input":)" +
           input_json + "}}";
  }
  if (profile_.name == "copilot") return fleet::test::dispatch_turn(input_json, "kitchen-" + tool);
  if (profile_.name == "qwen")
    return fleet::test::dispatch_turn(input_json, "mcp__kitchen__" + tool);
  if (profile_.name == "opencode") return fleet::test::dispatch_turn(input_json, "kitchen_" + tool);
  return fleet::test::dispatch_turn(input_json, "mcp_kitchen_" + tool);
}

Env AgentFleet::suite_env() const {
  return {{"HOME", home_},
          {"PATH", path_},
          {"CODEX_HOME", codex_home_},
          {"FLEET_HOOKS_STATE_DIR", state_}};
}

Env AgentFleet::cli_env(const std::string& kitchen) const {
  Env env = suite_env();
  env.emplace_back("FLEET_HOOKS_KITCHEN_ID", kitchen);
  env.insert(env.end(), options_.inherited.begin(), options_.inherited.end());
  const Env model = agent_model_env(api_->port());
  env.insert(env.end(), model.begin(), model.end());
  const std::string base_url = "http://127.0.0.1:" + api_->port() + "/v1";
  if (profile_.name == "copilot") {
    env.insert(env.end(), {{"COPILOT_OFFLINE", "true"},
                           {"COPILOT_AUTO_UPDATE", "false"},
                           {"COPILOT_PROVIDER_BASE_URL", base_url},
                           {"COPILOT_PROVIDER_API_KEY", "fleet-e2e-7c41d9b2"},
                           {"COPILOT_MODEL", "mock"},
                           // The loader unpacks ~235 MB of Copilot into its cache once, not into
                           // every test's home.
                           {"XDG_CACHE_HOME", cache_dir_ + "/copilot-xdg-cache"}});
  } else if (profile_.name == "qwen") {
    env.insert(env.end(), {{"OPENAI_API_KEY", "test"},
                           {"OPENAI_BASE_URL", base_url},
                           {"OPENAI_MODEL", "mock"},
                           {"QWEN_CODE_SUPPRESS_YOLO_WARNING", "1"}});
  } else if (profile_.name == "opencode") {
    env.insert(env.end(), {{"XDG_CONFIG_HOME", home_ + "/.config"},
                           {"XDG_DATA_HOME", home_ + "/.local/share"},
                           {"XDG_CACHE_HOME", home_ + "/.cache"},
                           {"XDG_STATE_HOME", home_ + "/.local/state"},
                           {"PWD", project_},  // OpenCode takes its project folder from $PWD
                           {"OPENCODE_DISABLE_MODELS_FETCH", "1"},
                           {"OPENCODE_DISABLE_AUTOUPDATE", "1"},
                           // Should it install @opencode-ai/plugin after all, offline that fails
                           // at once instead of after npm's retries.
                           {"npm_config_registry", "http://127.0.0.1:9/"},
                           {"npm_config_fetch_retries", "0"},
                           {"npm_config_offline", "true"}});
  }
  return env;
}

std::vector<std::string> AgentFleet::l3_command(const std::string& prompt,
                                                const std::vector<std::string>& extra) const {
  std::vector<std::string> argv;
  if (profile_.name == "codex") {
    argv = {cli_, "exec", "--json", "--skip-git-repo-check", prompt};
  } else if (profile_.name == "copilot") {
    argv = {cli_,
            "-p",
            prompt,
            "--allow-all-tools",
            "--output-format",
            "json",
            "--additional-mcp-config",
            copilot_mcp_config()};
  } else if (profile_.name == "qwen") {
    argv = {cli_, "-o", "stream-json", "--yolo", prompt};
  } else if (profile_.name == "opencode") {
    argv = {cli_, "run", "--format", "json", prompt};
  } else {
    argv = {cli_, "-p", prompt, "-o", "json"};
  }
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

AgentRun AgentFleet::l3(const std::string& prompt, const std::string& kitchen,
                        const std::vector<std::string>& extra) const {
  AgentRun run{run_process(l3_command(prompt, extra), {"", cli_env(kitchen), project_}), ""};
  run.session_id = session_in(run.process.out);
  return run;
}

std::string AgentFleet::session_in(const std::string& out) const {
  // Gemini prints one JSON object (-o json); the others a JSON line per event. OpenCode's first
  // event names the run's own session (a subagent's events name its child session).
  std::string session;
  const std::vector<std::string> lines =
      profile_.name == "gemini" ? std::vector{out} : split_lines(out);
  for (const auto& line : lines) {
    const auto doc = parse_json_object(line);
    if (!doc.ok()) continue;
    if (auto id = string_member(*doc, session_key(profile_.name))) session = std::string(*id);
    if (profile_.name == "opencode" && !session.empty()) break;
  }
  return session;
}

std::unique_ptr<BackgroundProcess> AgentFleet::background(const std::vector<std::string>& argv,
                                                          const std::string& kitchen) const {
  return std::make_unique<BackgroundProcess>(argv, RunOptions{"", cli_env(kitchen), project_});
}

std::pair<RunResult, std::string> AgentFleet::launch(const std::vector<std::string>& args,
                                                     const std::string& cwd) const {
  const std::string summary = tmp_ / ("summary-" + std::to_string(++launches_) + ".json");
  std::vector<std::string> argv = {bin_ + "/launch-wrapper", "--state-dir", state_,
                                   "--summary-file", summary};
  argv.insert(argv.end(), args.begin(), args.end());
  const RunResult run = run_process(argv, {"", cli_env("kitchen-1"), cwd});
  return {run, read_file(summary)};
}

void AgentFleet::record(const std::string& worker, const std::string& caller,
                        const std::string& kitchen) const {
  write_record(state_, worker, caller, kitchen);
}

std::vector<std::string> AgentFleet::calls() const {
  return split_lines(read_file(calls_));
}

}  // namespace fleet::test
