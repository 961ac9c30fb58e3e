#include "agent_orchestrator.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <stdexcept>

#include "base/json.h"
#include "base/paths.h"
#include "suite.h"

namespace fleet::test {
namespace {

using Env = EnvList;

// A TOML basic string: JSON's escapes are TOML's for the plain paths and values used here.
std::string toml_string(const std::string& text) {
  rapidjson::Document doc;
  return to_json(json_string(text, doc.GetAllocator()));
}

// The MCP dispatcher as a Gemini "mcpServers" entry (trusted: no confirmation).
rapidjson::Value gemini_server(const std::string& script, const Env& env,
                               rapidjson::Document::AllocatorType& alloc) {
  rapidjson::Value variables(rapidjson::kObjectType);
  for (const auto& [name, value] : env) {
    variables.AddMember(json_string(name, alloc), json_string(value, alloc), alloc);
  }
  rapidjson::Value args(rapidjson::kArrayType);
  args.PushBack(json_string(script, alloc), alloc);
  rapidjson::Value server(rapidjson::kObjectType);
  server.AddMember("command", "node", alloc);
  server.AddMember("args", args, alloc);
  server.AddMember("env", variables, alloc);
  server.AddMember("trust", true, alloc);
  return server;
}

}  // namespace

void write_codex_config(const std::string& codex_home, const std::string& port,
                        const std::string& dispatcher_script, const Env& dispatcher_env) {
  std::string toml =
      "model = \"gpt-5\"\nmodel_provider = \"mock\"\n\n[model_providers.mock]\n"
      "name = \"mock\"\nbase_url = " +
      toml_string("http://127.0.0.1:" + port + "/v1") +
      "\nwire_api = \"responses\"\nenv_key = \"FLEET_E2E_MODEL_KEY\"\n";
  if (!dispatcher_script.empty()) {
    toml += "\n[mcp_servers.kitchen]\ncommand = \"node\"\nargs = [" +
            toml_string(dispatcher_script) +
            "]\ndefault_tools_approval_mode = \"approve\"\n\n[mcp_servers.kitchen.env]\n";
    for (const auto& [name, value] : dispatcher_env) {
      toml += name + " = " + toml_string(value) + "\n";
    }
  }
  write_file(codex_home + "/config.toml", toml);
}

void write_gemini_user_settings(const std::string& home) {
  ::mkdir((home + "/.gemini").c_str(), 0755);
  write_file(home + "/.gemini/settings.json",
             R"({"security":{"auth":{"selectedType":"gemini-api-key"}},)"
             R"("privacy":{"usageStatisticsEnabled":false}})");
}

Env agent_model_env(const std::string& port) {
  return {{"FLEET_E2E_MODEL_KEY", "test"},
          {"GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:" + port},
          {"GEMINI_API_KEY", "test"},
          // One process instead of a relaunched child: seconds less per run.
          {"GEMINI_CLI_NO_RELAUNCH", "true"},
          // Under GitHub Actions Gemini strips the hooks' environment to a few variables
          // (FLEET_HOOKS_* among the lost): not in these tests.
          {"GITHUB_SHA", ""},
          {"SURFACE", ""}};
}

void trust_gemini_folder(const std::string& home, const std::string& project) {
  rapidjson::Document folders(rapidjson::kObjectType);
  rapidjson::Value folder = json_string(project, folders.GetAllocator());
  folders.AddMember(folder, "TRUST_FOLDER", folders.GetAllocator());
  write_file(home + "/.gemini/trustedFolders.json", to_json(folders));
}

void write_copilot_config(const std::string& home, const std::vector<std::string>& trusted) {
  rapidjson::Document config(rapidjson::kObjectType);
  rapidjson::Value folders(rapidjson::kArrayType);
  for (const std::string& folder : trusted)
    folders.PushBack(json_string(folder, config.GetAllocator()), config.GetAllocator());
  config.AddMember("trustedFolders", folders, config.GetAllocator());
  ::mkdir((home + "/.copilot").c_str(), 0755);
  write_file(home + "/.copilot/config.json",
             std::string(kCopilotConfigComments) + to_json(config) + "\n");
}

const AgentCliProfile& agent_profile(const std::string& name) {
  static const AgentCliProfile codex{"codex", "Tool call blocked by PreToolUse hook: "};
  static const AgentCliProfile gemini{"gemini", "Tool execution blocked: "};
  static const AgentCliProfile copilot{"copilot", "Denied by preToolUse hook: "};
  if (name == "codex") return codex;
  if (name == "gemini") return gemini;
  if (name == "copilot") return copilot;
  throw std::invalid_argument("no agent CLI profile named " + name);
}

AgentFleet::AgentFleet(const std::string& agent, const std::string& fixtures_dir,
                       const std::string& cache_dir, bool record_at_launch)
    : profile_(agent_profile(agent)),
      record_at_launch_(record_at_launch),
      fixtures_(fixtures_dir),
      cache_dir_(cache_dir),
      cli_(cli_or_skip(cache_dir, agent)),
      claude_(cli_or_skip(cache_dir, "claude")) {
  for (const std::string& dir : {home_, codex_home_, project_, bin_, state_, home_ + "/.gemini"}) {
    ::mkdir(dir.c_str(), 0755);
  }
  link_suite(bin_, {"resume-guard", "provenance-writer", "launch-wrapper", "fleet-hooks"});
  path_ = bin_ + ":" + env_value("PATH");
  if (record_at_launch_) {
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
  if (agent == "codex") {
    configure_codex();
  } else if (agent == "copilot") {
    write_copilot_config(home_, {});  // its MCP server is on its command line (l3)
  } else {
    configure_gemini();
  }
}

AgentFleet::~AgentFleet() = default;

Env mcp_dispatcher_env(const MockMessagesApi& api, const DispatcherPaths& paths) {
  Env env = api.client_env();  // for the Claude Code workers
  env.insert(env.end(), {{"HOME", paths.home},
                         {"PATH", paths.path},
                         {"FLEET_E2E_WRAPPER", paths.bin + "/launch-wrapper"},
                         {"FLEET_E2E_CLAUDE", paths.claude},
                         {"FLEET_E2E_STATE_DIR", paths.state},
                         {"FLEET_E2E_KITCHEN", "kitchen-1"},
                         {"FLEET_E2E_CALLS", paths.calls}});
  // Else the record comes from the L3's PostToolUse / AfterTool hook.
  if (!paths.record_at_launch) env.emplace_back("FLEET_E2E_NO_RECORD", "1");
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
  return mcp_dispatcher_env(*api_,
                            {home_, path_, bin_, claude_, state_, calls_, record_at_launch_});
}

void AgentFleet::configure_codex() const {
  write_codex_config(codex_home_, api_->port(), fixtures_ + "/mcp_dispatcher.mjs",
                     dispatcher_env());
}

// The project's .gemini/settings.json: the dispatcher as the trusted MCP server "kitchen".
void AgentFleet::configure_gemini() const {
  write_gemini_user_settings(home_);
  rapidjson::Document settings(rapidjson::kObjectType);
  auto& alloc = settings.GetAllocator();
  rapidjson::Value servers(rapidjson::kObjectType);
  servers.AddMember(
      "kitchen", gemini_server(fixtures_ + "/mcp_dispatcher.mjs", dispatcher_env(), alloc), alloc);
  settings.AddMember("mcpServers", servers, alloc);
  ::mkdir((project_ + "/.gemini").c_str(), 0755);
  write_file(project_ + "/.gemini/settings.json", to_json(settings));
}

// The dispatcher as Copilot's MCP server "kitchen", for --additional-mcp-config.
std::string AgentFleet::copilot_mcp_config() const {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  rapidjson::Value server =
      gemini_server(fixtures_ + "/mcp_dispatcher.mjs", dispatcher_env(), alloc);
  server.RemoveMember("trust");
  server.AddMember("type", "local", alloc);
  rapidjson::Value tools(rapidjson::kArrayType);
  tools.PushBack("*", alloc);
  server.AddMember("tools", tools, alloc);
  rapidjson::Value servers(rapidjson::kObjectType);
  servers.AddMember("kitchen", server, alloc);
  doc.AddMember("mcpServers", servers, alloc);
  return to_json(doc);
}

void AgentFleet::install() const {
  const RunResult install = run_process(
      {bin_ + "/fleet-hooks", "install", "--agent", profile_.name, "--project", project_},
      {"", suite_env(), ""});
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
  const RunResult trusted = run_process(
      {bin_ + "/fleet-hooks", "install", "--agent", "codex", "--trust", "--project", project_},
      {"", suite_env(), ""});
  REQUIRE_MESSAGE(trusted.exit_code == 0, (trusted.out + trusted.err));
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

void AgentFleet::script(const std::string& json) const {
  api_->script(json);
}

std::string AgentFleet::dispatch_turn(const std::string& input_json) const {
  // Codex offers an MCP server's tools in the namespace mcp__<server>, under their own names;
  // Gemini offers them as mcp_<server>_<tool>.
  if (profile_.name == "codex") {
    return R"({"tool_use":{"name":"dispatch_food_truck","namespace":"mcp__kitchen","input":)" +
           input_json + "}}";
  }
  if (profile_.name == "copilot")
    return fleet::test::dispatch_turn(input_json, "kitchen-dispatch_food_truck");
  return R"({"tool_use":{"name":"mcp_kitchen_dispatch_food_truck","input":)" + input_json + "}}";
}

Env AgentFleet::suite_env() const {
  return {{"HOME", home_},
          {"PATH", path_},
          {"CODEX_HOME", codex_home_},
          {"FLEET_HOOKS_STATE_DIR", state_}};
}

AgentRun AgentFleet::l3(const std::string& prompt, const std::string& kitchen,
                        const std::vector<std::string>& extra) const {
  Env env = suite_env();
  env.emplace_back("FLEET_HOOKS_KITCHEN_ID", kitchen);
  std::vector<std::string> argv;
  const Env model = agent_model_env(api_->port());
  env.insert(env.end(), model.begin(), model.end());
  if (profile_.name == "codex") {
    argv = {cli_, "exec", "--json", "--skip-git-repo-check", prompt};
  } else if (profile_.name == "copilot") {
    env.insert(env.end(),
               {{"COPILOT_OFFLINE", "true"},
                {"COPILOT_AUTO_UPDATE", "false"},
                {"COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:" + api_->port() + "/v1"},
                {"COPILOT_PROVIDER_API_KEY", "fleet-e2e-7c41d9b2"},
                {"COPILOT_MODEL", "mock"},
                // The loader unpacks ~235 MB of Copilot into its cache once, not into every
                // test's home.
                {"XDG_CACHE_HOME", cache_dir_ + "/copilot-xdg-cache"}});
    argv = {cli_,
            "-p",
            prompt,
            "--allow-all-tools",
            "--output-format",
            "json",
            "--additional-mcp-config",
            copilot_mcp_config()};
  } else {
    argv = {cli_, "-p", prompt, "-o", "json"};
  }
  argv.insert(argv.end(), extra.begin(), extra.end());
  AgentRun run{run_process(argv, {"", env, project_}), ""};
  // Codex: the "thread.started" line of --json; Gemini: the object -o json prints; Copilot: the
  // last line of --output-format json, {"type":"result","sessionId":…}.
  const std::vector<std::string> lines =
      profile_.name == "gemini" ? std::vector{run.process.out} : split_lines(run.process.out);
  for (const auto& line : lines) {
    const auto doc = parse_json_object(line);
    if (!doc.ok()) continue;
    const char* key = profile_.name == "codex"     ? "thread_id"
                      : profile_.name == "copilot" ? "sessionId"
                                                   : "session_id";
    if (auto id = string_member(*doc, key)) run.session_id = std::string(*id);
  }
  return run;
}

void AgentFleet::record(const std::string& worker, const std::string& caller,
                        const std::string& kitchen) const {
  write_record(state_, worker, caller, kitchen);
}

std::vector<std::string> AgentFleet::calls() const {
  return split_lines(read_file(calls_));
}

}  // namespace fleet::test
