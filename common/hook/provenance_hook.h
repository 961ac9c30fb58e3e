#pragma once
// provenance-writer's PostToolUse mode: turn a dispatch tool call's input and response into
// the ownership record of the dispatched session.
// Failing: nothing here throws; what a call implies is a DispatchedRecord outcome, and every
// failure of the hook is the line it returns for stderr (a PostToolUse hook never blocks).

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hook/hook_protocol.h"
#include "store/jsonl_append.h"
#include "store/provenance_record.h"

namespace fleet {

struct ProvenanceHookOptions {
  std::string state_dir;           // --state-dir
  std::string kitchen_id;          // --kitchen-id: used when the call names no kitchen
  std::vector<std::string> tools;  // --tool: more dispatch tool names
  AppendOptions append;
  const AgentCli* agent = nullptr;  // --agent: whose hook input this is
  // The CLIs whose names a dispatcher's agent_cli may record (agents/agents.h: agent_clis()).
  std::span<const AgentCli* const> known_agents;
};

// What a dispatch call implies for the store.
struct DispatchedRecord {
  enum class Outcome {
    launched,       // `record` is the dispatched session's record
    resumed,        // the call resumed a session and launched no other: nothing to record
    no_session_id,  // neither tool_response nor tool_input names a dispatched session
  };
  Outcome outcome = Outcome::no_session_id;
  ProvenanceRecord record;
};

// The record a dispatch call implies: caller = the hook input's caller_session_id (the
// session that owns the call); the dispatched session id, dispatch id, kitchen id, recipe and
// step from tool_response (a JSON object, a JSON string holding one, or MCP text blocks whose
// text is one, where the hook input's agent CLI puts them: AgentCli::response), then the
// answer's text where a CLI reading the same hook file puts it (AgentCli::also_read_by: GitHub
// Copilot CLI's tool_result), then tool_input, under the
// names dispatched_session_id / session_id, dispatch_id, kitchen_id, recipe_name, step_name,
// agent_cli (the dispatched session's CLI; kept only when it names one of `known_agents`).
// The kitchen falls back to `default_kitchen`, the recipe to kUnnamedRecipe (the session is a
// worker). The timestamp is left empty: build_record completes the record. A call that
// resumed a session launched nothing, so it records nothing: tool_input's resume_session_id
// is the dispatched id exactly, or a short id that the store at `store_path` resolves to it
// (lookup_session). Any other dispatched id is a fresh session, even one that starts with the
// resumed id (resume w-1, launched w-10).
DispatchedRecord dispatched_record(const HookInput& hook, const std::string& default_kitchen,
                                   const std::string& store_path,
                                   std::span<const AgentCli* const> known_agents);

// Runs the hook on stdin text: records the dispatched session (build_record, with
// --kitchen-id as the default kitchen) when the input is the post-tool event of the dispatch
// tool in options.agent's dialect (PostToolUse; Gemini: AfterTool).
// Never throws; returns the line for stderr when there is something to say (why nothing was
// recorded, or the append's index warning), nullopt otherwise. A PostToolUse hook must never
// block, so every outcome exits 0.
std::optional<std::string> run_provenance_hook(const BoundedRead& input,
                                               const ProvenanceHookOptions& options);

}  // namespace fleet
