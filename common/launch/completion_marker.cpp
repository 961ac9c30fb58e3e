#include "launch/completion_marker.h"

#include <rapidjson/document.h>

#include "base/json.h"

namespace fleet {
namespace {

bool text_has_marker(std::string_view text, const MarkerRule& rule) {
  if (rule.anywhere) return text.find(rule.marker) != std::string_view::npos;
  while (true) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
      line.remove_suffix(1);
    }
    if (line == rule.marker) return true;
    if (newline == std::string_view::npos) return false;
    text.remove_prefix(newline + 1);
  }
}

// The value at the form's text path, nullptr when absent.
const rapidjson::Value* text_value(const rapidjson::Value& record,
                                   const CompletionRecordForm& form) {
  const rapidjson::Value* value = &record;
  for (std::string_view key : form.text_path) {
    if (key.empty()) break;
    value = member(*value, std::string(key).c_str());
    if (value == nullptr) return nullptr;
  }
  return value;
}

bool is_completion_record(const rapidjson::Value& record, const MarkerRule& rule) {
  const CompletionRecordForm& form = *rule.form;
  const std::string_view type = rule.record_type.empty() ? form.record_type : rule.record_type;
  if (string_member(record, "type") != type) return false;
  if (form.subtype_key.empty()) return true;
  const rapidjson::Value* container =
      form.container.empty() ? &record : member(record, std::string(form.container).c_str());
  return container != nullptr &&
         string_member(*container, std::string(form.subtype_key).c_str()) == form.subtype;
}

}  // namespace

bool record_has_marker(std::string_view line, const MarkerRule& rule) {
  if (rule.marker.empty() || line.find(rule.marker) == std::string_view::npos) return false;
  const Result<rapidjson::Document> doc = parse_json_object(line);
  if (!doc || !is_completion_record(*doc, rule)) return false;
  const rapidjson::Value* content = text_value(*doc, *rule.form);
  if (content == nullptr) return false;
  if (content->IsString())
    return text_has_marker({content->GetString(), content->GetStringLength()}, rule);
  if (!content->IsArray()) return false;
  for (const auto& block : content->GetArray()) {
    if (!block.IsObject()) continue;
    if (!rule.form->block_type.empty() && string_member(block, "type") != rule.form->block_type)
      continue;
    if (auto text = string_member(block, "text"); text && text_has_marker(*text, rule)) return true;
  }
  return false;
}

}  // namespace fleet
