#include "launch/worker_record.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <cstdio>

#include "base/files.h"
#include "store/pending_launch.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;

namespace {

constexpr const char* kWorker = "019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88";

ProvenanceRecord launch_record() {
  ProvenanceRecord record;
  record.caller_session_id = "c0ffee00-0000-4000-8000-000000000001";
  record.recipe_name = "implement";
  record.agent_cli = "codex";
  return record;
}

std::size_t stored(const std::string& state_dir) {
  const auto text = read_regular_file_if_exists(state_dir + "/session_provenance.jsonl", 1 << 20);
  std::size_t lines = 0;
  for (char c : text.value_or("")) lines += c == '\n';
  return lines;
}

}  // namespace

TEST_CASE("worker_record: a launch the SessionStart hook claimed needs nothing more") {
  TempDir tmp;
  const AgentProfile& codex = *find_agent_profile("codex");
  const std::string pending = write_pending_launch(tmp / "state", launch_record());
  REQUIRE(claim_pending_launch(pending, kWorker, {}));  // what the hook does
  SettledLaunch settled = settle_pending_launch(pending, kWorker, codex, {});
  CHECK(settled.session_id == kWorker);
  CHECK_FALSE(settled.recorded_late);
  CHECK_FALSE(settled.warning);
  // Without a captured id, the hook's record names the session.
  settled = settle_pending_launch(pending, "", codex, {});
  CHECK(settled.session_id == kWorker);
  CHECK_FALSE(settled.warning);
  CHECK(stored(tmp / "state") == 1);
}

TEST_CASE("worker_record: an unclaimed launch is recorded late and the hook is named") {
  TempDir tmp;
  const AgentProfile& codex = *find_agent_profile("codex");
  const std::string pending = write_pending_launch(tmp / "state", launch_record());
  const SettledLaunch settled = settle_pending_launch(pending, kWorker, codex, {});
  CHECK(settled.session_id == kWorker);
  CHECK(settled.recorded_late);
  REQUIRE(settled.warning);
  CHECK(settled.warning->find("unguarded") != std::string::npos);
  CHECK(settled.warning->find("fleet-hooks install --agent codex") != std::string::npos);
  CHECK(stored(tmp / "state") == 1);
  // A hook that runs after that finds nothing to claim.
  CHECK_FALSE(claim_pending_launch(pending, kWorker, {}));
  CHECK(stored(tmp / "state") == 1);
}

TEST_CASE("worker_record: no id seen and no hook: nothing recorded, and said") {
  TempDir tmp;
  const std::string pending = write_pending_launch(tmp / "state", launch_record());
  const SettledLaunch settled =
      settle_pending_launch(pending, "", *find_agent_profile("codex"), {});
  CHECK(settled.session_id.empty());
  REQUIRE(settled.warning);
  CHECK(settled.warning->find("--json") != std::string::npos);
  CHECK(stored(tmp / "state") == 0);
}

TEST_CASE("worker_record: a launch a hook is claiming this moment keeps the captured id") {
  TempDir tmp;
  const AgentProfile& codex = *find_agent_profile("codex");
  const std::string pending = write_pending_launch(tmp / "state", launch_record());
  // The hook's rename has won, its append has not happened yet.
  REQUIRE(::rename(pending.c_str(), (pending + ".claimed").c_str()) == 0);
  const SettledLaunch settled = settle_pending_launch(pending, kWorker, codex, {});
  CHECK(settled.session_id == kWorker);
  CHECK_FALSE(settled.recorded_late);
  CHECK_FALSE(settled.warning);
  CHECK(stored(tmp / "state") == 0);  // the hook appends it, not the launch
}

TEST_CASE("worker_record: the warnings name the CLI's own start hook and output flag") {
  TempDir tmp;
  const AgentProfile& opencode = *find_agent_profile("opencode");
  std::string pending = write_pending_launch(tmp / "late", launch_record());
  SettledLaunch settled = settle_pending_launch(pending, "ses_4f2a", opencode, {});
  REQUIRE(settled.warning);
  CHECK(settled.warning->find("not recorded by its plugin's chat.message handler") !=
        std::string::npos);
  CHECK(settled.warning->find("SessionStart") == std::string::npos);
  CHECK(settled.warning->find("fleet-hooks check --agent opencode") != std::string::npos);
  pending = write_pending_launch(tmp / "unseen", launch_record());
  settled = settle_pending_launch(pending, "", opencode, {});
  REQUIRE(settled.warning);
  CHECK(settled.warning->find("(run it with --format json)") != std::string::npos);
  CHECK(settled.warning->find("SessionStart") == std::string::npos);
}
