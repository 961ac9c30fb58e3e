#include "launch/error_class.h"

#include <doctest/doctest.h>
#include <string>

using namespace fleet;

TEST_CASE("error_class: a stale session") {
  CHECK(classify_failure("No conversation found with session ID: abc\n") ==
        ErrorClass::stale_session);
}

TEST_CASE("error_class: retryable API failures") {
  for (const std::string text :
       {"API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}",
        "API Error: 500 Internal server error", "HTTP 502 Bad Gateway", "status 503",
        "Error: 429 Too Many Requests", "Overloaded", "You hit the rate limit",
        "{\"type\":\"rate_limit_error\"}"}) {
    CHECK_MESSAGE(classify_failure(text) == ErrorClass::retryable, text);
  }
}

TEST_CASE("error_class: everything else is fatal") {
  for (const std::string text :
       {"", "Error: invalid API key", "processed 500 files", "error code 5000", "api error 4290",
        "SyntaxError: unexpected token"}) {
    CHECK_MESSAGE(classify_failure(text) == ErrorClass::fatal, text);
  }
  CHECK(to_string(ErrorClass::retryable) == "retryable");
  CHECK(to_string(ErrorClass::stale_session) == "stale_session");
  CHECK(to_string(ErrorClass::fatal) == "fatal");
}
