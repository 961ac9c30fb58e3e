#pragma once
// Test support: hook inputs as each agent CLI sends them (the fields Claude Code 2.1.328,
// codex-cli 0.169.0, gemini-cli 0.61.0, Qwen Code 0.24.4 and GitHub Copilot CLI 1.0.102 (its
// own hook file, doc/copilot.md) were seen sending, the ones the suite ignores
// included; those it reads: doc/agents.md, "What the hooks rely on"),
// and a hook's answer read back in each CLI's dialect. A new CLI adds its sample here beside its
// home, common/agents/<name>/ (doc/development.md, "Adding a CLI").

#include <optional>
#include <string>
#include <vector>

#include "agent/agent_cli.h"
#include "store/provenance_record.h"

namespace fleet::test {

// The dispatch tool of MCP server "kitchen" as `agent` names it.
std::string dispatch_tool(const AgentCli& agent);

// The pre-tool input `agent` sends when `caller` calls the dispatch tool with tool_input
// {"recipe_name":"implement","resume_session_id": <resume_json>} (`resume_json` is raw JSON;
// "" leaves the key out), with the other fields that CLI sends.
std::string agent_pre_tool_input(const AgentCli& agent, const std::string& caller,
                                 const std::string& resume_json);

// The post-tool input `agent` sends after `caller`'s dispatch tool call with `tool_input` (a
// JSON text) returned the MCP text `server_text`, in the shape that CLI gives tool_response.
std::string agent_post_tool_input(const AgentCli& agent, const std::string& caller,
                                  const std::string& tool_input, const std::string& server_text);

// What a hook's stdout `out` says in `agent`'s dialect.
struct AgentAnswer {
  enum class Kind { silent, deny, advisory, other } kind = Kind::other;
  std::string text;  // the deny's reason or the advisory's message
  // The call token the answer put in the call's arguments (Gemini CLI, GitHub Copilot CLI,
  // OpenCode: a call it lets through, silent or advisory); "" : none.
  std::string token = "";
};
AgentAnswer read_answer(const AgentCli& agent, const std::string& out);

// The guard's decision cases (the rules of doc/resume-guard.md), run through every CLI's
// dialect: the store is guard_case_records(), the current kitchen kGuardCaseKitchen.
inline constexpr const char* kGuardCaseKitchen = "kitchen-1";
struct GuardCase {
  const char* name;
  const char* caller;
  std::string resume_json;  // raw JSON; "" leaves resume_session_id out
  AgentAnswer::Kind expect;
};
std::vector<ProvenanceRecord> guard_case_records();
std::vector<GuardCase> guard_cases();

}  // namespace fleet::test
