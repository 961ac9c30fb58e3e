#include "matcher.h"

#include <doctest/doctest.h>

using namespace fleet;

TEST_CASE("matcher: empty and * match every tool") {
  CHECK(matcher_matches("", "Bash"));
  CHECK(matcher_matches("*", "mcp__x__y"));
}

TEST_CASE("matcher: plain names are exact - separated by | or ,") {
  CHECK(matcher_is_plain("dispatch_food_truck"));
  CHECK(matcher_matches("dispatch_food_truck", "dispatch_food_truck"));
  CHECK_FALSE(matcher_matches("dispatch_food_truck", "mcp__k__dispatch_food_truck"));
  CHECK_FALSE(matcher_matches("dispatch_food_truck", "dispatch_food_truck_v2"));
  CHECK(matcher_matches("Bash|Read", "Read"));
  CHECK(matcher_matches("Bash, Read", "Read"));
  CHECK_FALSE(matcher_matches("Bash|Read", "Write"));
}

TEST_CASE("matcher: anything else is an unanchored regular expression") {
  CHECK_FALSE(matcher_is_plain("^(mcp__.*__)?dispatch_food_truck$"));
  CHECK(matcher_matches("^(mcp__.*__)?dispatch_food_truck$", "dispatch_food_truck"));
  CHECK(matcher_matches("^(mcp__.*__)?dispatch_food_truck$", "mcp__kitchen__dispatch_food_truck"));
  CHECK_FALSE(matcher_matches("^(mcp__.*__)?dispatch_food_truck$", "dispatch_food_truck_status"));
  CHECK(matcher_matches("mcp__.*__dispatch_food_truck", "mcp__k__dispatch_food_truck_status"));
  CHECK(matcher_matches(".*dispatch.*", "redispatch"));
  CHECK_FALSE(matcher_matches("([unclosed", "anything"));
}
