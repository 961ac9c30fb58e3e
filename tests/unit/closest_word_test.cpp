#include "base/closest_word.h"

#include <doctest/doctest.h>

using fleet::closest_word;

TEST_CASE("closest_word: suggests a likely misspelling and nothing far") {
  const std::vector<std::string> options = {"--help", "--strict", "--state-dir", "--tool",
                                            "--kitchen-id"};
  CHECK(closest_word("--stict", options) == "--strict");
  CHECK(closest_word("--strcit", options) == "--strict");  // swapped neighbours count once
  CHECK(closest_word("--state_dir", options) == "--state-dir");
  CHECK(closest_word("--kitchen", options) == "--kitchen-id");  // the start of one
  CHECK(closest_word("-strict", options) == "--strict");
  CHECK_FALSE(closest_word("--zz", options).has_value());
  CHECK_FALSE(closest_word("--verbose", options).has_value());
  CHECK_FALSE(closest_word("--to", options).has_value());  // too short to be a start
  CHECK(closest_word("instal", {"install", "uninstall", "check"}) == "install");
  CHECK(closest_word("chekc", {"install", "uninstall", "check"}) == "check");
  CHECK_FALSE(closest_word("x", {"install", "check"}).has_value());
}
