#include "timestamp.h"

#include <doctest/doctest.h>
#include <regex>

TEST_CASE("timestamp: ISO-8601 UTC with microseconds - as AutoSkillit writes it") {
  const std::string now = fleet::utc_timestamp_now();
  CHECK(std::regex_match(now, std::regex(R"(20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00)")));
  CHECK(fleet::utc_timestamp_now() >= now);
}
