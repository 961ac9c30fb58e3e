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

}  // namespace

bool record_has_marker(std::string_view line, const MarkerRule& rule) {
  if (rule.marker.empty() || line.find(rule.marker) == std::string_view::npos) return false;
  const Result<rapidjson::Document> parsed = parse_json(line);
  if (!parsed || !parsed->IsObject()) return false;
  const rapidjson::Value& doc = *parsed;
  if (string_member(doc, "type") != std::string_view(rule.record_type)) return false;
  const rapidjson::Value* message = member(doc, "message");
  const rapidjson::Value* content = message ? member(*message, "content") : nullptr;
  if (content == nullptr) return false;
  if (content->IsString())
    return text_has_marker({content->GetString(), content->GetStringLength()}, rule);
  if (!content->IsArray()) return false;
  for (const auto& block : content->GetArray()) {
    if (string_member(block, "type") != std::string_view("text")) continue;
    if (auto text = string_member(block, "text"); text && text_has_marker(*text, rule)) return true;
  }
  return false;
}

}  // namespace fleet
