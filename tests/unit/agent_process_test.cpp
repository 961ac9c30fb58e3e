// Which agent CLI a running process is (process/agent_process.h), from the command names and
// command lines observed at the pinned versions (doc/cli-facts.md, "The CLI processes").

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "agents/agents.h"
#include "process/agent_process.h"

using namespace fleet;

namespace {

std::string agent_named(const std::string& name, const std::vector<std::string>& arguments) {
  const AgentProfile* agent = agent_of_command(name, arguments, agent_profiles());
  return agent == nullptr ? "" : std::string(agent->name);
}

}  // namespace

TEST_CASE("agent process: each CLI as it runs above its MCP servers") {
  const std::string modules = "/work/e2e/node_modules/";
  CHECK(agent_named("claude", {modules + "@anthropic-ai/claude-code-linux-x64/claude", "-p"}) ==
        "claude");
  CHECK(agent_named("codex", {modules + "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-"
                                        "musl/bin/codex",
                              "exec", "--json"}) == "codex");
  CHECK(agent_named("node", {"node", modules + ".bin/codex", "exec"}) == "codex");
  CHECK(agent_named("node", {"node", modules + ".bin/gemini", "-p", "go"}) == "gemini");
  CHECK(agent_named("node", {"/usr/bin/node", modules + "@google/gemini-cli/bundle/gemini.js"}) ==
        "gemini");
  CHECK(agent_named("node", {"/usr/bin/node", "--expose-gc",
                             modules + "@qwen-code/qwen-code/cli.js", "-o", "stream-json"}) ==
        "qwen");
  CHECK(agent_named("MainThread", {modules + "@github/copilot-linux-x64/copilot", "-p"}) ==
        "copilot");
  CHECK(agent_named("node", {"node", modules + "@github/copilot/npm-loader.js"}) == "copilot");
  CHECK(agent_named("opencode", {modules + ".bin/opencode", "run"}) == "opencode");
  CHECK(agent_named("opencode.exe", {modules + "opencode-ai/bin/opencode.exe", "run"}) ==
        "opencode");
}

TEST_CASE("agent process: a dispatcher, a shell or a runtime is no CLI") {
  CHECK(agent_named("node", {"node", "/srv/dispatch/mcp_dispatcher.mjs"}).empty());
  CHECK(agent_named("node", {"node"}).empty());
  CHECK(agent_named("sh", {"/bin/sh", "-c", "claude -p hi"}).empty());
  CHECK(agent_named("npm exec my-dis", {"npm exec my-dispatcher"}).empty());
  CHECK(agent_named("python3", {"python3", "/srv/gemini/dispatch.py"}).empty());
  // A folder named like a CLI is not its package.
  CHECK(agent_named("node", {"node", "/home/u/qwen-code/cli.js"}).empty());
}
