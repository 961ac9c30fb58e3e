#include "agent_hooks.h"

#include <stdexcept>

#include "base/json.h"
#include "fixtures.h"
#include "hook/tool_names.h"

namespace fleet::test {
namespace {

rapidjson::Document parse(const std::string& json) {
  auto doc = parse_json(json);
  if (!doc) throw std::invalid_argument("not JSON: " + json);
  return std::move(*doc);
}

void add(rapidjson::Document& doc, const char* key, const std::string& value) {
  doc.AddMember(rapidjson::StringRef(key), json_string(value, doc.GetAllocator()),
                doc.GetAllocator());
}

void add_json(rapidjson::Document& doc, const char* key, const std::string& json) {
  const rapidjson::Document value = parse(json);
  doc.AddMember(rapidjson::StringRef(key), rapidjson::Value(value, doc.GetAllocator()),
                doc.GetAllocator());
}

// The fields every CLI sends, then the ones only `agent` sends (values as observed).
rapidjson::Document base_input(const AgentCli& agent, const std::string& caller,
                               const std::string& event) {
  rapidjson::Document doc(rapidjson::kObjectType);
  add(doc, "session_id", caller);
  // GitHub Copilot CLI 1.0.102 sends no transcript_path on tool events.
  if (agent.name != "copilot") add(doc, "transcript_path", "/tmp/transcript.jsonl");
  add(doc, "cwd", "/nonexistent");
  add(doc, "hook_event_name", event);
  add(doc, "tool_name", dispatch_tool(agent));
  if (agent.name == "claude") {
    add(doc, "prompt_id", "p-1");
    add(doc, "permission_mode", "default");
    add(doc, "tool_use_id", "toolu_1");
    add_json(doc, "mcp_server", R"({"name":"kitchen","source":"config"})");
  } else if (agent.name == "codex") {
    add(doc, "turn_id", "t-1");
    add(doc, "model", "mock-model");
    add(doc, "permission_mode", "default");
    add(doc, "tool_use_id", "call_1");
  } else if (agent.name == "qwen") {  // Qwen Code 0.24.4
    add(doc, "timestamp", "2026-11-26T18:05:21.049Z");
    add(doc, "permission_mode", "yolo");
    add(doc, "prompt_id", "p-1########0");
    add(doc, "tool_use_id", "toolu_1795716321048_hgr8x3l07");
    add(doc, "tool_call_id", "call_1");
  } else if (agent.name == "copilot") {  // GitHub Copilot CLI 1.0.102
    add(doc, "timestamp", "2026-11-26T18:03:51.464Z");
  } else if (agent.name == "gemini") {
    add(doc, "timestamp", "2026-05-06T13:30:00.123Z");
    add_json(doc, "mcp_context",
             R"({"server_name":"kitchen","tool_name":"dispatch_food_truck","command":"node",)"
             R"("args":["dispatcher.mjs"]})");
  }
  return doc;
}

// tool_response (Copilot: tool_result) as `agent` gives it for an MCP tool that answered
// `text`.
std::string response(const AgentCli& agent, const std::string& text) {
  rapidjson::Document block(rapidjson::kObjectType);
  auto& alloc = block.GetAllocator();
  if (agent.name == "gemini") {
    block.AddMember("text",
                    json_string("<untrusted_context>\n" + text + "\n</untrusted_context>", alloc),
                    alloc);
    return R"({"llmContent":[)" + to_json(block) + R"(],"returnDisplay":"dispatched"})";
  }
  if (agent.name == "qwen") {  // Gemini's shape, without its tags
    block.AddMember("text", json_string(text, alloc), alloc);
    return R"({"llmContent":[)" + to_json(block) + R"(],"returnDisplay":"dispatched"})";
  }
  if (agent.name == "copilot") {  // tool_result, observed with 1.0.102
    block.AddMember("result_type", "success", alloc);
    block.AddMember("text_result_for_llm", json_string(text, alloc), alloc);
    return to_json(block);
  }
  block.AddMember("type", "text", alloc);
  block.AddMember("text", json_string(text, alloc), alloc);
  std::string blocks = to_json(block);
  blocks.insert(0, 1, '[').push_back(']');
  return agent.name == "codex" ? R"({"content":)" + blocks + "}" : blocks;
}

}  // namespace

std::string dispatch_tool(const AgentCli& agent) {
  return mcp_tool_name("kitchen", "dispatch_food_truck", agent);
}

std::string agent_pre_tool_input(const AgentCli& agent, const std::string& caller,
                                 const std::string& resume_json) {
  rapidjson::Document doc = base_input(agent, caller, std::string(agent.pre_tool_event));
  std::string input = R"({"recipe_name":"implement")";
  if (!resume_json.empty()) input += R"(,"resume_session_id":)" + resume_json;
  add_json(doc, "tool_input", input + "}");
  return to_json(doc);
}

std::string agent_post_tool_input(const AgentCli& agent, const std::string& caller,
                                  const std::string& tool_input, const std::string& server_text) {
  rapidjson::Document doc = base_input(agent, caller, std::string(agent.post_tool_event));
  add_json(doc, "tool_input", tool_input);
  add_json(doc, agent.name == "copilot" ? "tool_result" : "tool_response",
           response(agent, server_text));
  return to_json(doc);
}

AgentAnswer read_answer(const AgentCli& agent, const std::string& out) {
  // The dialects written out here, not read from the tables under test.
  if (out.empty()) return {AgentAnswer::Kind::silent, ""};
  if (out.back() != '\n') return {};
  const auto parsed = parse_json_object(out);
  if (!parsed) return {};
  const rapidjson::Document& doc = *parsed;
  if (auto message = string_member(doc, "systemMessage"); message && doc.MemberCount() == 1) {
    return {AgentAnswer::Kind::advisory, std::string(*message)};
  }
  // A call let through with its input rewritten to carry the call token: Gemini's
  // {"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{…}}}, Copilot's and the
  // OpenCode plugin's {"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{…}}},
  // an advisory beside it; never a permission decision.
  const bool gemini = agent.name == "gemini";
  if (gemini || agent.name == "copilot" || agent.name == "opencode") {
    const rapidjson::Value* specific = member(doc, "hookSpecificOutput");
    const rapidjson::Value* input =
        specific == nullptr ? nullptr : member(*specific, gemini ? "tool_input" : "updatedInput");
    if (input != nullptr) {
      const auto message = string_member(doc, "systemMessage");
      const auto token = string_member(*input, "fleet_hooks_call");
      if (!token || specific->MemberCount() != 2 || doc.MemberCount() != (message ? 2u : 1u) ||
          string_member(*specific, "hookEventName") != (gemini ? "BeforeTool" : "PreToolUse"))
        return {};
      return {message ? AgentAnswer::Kind::advisory : AgentAnswer::Kind::silent,
              std::string(message.value_or("")), std::string(*token)};
    }
  }
  if (agent.name == "gemini") {  // {"decision":"deny","reason":…}
    if (doc.MemberCount() != 2 || string_member(doc, "decision") != "deny") return {};
    return {AgentAnswer::Kind::deny, std::string(string_member(doc, "reason").value_or(""))};
  }
  // Claude Code, Codex and Qwen Code: {"hookSpecificOutput":{"hookEventName":"PreToolUse",…}}
  const rapidjson::Value* specific = member(doc, "hookSpecificOutput");
  if (doc.MemberCount() != 1 || specific == nullptr ||
      string_member(*specific, "hookEventName") != "PreToolUse" ||
      string_member(*specific, "permissionDecision") != "deny") {
    return {};
  }
  return {AgentAnswer::Kind::deny,
          std::string(string_member(*specific, "permissionDecisionReason").value_or(""))};
}

std::vector<ProvenanceRecord> guard_case_records() {
  return {record(kWorker, "l3-predecessor", kGuardCaseKitchen),
          record(kWorker2, "l3-elsewhere", "kitchen-9"),
          record("l3-other", kL3, kGuardCaseKitchen, "")};
}

std::vector<GuardCase> guard_cases() {
  using Kind = AgentAnswer::Kind;
  const auto id = [](const std::string& value) { return "\"" + value + "\""; };
  return {
      {"fresh dispatch", kL3, "", Kind::silent},
      {"fresh dispatch with null", kL3, "null", Kind::silent},
      {"owner runs", "l3-elsewhere", id(kWorker2), Kind::silent},
      {"kitchen member runs", kL3, id(kWorker), Kind::silent},
      {"stranger denied", kL3, id(kWorker2), Kind::deny},
      {"unrecorded advisory", kL3, id("0ddba11-0000-4000-8000-000000000009"), Kind::advisory},
      {"self-resume denied", kL3, id(kL3), Kind::deny},
      {"self-resume by 8-character prefix denied", kL3, id("c0ffee00"), Kind::deny},
      {"orchestrator denied", "l3-elsewhere", id("l3-other"), Kind::deny},
      {"malformed id denied", kL3, "42", Kind::deny},
      {"ambiguous short id denied", kL3, id("0d07e5d0"), Kind::deny},
  };
}

}  // namespace fleet::test
