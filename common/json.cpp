#include "json.h"

#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace fleet {

bool parse_json(std::string_view text, rapidjson::Document& doc, std::string* error) {
  doc.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(text.data(),
                                                                                    text.size());
  if (!doc.HasParseError()) return true;
  if (error != nullptr) {
    *error = std::string(rapidjson::GetParseError_En(doc.GetParseError())) + " at byte " +
             std::to_string(doc.GetErrorOffset());
  }
  return false;
}

const rapidjson::Value* member(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  const auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

std::optional<std::string_view> string_member(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* value = member(object, key);
  if (value == nullptr || !value->IsString()) return std::nullopt;
  return std::string_view(value->GetString(), value->GetStringLength());
}

const char* json_type_name(const rapidjson::Value& value) {
  switch (value.GetType()) {
    case rapidjson::kNullType:
      return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return "boolean";
    case rapidjson::kObjectType:
      return "object";
    case rapidjson::kArrayType:
      return "array";
    case rapidjson::kStringType:
      return "string";
    case rapidjson::kNumberType:
      return "number";
  }
  return "unknown";
}

std::string to_json(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

rapidjson::Value json_string(std::string_view text, rapidjson::Document::AllocatorType& alloc) {
  return rapidjson::Value(text.data(), static_cast<rapidjson::SizeType>(text.size()), alloc);
}

}  // namespace fleet
