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
