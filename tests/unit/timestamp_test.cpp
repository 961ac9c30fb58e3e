#include "base/timestamp.h"

#include <doctest/doctest.h>
#include <cctype>
#include <string>

namespace {

// True when `text` has the shape of `pattern`, where 'd' stands for any digit.
bool has_shape(const std::string& text, const std::string& pattern) {
  if (text.size() != pattern.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool ok = pattern[i] == 'd' ? std::isdigit(static_cast<unsigned char>(text[i])) != 0
                                      : text[i] == pattern[i];
    if (!ok) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("timestamp: ISO-8601 UTC with microseconds - as AutoSkillit writes it") {
  const std::string now = fleet::utc_timestamp_now();
  CHECK_MESSAGE(has_shape(now, "dddd-dd-ddTdd:dd:dd.dddddd+00:00"), now);
  CHECK(now.substr(0, 2) == "20");
  CHECK(fleet::utc_timestamp_now() >= now);
}

TEST_CASE("seconds_text writes a duration as a person does") {
  CHECK(fleet::seconds_text(0.2) == "0.2 s");
  CHECK(fleet::seconds_text(5) == "5 s");
  CHECK(fleet::seconds_text(1.25) == "1.25 s");
  CHECK(fleet::seconds_text(0) == "0 s");
  CHECK(fleet::seconds_text(0.0001) == "0 s");
  CHECK(fleet::seconds_text(120) == "120 s");
}

TEST_CASE("timestamp: read back as microseconds, in the forms a person gives") {
  using fleet::parse_timestamp_micros;
  const std::int64_t noon = 1778068800LL * 1000000;  // 2026-05-06T12:00:00Z
  CHECK(parse_timestamp_micros("2026-05-06T12:00:00Z") == noon);
  CHECK(parse_timestamp_micros("2026-05-06T12:00:00.123456+00:00") == noon + 123456);
  CHECK(parse_timestamp_micros("2026-05-06T14:00:00+02:00") == noon);
  CHECK(parse_timestamp_micros("2026-05-06T11:30-0030") == noon);
  CHECK(parse_timestamp_micros("2026-05-06 12:00:00.5") == noon + 500000);
  CHECK(parse_timestamp_micros("2026-05-06") == noon - 12LL * 3600 * 1000000);
  for (const char* bad :
       {"", "2026", "2026-13-01", "2026-05-06T25:00", "2026-05-06T12", "2026-05-06T12:00:00.",
        "2026-05-06T12:00:00+2", "yesterday", "2026-05-06T12:00:00Zjunk"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_timestamp_micros(bad));
  }
  const std::string now = fleet::utc_timestamp_now();
  const auto read = parse_timestamp_micros(now);
  REQUIRE(read);
  CHECK(*read <= fleet::utc_micros_now());
}

TEST_CASE("timestamp: a duration as a person gives it") {
  using fleet::parse_duration_seconds;
  CHECK(parse_duration_seconds("90s") == 90);
  CHECK(parse_duration_seconds("10m") == 600);
  CHECK(parse_duration_seconds("2h") == 7200);
  CHECK(parse_duration_seconds("3d") == 259200);
  for (const char* bad : {"", "m", "10", "10x", "-5m", "1.5h", "10 m"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_duration_seconds(bad));
  }
}
