#include "base/json.h"

#include <rapidjson/error/error.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace fleet {
namespace {

const char* parse_error_text(rapidjson::ParseErrorCode code) {
  switch (code) {
    case rapidjson::kParseErrorNone:
      return "no error";
    case rapidjson::kParseErrorDocumentEmpty:
      return "there is no JSON value";
    case rapidjson::kParseErrorDocumentRootNotSingular:
      return "more text follows the JSON value";
    case rapidjson::kParseErrorValueInvalid:
      return "no valid value (string, number, object, array, true, false or null) starts";
    case rapidjson::kParseErrorObjectMissName:
      return "the name of an object member (a string in double quotes) is missing";
    case rapidjson::kParseErrorObjectMissColon:
      return "a ':' is missing after the name of an object member";
    case rapidjson::kParseErrorObjectMissCommaOrCurlyBracket:
      return "a ',' or '}' is missing after an object member";
    case rapidjson::kParseErrorArrayMissCommaOrSquareBracket:
      return "a ',' or ']' is missing after an array element";
    case rapidjson::kParseErrorStringUnicodeEscapeInvalidHex:
      return "a \\u escape has a character that is not a hexadecimal digit";
    case rapidjson::kParseErrorStringUnicodeSurrogateInvalid:
      return "a \\u escape is half of a surrogate pair without the other half";
    case rapidjson::kParseErrorStringEscapeInvalid:
      return "a string has an invalid escape (a backslash not followed by one of \"\\/bfnrtu)";
    case rapidjson::kParseErrorStringMissQuotationMark:
      return "a string is not closed (its closing '\"' is missing)";
    case rapidjson::kParseErrorStringInvalidEncoding:
      return "a string is not valid UTF-8";
    case rapidjson::kParseErrorNumberTooBig:
      return "a number is too big";
    case rapidjson::kParseErrorNumberMissFraction:
      return "a number has no digit after its '.'";
    case rapidjson::kParseErrorNumberMissExponent:
      return "a number has no digit in its exponent";
    case rapidjson::kParseErrorTermination:
      return "parsing was stopped";
    case rapidjson::kParseErrorUnspecificSyntaxError:
      break;
  }
  return "a syntax error";
}

}  // namespace

std::string text_position(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1);
}

std::string parse_error_sentence(rapidjson::ParseErrorCode code, std::size_t offset,
                                 std::string_view text) {
  return std::string(parse_error_text(code)) + " at byte offset " + std::to_string(offset) + ", " +
         text_position(text, offset);
}

namespace {

// Not kParseFullPrecisionFlag: RapidJSON 1.1's full-precision strtod crashes on crafted
// numbers (found by fuzzing).
constexpr unsigned kParseFlags =
    rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;

}  // namespace

Result<rapidjson::Document> parse_json(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse<kParseFlags>(text.data(), text.size());
  if (doc.HasParseError()) {
    return Result<rapidjson::Document>::failure(
        parse_error_sentence(doc.GetParseError(), doc.GetErrorOffset(), text));
  }
  return doc;
}

std::optional<std::size_t> json_error_offset(std::string_view text) {
  rapidjson::Document doc;
  doc.Parse<kParseFlags>(text.data(), text.size());
  if (!doc.HasParseError()) return std::nullopt;
  return doc.GetErrorOffset();
}

Result<rapidjson::Document> parse_json_object(std::string_view text) {
  Result<rapidjson::Document> doc = parse_json(text);
  if (!doc) return Result<rapidjson::Document>::failure("not valid JSON (" + doc.problem() + ")");
  if (!doc->IsObject()) return Result<rapidjson::Document>::failure("not a JSON object");
  return doc;
}

const rapidjson::Value* member(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  const auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

const rapidjson::Value* member_at_path(const rapidjson::Value& object, std::string_view path) {
  const rapidjson::Value* value = &object;
  while (value != nullptr) {
    const std::size_t dot = path.find('.');
    const std::string name(path.substr(0, dot));
    value = member(*value, name.c_str());
    if (dot == std::string_view::npos) break;
    path.remove_prefix(dot + 1);
  }
  return value;
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

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x80) {  // a run of ASCII is valid as it is: copied in one piece
      std::size_t end = i + 1;
      while (end < text.size() && static_cast<unsigned char>(text[end]) < 0x80) ++end;
      out.append(text.substr(i, end - i));
      i = end;
      continue;
    }
    const std::size_t length = byte < 0x80           ? 1
                               : (byte >> 5) == 0x6  ? 2
                               : (byte >> 4) == 0xe  ? 3
                               : (byte >> 3) == 0x1e ? 4
                                                     : 0;
    bool ok = length > 0 && i + length <= text.size();
    std::uint32_t code = length == 1   ? byte
                         : length == 2 ? (byte & 0x1fu)
                         : length == 3 ? (byte & 0x0fu)
                                       : (byte & 0x07u);
    for (std::size_t k = 1; ok && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      ok = (next & 0xc0) == 0x80;
      code = (code << 6) | (next & 0x3fu);
    }
    // No overlong forms, no surrogates, nothing past U+10FFFF.
    if (ok && length > 1) {
      const std::uint32_t minimum = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
      ok = code >= minimum && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    }
    if (ok) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += "\xef\xbf\xbd";  // U+FFFD
      ++i;
    }
  }
  return out;
}

rapidjson::Value json_string(std::string_view text, rapidjson::Document::AllocatorType& alloc) {
  const std::string valid = valid_utf8(text);
  return rapidjson::Value(valid.data(), static_cast<rapidjson::SizeType>(valid.size()), alloc);
}

}  // namespace fleet
