// End to end: the real Qwen Code (0.24.4, tests/e2e/setup.sh) as an L3 orchestrator in a
// project wired by `fleet-hooks install --agent qwen` (.qwen/settings.json, Claude Code's hook
// dialect), and as a worker launched by `launch-wrapper --agent qwen`. It runs headless
// (`qwen -o stream-json --yolo`) in a private home against the scripted model on loopback
// speaking streamed Chat Completions (fixtures/chat_completions_wire.mjs), with the stdio MCP
// dispatcher as the server "kitchen" of the user's settings (the model calls
// mcp__kitchen__dispatch_food_truck), which launches Claude Code workers through
// launch-wrapper (tests/support/agent_orchestrator.h's AgentFleet). Assertions use what Qwen
// Code sent back to its model, its stream-json events, the dispatcher's calls, launch-wrapper's
// summary and the store.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "agent_orchestrator.h"
#include "base/json.h"
#include "fixtures.h"
#include "process.h"
#include "temp_dir.h"
#include "tree.h"

using fleet::test::AgentFleet;
using fleet::test::FleetOptions;
using fleet::test::RunResult;
using fleet::test::split_lines;

namespace {

constexpr const char* kOwner = "c0ffee00-0000-4000-8000-0000000000a1";

// The member `key` of the "result" event in stream-json output `out` ("" when none).
std::string result_event_member(const std::string& out, const char* key) {
  std::string found;
  for (const std::string& line : split_lines(out)) {
    const auto doc = fleet::parse_json_object(line);
    if (doc.ok() && fleet::string_member(*doc, "type") == "result")
      found = std::string(fleet::string_member(*doc, key).value_or(""));
  }
  return found;
}

}  // namespace

TEST_CASE(
    "e2e: qwen - a stranger's resume is denied, the owner's runs, a dispatch is recorded, and "
    "uninstall leaves only Qwen's $version") {
  AgentFleet fleet("qwen", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  const auto before = fleet::test::snapshot_tree(fleet.project());
  fleet.install();
  // Folder trust is off by default: the project's hooks run as they are.
  const RunResult check = fleet.check();
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));

  // The owner dispatches a worker and resumes it: both run, and the worker is recorded by the
  // PostToolUse hook with the owner's session as the caller; a stranger's resume is denied.
  CHECK(fleet.check_guarded({"--session-id", kOwner}) == kOwner);
  // Qwen Code rewrote .qwen/settings.json on its first run (it adds "$version"): the wiring it
  // left still passes.
  const RunResult after = fleet.check();
  CHECK_MESSAGE(after.exit_code == 0, (after.out + after.err));

  // Uninstall takes out the suite's entries and keeps no backup of them: the project is as it
  // was, but for the file Qwen Code migrated, which now holds only its "$version".
  const RunResult uninstalled = fleet.fleet_hooks({"uninstall"});
  REQUIRE_MESSAGE(uninstalled.exit_code == 0, (uninstalled.out + uninstalled.err));
  const std::string settings = fleet.project() + "/.qwen/settings.json";
  const auto migrated = fleet::parse_json_object(fleet::test::read_file(settings));
  REQUIRE(migrated.ok());
  CHECK(migrated->MemberCount() == 1);
  CHECK(migrated->HasMember("$version"));
  auto now = fleet::test::snapshot_tree(fleet.project());
  CHECK(std::erase_if(now, [](const std::string& entry) { return entry.starts_with(".qwen"); }) ==
        2);  // .qwen/ and .qwen/settings.json: no .bak
  CHECK(now == before);
}

TEST_CASE("e2e: qwen - with folder trust on, check fails until the project is trusted") {
  AgentFleet fleet("qwen", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE, FleetOptions{.folder_trust = true});
  fleet.install();
  const RunResult untrusted = fleet.check();
  CHECK(untrusted.exit_code == 3);  // wired right, not yet trusted
  CHECK_MESSAGE(untrusted.out.find("qwen-folder-untrusted") != std::string::npos,
                (untrusted.out + untrusted.err));

  fleet.trust();
  const RunResult trusted = fleet.check();
  CHECK_MESSAGE(trusted.exit_code == 0, (trusted.out + trusted.err));
  // Trusted, Qwen Code runs the project's hooks: a stranger's resume is denied.
  const std::string worker = "0d07e5d0-0000-4000-8000-0000000000a3";
  fleet.record(worker, kOwner, "kitchen-1");
  fleet.check_stranger_denied(worker, kOwner, 0);
}

TEST_CASE("e2e: qwen - launch-wrapper sees a worker finish in its result event, and resumes it") {
  AgentFleet fleet("qwen", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet::test::TempDir scratch;
  const std::string cwd = scratch / "worker";
  ::mkdir(cwd.c_str(), 0755);
  fleet.script(R"({"rules":[{"match":"L2-QWEN","turns":[{"text":"built it\n%%DONE%%"}]}],)"
               R"("default":{"text":"ok"}})");
  const std::vector<std::string> watch = {"--agent",   "qwen", "--completion-marker", "%%DONE%%",
                                          "--drain",   "5",    "--retries",           "1",
                                          "--backoff", "0.1"};
  const auto launch = [&](std::vector<std::string> qwen_args) {
    std::vector<std::string> args = watch;
    args.insert(args.end(),
                {"--assign-session-id", "--", fleet.cli(), "-o", "stream-json", "--yolo"});
    args.insert(args.end(), qwen_args.begin(), qwen_args.end());
    return fleet.launch(args, cwd);
  };
  const auto summary_member = [](const std::string& summary, const char* key) {
    const auto doc = fleet::parse_json_object(summary);
    REQUIRE_MESSAGE(doc.ok(), summary);
    const auto* value = fleet::member(*doc, key);
    REQUIRE(value != nullptr);
    return value->IsString() ? std::string(value->GetString()) : fleet::to_json(*value);
  };

  // A fresh worker: the id launch-wrapper assigned is the session's, and its completion is the
  // result event on stdout (its session file has no such record).
  const auto [fresh, fresh_summary] = launch({"L2-QWEN build it"});
  CHECK_MESSAGE(fresh.exit_code == 0, (fresh.err + fresh_summary));
  const std::string id = summary_member(fresh_summary, "session_id");
  CHECK(result_event_member(fresh.out, "session_id") == id);
  CHECK(summary_member(fresh_summary, "completion_seen") == "true");

  // Resumed with -r: the same session, whose file holds the first answer; seen again only in
  // this run's result event.
  const auto [resumed, resumed_summary] = launch({"-r", id, "L2-QWEN more"});
  CHECK_MESSAGE(resumed.exit_code == 0, (resumed.err + resumed_summary));
  CHECK(summary_member(resumed_summary, "session_id") == id);
  CHECK(summary_member(resumed_summary, "completion_seen") == "true");

  // An id Qwen Code has no session of: a stale session, retried as a fresh one.
  const std::string unknown = "99999999-0000-4000-8000-0000000000a4";
  const auto [stale, stale_summary] = launch({"-r", unknown, "L2-QWEN again"});
  CHECK_MESSAGE(stale.exit_code == 0, (stale.err + stale_summary));
  CHECK(summary_member(stale_summary, "attempts") == "2");
  CHECK(summary_member(stale_summary, "failure_classes") == R"(["stale_session"])");
  CHECK(summary_member(stale_summary, "session_id") != unknown);
  CHECK(summary_member(stale_summary, "completion_seen") == "true");
}

TEST_CASE(
    "e2e: qwen - a project .env that reaches the hooks fails check - without it a stranger "
    "is denied") {
  // Qwen Code 0.24.4 loads the project's .env into its environment, which its hooks inherit:
  // FLEET_HOOKS_STATE_DIR there points the guard at a store the repository ships.
  AgentFleet fleet("qwen", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  REQUIRE(fleet.check().exit_code == 0);
  const std::string env_file = fleet.project() + "/.env";
  fleet::test::write_file(env_file, "OPENAI_MODEL=m\nFLEET_HOOKS_STATE_DIR=policy/empty\n");
  const RunResult switched = fleet.check();
  CHECK(switched.exit_code == 1);
  CHECK_MESSAGE(switched.out.find("error hook-environment: sets FLEET_HOOKS_STATE_DIR: Qwen Code "
                                  "loads this file into its environment") != std::string::npos,
                switched.out);
  // Reverted: check passes, and the real Qwen Code denies a stranger's resume.
  ::unlink(env_file.c_str());
  const RunResult checked = fleet.check();
  REQUIRE_MESSAGE(checked.exit_code == 0, checked.out);
  const std::string worker = "0d07e5d0-0000-4000-8000-00000000abcd";
  fleet.record(worker, fleet::test::kL3, "kitchen-1");
  fleet.check_stranger_denied(worker, fleet::test::kL3, 0);
}
