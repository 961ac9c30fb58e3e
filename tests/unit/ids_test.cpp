#include "base/ids.h"

#include <doctest/doctest.h>
#include <string>

using namespace fleet;

TEST_CASE("ids: session ids - kitchen ids and member names") {
  CHECK(is_valid_id("0d07e5d0-1b2c-4d5e-8f90-123456789abc"));
  CHECK(is_valid_id("kitchen-1"));
  CHECK(is_valid_id("d-1"));
  CHECK(is_valid_id("member_a.b:c@d+e=f"));
  CHECK(is_valid_id(std::string(kMaxIdLength, 'a')));

  CHECK_FALSE(is_valid_id(""));
  CHECK_FALSE(is_valid_id(std::string(kMaxIdLength + 1, 'a')));
  CHECK_FALSE(is_valid_id("a/b"));
  CHECK_FALSE(is_valid_id(".."));
  CHECK_FALSE(is_valid_id("a..b"));
  CHECK_FALSE(is_valid_id(".hidden"));
  CHECK_FALSE(is_valid_id("-rf"));
  CHECK_FALSE(is_valid_id("a b"));
  CHECK_FALSE(is_valid_id("a\nb"));
  CHECK_FALSE(is_valid_id(std::string("a\0b", 3)));
  CHECK_FALSE(is_valid_id("caf\xc3\xa9"));
}

TEST_CASE("ids: problems name the value and the rule") {
  CHECK_FALSE(id_problem("session id", "ok-1").has_value());
  CHECK(id_problem("session id", "")->find("session id is empty") != std::string::npos);
  CHECK(id_problem("member", "../x")->find("'../x'") != std::string::npos);
  CHECK(id_problem("member", "a\x01")->find("'a?'") != std::string::npos);
  CHECK(id_problem("x", std::string(200, 'a'))->find("200 bytes") != std::string::npos);
}

TEST_CASE("ids: labels allow text but no control bytes") {
  CHECK_FALSE(label_problem("label", "").has_value());
  CHECK_FALSE(label_problem("label", "implement the thing / step 2 \xc3\xa9").has_value());
  CHECK(label_problem("label", "two\nlines").has_value());
  CHECK(label_problem("label", "del\x7f").has_value());
  CHECK(label_problem("label", std::string(kMaxLabelLength + 1, 'x')).has_value());
  CHECK(label_problem("recipe name", "a\tb")->find("control byte") != std::string::npos);
}

TEST_CASE("ids: UUIDs") {
  CHECK(is_uuid("0d07e5d0-1b2c-4d5e-8f90-123456789abc"));
  CHECK(is_uuid("0D07E5D0-1B2C-4D5E-8F90-123456789ABC"));
  CHECK_FALSE(is_uuid("0d07e5d0"));
  CHECK_FALSE(is_uuid("0d07e5d0-1b2c-4d5e-8f90-123456789abcd"));
  CHECK_FALSE(is_uuid("0d07e5d0x1b2c-4d5e-8f90-123456789abc"));
  CHECK_FALSE(is_uuid("0d07e5g0-1b2c-4d5e-8f90-123456789abc"));
}

TEST_CASE("ids: new UUIDv4s are valid - versioned and distinct") {
  const std::string a = new_uuid_v4();
  const std::string b = new_uuid_v4();
  CHECK(is_uuid(a));
  CHECK(a != b);
  CHECK(a[14] == '4');
  CHECK(std::string("89ab").find(a[19]) != std::string::npos);
  CHECK(is_valid_id(a));
}

TEST_CASE("ids: random hex tokens are as long as asked - lower-case hex and distinct") {
  const std::string a = new_random_hex(16);
  const std::string b = new_random_hex(16);
  CHECK(a.size() == 32);  // 128 bits
  CHECK(a.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(a != b);
  CHECK(is_valid_id(a));
  CHECK(new_random_hex(0).empty());
}
