#include "launch/summary.h"

#include <doctest/doctest.h>

#include "base/json.h"
#include "fixtures.h"

using namespace fleet;

TEST_CASE("summary: one JSON line with what happened") {
  LaunchSummary summary;
  summary.member = "truck-1";
  summary.session_id = "s-1";
  summary.session_key = std::string("key");
  summary.session_state = SessionStatus::resume_pending;
  summary.exit_code = 143;
  summary.kill_reason = KillReason::drain_timeout;
  summary.pids = {10, 11};
  summary.failure_classes = {ErrorClass::retryable};
  summary.attempts = 2;
  const std::string line = launch_summary_json(summary);
  CHECK(line.back() == '\n');
  CHECK(line.find('\n') == line.size() - 1);
  rapidjson::Document doc = fleet::test::json_document(line);
  CHECK(std::string(doc["event"].GetString()) == "launch-wrapper.summary");
  CHECK(std::string(doc["session_state"].GetString()) == "resume_pending");
  CHECK(doc["exit_code"].GetInt() == 143);
  CHECK(doc["pids"].Size() == 2);
  CHECK_FALSE(doc["completion_seen"].GetBool());

  LaunchSummary bare;
  bare.kill_reason = KillReason::natural_exit;
  doc = fleet::test::json_document(launch_summary_json(bare));
  CHECK_FALSE(doc.HasMember("member"));
  CHECK_FALSE(doc.HasMember("session_key"));
}
