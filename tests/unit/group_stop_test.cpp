#include <doctest/doctest.h>
#include <csignal>
#include <vector>

#include "process/process_identity.h"

using namespace fleet;
using namespace std::chrono_literals;

TEST_CASE("group_stop: TERM once, KILL once when the grace has passed") {
  std::vector<int> sent;
  GroupStop stop(12345, 10s, [&](int sig) { sent.push_back(sig); });
  CHECK_FALSE(stop.begun());
  CHECK_FALSE(stop.kill_due());
  CHECK_FALSE(stop.kill_if_due());  // nothing before begin()

  const auto before = GroupStop::Clock::now();
  stop.begin();
  stop.begin();  // a second request to stop changes nothing
  CHECK(sent == std::vector<int>{SIGTERM});
  REQUIRE(stop.kill_due());
  CHECK(*stop.kill_due() >= before + 10s);

  CHECK_FALSE(stop.kill_if_due(*stop.kill_due() - 1ms));
  CHECK(sent == std::vector<int>{SIGTERM});
  const auto due = *stop.kill_due();
  CHECK(stop.kill_if_due(due));
  CHECK(stop.killed());
  CHECK_FALSE(stop.kill_due());
  CHECK_FALSE(stop.kill_if_due(due + 1h));
  stop.kill();
  CHECK(sent == std::vector<int>{SIGTERM, SIGKILL});
}

TEST_CASE("group_stop: kill() without a grace period sends KILL only") {
  std::vector<int> sent;
  GroupStop stop(12345, 10s, [&](int sig) { sent.push_back(sig); });
  stop.kill();
  CHECK(stop.begun());
  CHECK(sent == std::vector<int>{SIGKILL});
  stop.begin();
  CHECK(sent == std::vector<int>{SIGKILL});
}
