#pragma once
// Test support for the end-to-end tests of the agent CLIs: each CLI's own configuration files
// as the tests write them into a private home or project — the mock model on loopback as its
// provider, the stdio MCP dispatcher (examples/dispatcher/dispatcher.mjs) as its server
// "kitchen", and the trust of a folder as the CLI itself records it.

#include <string>
#include <utility>
#include <vector>

namespace fleet::test {

using EnvList = std::vector<std::pair<std::string, std::string>>;

// $CODEX_HOME/config.toml: the mock on `port` as the model provider (Responses API, key in
// FLEET_E2E_MODEL_KEY); with a `dispatcher_script`, that script as the MCP server "kitchen"
// (run with node, `dispatcher_env` in its environment) whose tools run without asking.
void write_codex_config(const std::string& codex_home, const std::string& port,
                        const std::string& dispatcher_script, const EnvList& dispatcher_env);
// ~/.gemini/settings.json: API-key auth (the base URL alone selects a gateway auth that
// headless runs refuse) and no usage statistics.
void write_gemini_user_settings(const std::string& home);
// The environment that points Codex and Gemini at the mock on `port`.
EnvList agent_model_env(const std::string& port);
// Gemini: `project` in ~/.gemini/trustedFolders.json.
void trust_gemini_folder(const std::string& home, const std::string& project);
// GitHub Copilot CLI: ~/.copilot/config.json as Copilot writes it (its comment lines first),
// trusting `trusted` folders.
void write_copilot_config(const std::string& home, const std::vector<std::string>& trusted);
// The comment lines GitHub Copilot CLI 1.0.102 writes at the top of its config.json.
inline constexpr const char* kCopilotConfigComments =
    "// User settings belong in settings.json.\n// This file is managed automatically.\n";
// The MCP dispatcher `script` (run with node, `env` in its environment) as a JSON server entry
// of Gemini's, Qwen Code's and (without "trust", with "type": "local") Copilot's "mcpServers".
std::string mcp_server_json(const std::string& script, const EnvList& env);
// Qwen Code: ~/.qwen/settings.json with OpenAI auth (the mock's key and base URL come from the
// environment), `server_json` as the MCP server "kitchen", and folder trust turned on when
// `folder_trust`.
void write_qwen_user_settings(const std::string& home, const std::string& server_json,
                              bool folder_trust);
// Qwen Code: `project` in ~/.qwen/trustedFolders.json, as its trust dialog writes it.
void trust_qwen_folder(const std::string& home, const std::string& project);
// OpenCode: the project's opencode.json naming the mock on `port` as an OpenAI-compatible
// provider, allowing shell commands outside the project, and (unless empty) `script` as the
// local MCP server "kitchen"; and, in each of its config folders
// (~/.config/opencode, the project's .opencode), what keeps it from installing
// @opencode-ai/plugin from the network on start.
void write_opencode_config(const std::string& home, const std::string& project,
                           const std::string& port, const std::string& script, const EnvList& env);

}  // namespace fleet::test
