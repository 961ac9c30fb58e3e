#pragma once
// Small typed accessors over RapidJSON, shared by every reader and writer of JSON.
// Failing: text that is not JSON is an expected outcome, returned as a Result carrying the
// sentence for a person (built only when the text does not parse, so the hot path never
// builds it); a member that is absent or of another type is nullopt / nullptr. Nothing here
// throws.

#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "base/result.h"

namespace fleet {

// `text` parsed iteratively (deep nesting cannot overflow the stack), when it is one complete
// JSON value; else why not (parse_error_sentence: "… at byte offset 41, line 3, column 7").
Result<rapidjson::Document> parse_json(std::string_view text);

// Where parsing `text` stops, as a byte offset: for a reader that shows the part of a file
// around the error. nullopt when `text` is one complete JSON value.
std::optional<std::size_t> json_error_offset(std::string_view text);

// What RapidJSON's error `code` at `offset` of `text` means, for a person: "a ',' or '}' is
// missing after an object member at byte offset 41, line 3, column 7" (offset from 0, line
// and column from 1).
std::string parse_error_sentence(rapidjson::ParseErrorCode code, std::size_t offset,
                                 std::string_view text);

// Where byte `offset` of `text` is, for a person: "line 3, column 7" (both from 1).
std::string text_position(std::string_view text, std::size_t offset);

// `text` parsed, when it is one JSON object; else why not ("not valid JSON (…)" or "not a
// JSON object"), for the suite's own state files.
Result<rapidjson::Document> parse_json_object(std::string_view text);

// The member `key` of `object` when `object` is an object and the member is a string.
std::optional<std::string_view> string_member(const rapidjson::Value& object, const char* key);

// The member `key` of `object`, or nullptr when absent or `object` is not an object.
const rapidjson::Value* member(const rapidjson::Value& object, const char* key);

// The value at `path` in `object`: member names from the top, dot-separated
// ("hooksConfig.enabled"); nullptr when a member on the way is absent or not an object.
const rapidjson::Value* member_at_path(const rapidjson::Value& object, std::string_view path);

// "string", "number", "object", ... for messages about wrong types.
const char* json_type_name(const rapidjson::Value& value);

// Compact serialization (RapidJSON does the escaping).
std::string to_json(const rapidjson::Value& value);

// `text` with every byte that does not start a valid UTF-8 sequence (overlong forms and
// surrogates included) replaced by U+FFFD, so whatever the suite writes reads back.
std::string valid_utf8(std::string_view text);

// A string value owned by `alloc`, made valid UTF-8 (valid_utf8).
rapidjson::Value json_string(std::string_view text, rapidjson::Document::AllocatorType& alloc);

}  // namespace fleet
