#include "fixtures.h"

#include <doctest/doctest.h>
#include <stdexcept>
#include <utility>

#include "base/json.h"

namespace fleet::test {
namespace {

rapidjson::Document hook_input(const std::string& caller, const char* event,
                               const std::string& tool) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("session_id", json_string(caller, alloc), alloc);
  doc.AddMember("hook_event_name", rapidjson::StringRef(event), alloc);
  doc.AddMember("tool_name", json_string(tool, alloc), alloc);
  return doc;
}

void add_json_member(rapidjson::Document& doc, const char* name, const std::string& json) {
  const auto value = parse_json(json);
  if (!value) throw std::invalid_argument("not JSON: " + json);
  doc.AddMember(rapidjson::StringRef(name), rapidjson::Value(*value, doc.GetAllocator()),
                doc.GetAllocator());
}

}  // namespace

rapidjson::Document json_document(std::string_view text) {
  auto doc = parse_json(text);
  REQUIRE_MESSAGE(doc, (std::string(text) + ": " + doc.problem()));
  return std::move(*doc);
}

ProvenanceRecord record(const std::string& session, const std::string& caller,
                        const std::string& kitchen, const std::string& recipe) {
  return {session, caller, kitchen, "d-1", recipe, "build", kTimestamp};
}

std::string autoskillit_line(const ProvenanceRecord& record) {
  const std::pair<const char*, const std::string*> items[] = {
      {"caller_session_id", &record.caller_session_id},
      {"dispatch_id", &record.dispatch_id},
      {"kitchen_id", &record.kitchen_id},
      {"recipe_name", &record.recipe_name},
      {"session_id", &record.session_id},
      {"step_name", &record.step_name},
      {"timestamp", &record.timestamp}};
  std::string line = "{";
  for (const auto& [key, value] : items) {
    if (line.size() > 1) line += ", ";
    rapidjson::Document text;
    text.SetString(value->data(), static_cast<rapidjson::SizeType>(value->size()),
                   text.GetAllocator());
    line.append("\"").append(key).append("\": ").append(to_json(text));
  }
  return line + "}";
}

std::string pre_tool_use(const std::string& caller, const std::string& resume,
                         const std::string& tool) {
  rapidjson::Document doc = hook_input(caller, "PreToolUse", tool);
  auto& alloc = doc.GetAllocator();
  rapidjson::Value input(rapidjson::kObjectType);
  input.AddMember("resume_session_id", json_string(resume, alloc), alloc);
  doc.AddMember("tool_input", input, alloc);
  return to_json(doc);
}

std::string post_tool_use(const std::string& tool_input, const std::string& tool_response,
                          const std::string& tool, const std::string& caller) {
  rapidjson::Document doc = hook_input(caller, "PostToolUse", tool);
  add_json_member(doc, "tool_input", tool_input);
  if (!tool_response.empty()) add_json_member(doc, "tool_response", tool_response);
  return to_json(doc);
}

std::string assistant_line(const std::string& text) {
  return R"({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":")" +
         text + R"("}]}})";
}

}  // namespace fleet::test
