#include "provenance_record.h"

#include <rapidjson/document.h>

#include "ids.h"
#include "json.h"

namespace fleet {

std::string to_json_line(const ProvenanceRecord& record) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  // Keys in sorted order, as json.dumps(sort_keys=True) writes them.
  doc.AddMember("caller_session_id", json_string(record.caller_session_id, alloc), alloc);
  doc.AddMember("dispatch_id", json_string(record.dispatch_id, alloc), alloc);
  doc.AddMember("kitchen_id", json_string(record.kitchen_id, alloc), alloc);
  doc.AddMember("recipe_name", json_string(record.recipe_name, alloc), alloc);
  doc.AddMember("session_id", json_string(record.session_id, alloc), alloc);
  doc.AddMember("step_name", json_string(record.step_name, alloc), alloc);
  doc.AddMember("timestamp", json_string(record.timestamp, alloc), alloc);
  return to_json(doc);
}

std::optional<ProvenanceRecord> parse_provenance_line(std::string_view line) {
  rapidjson::Document doc;
  if (!parse_json(line, doc) || !doc.IsObject()) return std::nullopt;
  const auto session_id = string_member(doc, "session_id");
  if (!session_id || session_id->empty()) return std::nullopt;
  const auto field = [&doc](const char* key) {
    return std::string(string_member(doc, key).value_or(std::string_view()));
  };
  ProvenanceRecord record;
  record.session_id = std::string(*session_id);
  record.caller_session_id = field("caller_session_id");
  record.kitchen_id = field("kitchen_id");
  record.dispatch_id = field("dispatch_id");
  record.recipe_name = field("recipe_name");
  record.step_name = field("step_name");
  record.timestamp = field("timestamp");
  return record;
}

std::string record_problem(const ProvenanceRecord& record) {
  if (auto problem = id_problem("session id", record.session_id)) return *problem;
  if (auto problem = id_problem("caller session id", record.caller_session_id)) return *problem;
  const struct {
    const char* name;
    const std::string& value;
  } optional_ids[] = {{"kitchen id", record.kitchen_id}, {"dispatch id", record.dispatch_id}};
  for (const auto& [name, value] : optional_ids) {
    if (value.empty()) continue;
    if (auto problem = id_problem(name, value)) return *problem;
  }
  if (auto problem = label_problem("recipe name", record.recipe_name)) return *problem;
  return label_problem("step name", record.step_name).value_or("");
}

}  // namespace fleet
