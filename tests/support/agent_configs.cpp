#include "agent_configs.h"

#include <sys/stat.h>

#include "base/json.h"
#include "fixtures.h"
#include "temp_dir.h"

namespace fleet::test {
namespace {

// A TOML basic string: JSON's escapes are TOML's for the plain paths and values used here.
std::string toml_string(const std::string& text) {
  rapidjson::Document doc;
  return to_json(json_string(text, doc.GetAllocator()));
}

rapidjson::Value json_variables(const EnvList& env, rapidjson::Document::AllocatorType& alloc) {
  rapidjson::Value variables(rapidjson::kObjectType);
  for (const auto& [name, value] : env)
    variables.AddMember(json_string(name, alloc), json_string(value, alloc), alloc);
  return variables;
}

// `project` trusted in the trustedFolders.json `file` of Gemini CLI or Qwen Code.
void write_trusted_folder(const std::string& file, const std::string& project) {
  rapidjson::Document folders(rapidjson::kObjectType);
  rapidjson::Value folder = json_string(project, folders.GetAllocator());
  folders.AddMember(folder, "TRUST_FOLDER", folders.GetAllocator());
  write_file(file, to_json(folders));
}

}  // namespace

void write_codex_config(const std::string& codex_home, const std::string& port,
                        const std::string& dispatcher_script, const EnvList& dispatcher_env) {
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

EnvList agent_model_env(const std::string& port) {
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
  write_trusted_folder(home + "/.gemini/trustedFolders.json", project);
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

std::string mcp_server_json(const std::string& script, const EnvList& env) {
  rapidjson::Document server(rapidjson::kObjectType);
  auto& alloc = server.GetAllocator();
  rapidjson::Value args(rapidjson::kArrayType);
  args.PushBack(json_string(script, alloc), alloc);
  server.AddMember("command", "node", alloc);
  server.AddMember("args", args, alloc);
  server.AddMember("env", json_variables(env, alloc), alloc);
  server.AddMember("trust", true, alloc);
  return to_json(server);
}

void write_qwen_user_settings(const std::string& home, const std::string& server_json,
                              bool folder_trust) {
  rapidjson::Document doc =
      json_document(R"({"security":{"auth":{"selectedType":"openai"}},"mcpServers":{"kitchen":)" +
                    server_json + "}}");
  if (folder_trust) {
    rapidjson::Value trust(rapidjson::kObjectType);
    trust.AddMember("enabled", true, doc.GetAllocator());
    doc["security"].AddMember("folderTrust", trust, doc.GetAllocator());
  }
  ::mkdir((home + "/.qwen").c_str(), 0755);
  write_file(home + "/.qwen/settings.json", to_json(doc));
}

void trust_qwen_folder(const std::string& home, const std::string& project) {
  write_trusted_folder(home + "/.qwen/trustedFolders.json", project);
}

void write_opencode_config(const std::string& home, const std::string& project,
                           const std::string& port, const std::string& script, const EnvList& env) {
  // OpenCode installs @opencode-ai/plugin into each config folder on start and waits for it,
  // unless the folder has node_modules/ and a package-lock.json naming that package (read in
  // OpenCode 1.18.33's Npm.install): saying so skips seconds of a failing offline npm run.
  for (const std::string& dir :
       {home + "/.config", home + "/.config/opencode", project + "/.opencode"})
    ::mkdir(dir.c_str(), 0755);
  for (const std::string& dir : {home + "/.config/opencode", project + "/.opencode"}) {
    ::mkdir((dir + "/node_modules").c_str(), 0755);
    write_file(dir + "/package-lock.json",
               R"({"packages":{"":{"dependencies":{"@opencode-ai/plugin":"*"}}}})");
  }
  // A shell command reading outside the project (a worker printing the store) asks the
  // external_directory permission, which `opencode run` rejects unless it is allowed.
  rapidjson::Document doc = json_document(
      R"({"provider":{"mock":{"npm":"@ai-sdk/openai-compatible","options":{"apiKey":"k"},)"
      R"("models":{"mock":{"tool_call":true}}}},"model":"mock/mock",)"
      R"("permission":{"external_directory":"allow"}})");
  auto& alloc = doc.GetAllocator();
  doc["provider"]["mock"]["options"].AddMember(
      "baseURL", json_string("http://127.0.0.1:" + port + "/v1", alloc), alloc);
  if (!script.empty()) {
    rapidjson::Value command(rapidjson::kArrayType);
    command.PushBack("node", alloc).PushBack(json_string(script, alloc), alloc);
    rapidjson::Value server(rapidjson::kObjectType);
    server.AddMember("type", "local", alloc).AddMember("command", command, alloc);
    server.AddMember("environment", json_variables(env, alloc), alloc);
    rapidjson::Value servers(rapidjson::kObjectType);
    servers.AddMember("kitchen", server, alloc);
    doc.AddMember("mcp", servers, alloc);
  }
  write_file(project + "/opencode.json", to_json(doc));
}

}  // namespace fleet::test
