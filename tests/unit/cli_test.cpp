#include "base/cli.h"

#include <doctest/doctest.h>

using fleet::cli::closest;

TEST_CASE("cli: closest suggests a likely misspelling and nothing far") {
  const std::vector<std::string> options = {"--help", "--strict", "--state-dir", "--tool",
                                            "--kitchen-id"};
  CHECK(closest("--stict", options) == "--strict");
  CHECK(closest("--strcit", options) == "--strict");  // swapped neighbours count once
  CHECK(closest("--state_dir", options) == "--state-dir");
  CHECK(closest("--kitchen", options) == "--kitchen-id");  // the start of one
  CHECK(closest("-strict", options) == "--strict");
  CHECK_FALSE(closest("--zz", options).has_value());
  CHECK_FALSE(closest("--verbose", options).has_value());
  CHECK_FALSE(closest("--to", options).has_value());  // too short to be a start
  CHECK(closest("instal", {"install", "uninstall", "check"}) == "install");
  CHECK(closest("chekc", {"install", "uninstall", "check"}) == "check");
  CHECK_FALSE(closest("x", {"install", "check"}).has_value());
}
