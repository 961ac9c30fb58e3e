#include "launch/completion_marker.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

using namespace fleet;

namespace {

const MarkerRule kRule{"%%L3_DONE::b2fc2669%%", "assistant", false,
                       &fleet::claude_profile().completion};

std::string assistant(const std::string& text_json) {
  return R"({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":)" +
         text_json + "}]}}";
}

}  // namespace

TEST_CASE("completion_marker: an assistant text block with the marker on its own line") {
  CHECK(record_has_marker(assistant(R"("All done.\n%%L3_DONE::b2fc2669%%")"), kRule));
  CHECK(record_has_marker(assistant(R"("  %%L3_DONE::b2fc2669%%  \r\nbye")"), kRule));
  CHECK(record_has_marker(R"({"type":"assistant","message":{"content":"%%L3_DONE::b2fc2669%%"}})",
                          kRule));
}

TEST_CASE("completion_marker: a marker inside a sentence counts only with anywhere") {
  const std::string inline_marker = assistant(R"("I will print %%L3_DONE::b2fc2669%% when done")");
  CHECK_FALSE(record_has_marker(inline_marker, kRule));
  MarkerRule anywhere = kRule;
  anywhere.anywhere = true;
  CHECK(record_has_marker(inline_marker, anywhere));
}

TEST_CASE("completion_marker: records that repeat the marker never count") {
  CHECK_FALSE(record_has_marker(
      R"({"type":"user","message":{"role":"user","content":"print %%L3_DONE::b2fc2669%%\n%%L3_DONE::b2fc2669%%"}})",
      kRule));
  CHECK_FALSE(record_has_marker(
      R"({"type":"api-request-blob","messages":[{"role":"assistant","content":[{"type":"text","text":"%%L3_DONE::b2fc2669%%"}]}]})",
      kRule));
  CHECK_FALSE(
      record_has_marker(R"({"type":"queue-operation","content":"%%L3_DONE::b2fc2669%%"})", kRule));
  CHECK_FALSE(record_has_marker(
      R"({"type":"assistant","message":{"content":[{"type":"tool_use","input":{"x":"%%L3_DONE::b2fc2669%%"}}]}})",
      kRule));
  CHECK_FALSE(record_has_marker(
      R"({"type":"assistant","message":{"content":[{"type":"text","text":"%%L3_DONE::b2fc2669%)",
      kRule));  // torn
  CHECK_FALSE(record_has_marker("", kRule));
  MarkerRule user_type = kRule;
  user_type.record_type = "user";
  CHECK(record_has_marker(R"({"type":"user","message":{"content":"%%L3_DONE::b2fc2669%%"}})",
                          user_type));
}
