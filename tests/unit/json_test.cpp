#include "base/json.h"

#include <doctest/doctest.h>
#include <string>

#include "fixtures.h"

using namespace fleet;

TEST_CASE("json: parse reports errors with their offset") {
  const auto good = parse_json(R"({"a":1})");
  REQUIRE(good);
  CHECK(good.problem().empty());
  CHECK((*good)["a"].GetInt() == 1);
  CHECK_FALSE(json_error_offset(R"({"a":1})"));
  const auto cut = parse_json(R"({"a":)");
  CHECK_FALSE(cut);
  CHECK(cut.problem().find("at byte offset 5") != std::string::npos);
  CHECK(json_error_offset(R"({"a":)") == 5);
  CHECK_FALSE(parse_json(R"({"a":1} trailing)"));
  CHECK_FALSE(parse_json("\"\xff\""));  // invalid UTF-8
  CHECK(parse_json_object("[1]").problem() == "not a JSON object");
  CHECK(parse_json_object("[1").problem().starts_with("not valid JSON (a ',' or ']' is missing"));
}

TEST_CASE("json: deep nesting does not overflow the stack") {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  const auto doc = parse_json(deep);
  REQUIRE(doc);
  CHECK(doc->IsArray());
}

TEST_CASE("json: typed member access") {
  rapidjson::Document doc = fleet::test::json_document(R"({"s":"x","n":3,"o":{}})");
  CHECK(string_member(doc, "s").value() == "x");
  CHECK_FALSE(string_member(doc, "n").has_value());
  CHECK_FALSE(string_member(doc, "missing").has_value());
  CHECK(member(doc, "o") != nullptr);
  CHECK(member(doc["n"], "x") == nullptr);
  CHECK(std::string(json_type_name(doc["n"])) == "number");
  CHECK(std::string(json_type_name(doc["o"])) == "object");
}

TEST_CASE("json: serialization escapes what needs escaping") {
  rapidjson::Document doc(rapidjson::kObjectType);
  doc.AddMember("k", json_string("quote\" backslash\\ newline\n", doc.GetAllocator()),
                doc.GetAllocator());
  CHECK(to_json(doc) == R"({"k":"quote\" backslash\\ newline\n"})");
}

TEST_CASE("json: what the suite writes is valid UTF-8 (found by fuzzing)") {
  CHECK(valid_utf8("plain gr\xc3\xbc\xc3\x9f \xe2\x9c\x93") ==
        "plain gr\xc3\xbc\xc3\x9f \xe2\x9c\x93");
  CHECK(valid_utf8("bad \xff byte") == "bad \xef\xbf\xbd byte");
  CHECK(valid_utf8("\xed\xbb\xad") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // a lone surrogate
  CHECK(valid_utf8("\xc0\xaf") == "\xef\xbf\xbd\xef\xbf\xbd");                  // overlong '/'
  CHECK(valid_utf8("cut \xe2\x9c") == "cut \xef\xbf\xbd\xef\xbf\xbd");
  rapidjson::Document doc =
      fleet::test::json_document(R"({"k":"\udeed"})");  // RapidJSON accepts a lone low surrogate
  rapidjson::Document out(rapidjson::kObjectType);
  out.AddMember("k",
                json_string(std::string_view(doc["k"].GetString(), doc["k"].GetStringLength()),
                            out.GetAllocator()),
                out.GetAllocator());
  CHECK(parse_json(to_json(out)));
}

TEST_CASE("json: a parse error is a sentence with byte offset, line and column") {
  const auto error_of = [&](std::string_view text) {
    const auto doc = parse_json(text);
    CHECK_FALSE(doc);
    return doc.problem();
  };
  CHECK(error_of("{\n  \"a\": 1,\n}") ==
        "the name of an object member (a string in double quotes) is missing at byte offset 12, "
        "line 3, column 1");
  CHECK(error_of("[1 2]") ==
        "a ',' or ']' is missing after an array element at byte offset 3, line 1, "
        "column 4");
  CHECK(error_of("  ") == "there is no JSON value at byte offset 2, line 1, column 3");
  CHECK(error_of(R"({"a":1} x)").starts_with("more text follows the JSON value at byte offset 8"));
  CHECK(error_of("\"\xff\"").starts_with("a string is not valid UTF-8 at byte offset 1"));
}

TEST_CASE("json: parse_json_object gives the object or says why there is none") {
  auto object = parse_json_object(R"({"member":"value"})");
  REQUIRE(object);
  CHECK(object.problem().empty());
  CHECK(string_member(*object, "member") == "value");

  const auto torn = parse_json_object(R"({"member":)");
  REQUIRE_FALSE(torn);
  CHECK(torn.problem().starts_with("not valid JSON ("));
  CHECK(torn.problem().find("at byte offset 10") != std::string::npos);

  for (const char* other : {"[1]", "\"text\"", "3", "null"}) {
    const auto not_object = parse_json_object(other);
    REQUIRE_FALSE(not_object);
    CHECK(not_object.problem() == "not a JSON object");
  }
  CHECK(parse_json_object("").problem().starts_with("not valid JSON"));
}
