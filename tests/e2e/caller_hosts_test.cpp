// End to end: the caller of a dispatch where the process tree cannot tell it (issue 39, the
// caller handover of doc/resume-guard.md, "Caller handover").
// - One CLI process running several sessions (`opencode serve`, `codex app-server` as the IDE
//   integrations drive them) starts one dispatcher, and its sessions dispatch through it in
//   turn: by ancestry both come from the same process with two fresh handovers (refused as
//   uncertain), so only what binds the caller to each call can record each worker as its own
//   session's (OpenCode: the guard's call token; Codex: the session in the call's _meta).
// - A dispatcher service one L3 started from its shell tool and another L3 reaches over a socket:
//   the call of that other L3 (Qwen Code, which binds no caller to its calls) is refused, never
//   recorded under the L3 above the service.

#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agent_orchestrator.h"
#include "base/json.h"
#include "store/provenance_record.h"
#include "store/provenance_store.h"

using fleet::test::AgentFleet;
using fleet::test::AgentRun;
using fleet::test::call_field;
using fleet::test::FleetOptions;
using fleet::test::read_file;
using fleet::test::RunResult;
using fleet::test::split_lines;

namespace {

// The prompts of two sessions, A and B, of one host process, in order: each dispatches a worker,
// then each resumes its own worker while the other's calls came between.
using Steps = std::vector<std::pair<std::string, std::string>>;
const Steps kTwoSessions = {{"A", "L3-A-FRESH dispatch the build"},
                            {"B", "L3-B-FRESH dispatch the build"},
                            {"A", "L3-RESUME continue your worker"},
                            {"B", "L3-RESUME continue your worker"}};
// Then B resumes A's worker.
const std::pair<std::string, std::string> kSteal = {"B", "L3-B-STEAL resume the other worker"};

// The model's script for kTwoSessions, and for kSteal with `stolen` as A's worker.
std::string rule(const AgentFleet& fleet, const std::string& match, const std::string& input) {
  return R"({"match":")" + match + R"(","turns":[)" + fleet.dispatch_turn(input) +
         R"(,{"text":"L3 done"}]})";
}
std::string two_sessions_script(const AgentFleet& fleet, const std::string& stolen) {
  return R"({"rules":[)" +
         rule(fleet, "L3-A-FRESH", R"({"prompt":"L2-WORK a","recipe_name":"implement"})") + "," +
         rule(fleet, "L3-B-FRESH", R"({"prompt":"L2-WORK b","recipe_name":"implement"})") + "," +
         rule(fleet, "L3-RESUME",
              R"({"prompt":"L2-WORK more","resume_session_id":"{{last_session_id}}"})") +
         "," +
         rule(fleet, "L3-B-STEAL",
              R"({"prompt":"L2-WORK steal","resume_session_id":")" + stolen + R"("})") +
         R"(],"default":{"text":"ok"}})";
}

// The record of `worker` in `fleet`'s store: REQUIREs one.
fleet::ProvenanceRecord recorded(const AgentFleet& fleet, const std::string& worker) {
  const auto found = fleet::lookup_session(fleet.store(), worker);
  REQUIRE_MESSAGE(found.status == fleet::StoreLookup::Status::found, read_file(fleet.store()));
  return found.record;
}

// After kTwoSessions ran as sessions `a` and `b`: every call ran (none blocked: the dispatcher
// ran four), each worker found its record naming its own session as it started (and the store
// says so), each resume reached its own worker. Returns A's worker.
std::string check_each_its_own(const AgentFleet& fleet, const std::string& a,
                               const std::string& b) {
  REQUIRE(!a.empty());
  REQUIRE(!b.empty());
  REQUIRE(a != b);
  const auto calls = fleet.calls();
  REQUIRE_MESSAGE(calls.size() == 4, fleet.tool_results());
  for (const auto& call : calls)
    CHECK_MESSAGE(call_field(call, "result", "exit_code") == "0", call);
  const std::string worker_a = call_field(calls[0], "result", "session_id");
  const std::string worker_b = call_field(calls[1], "result", "session_id");
  REQUIRE(!worker_a.empty());
  REQUIRE(!worker_b.empty());
  CHECK(call_field(calls[2], "result", "session_id") == worker_a);
  CHECK(call_field(calls[3], "result", "session_id") == worker_b);
  for (const auto& [worker, caller] : {std::pair{worker_a, a}, std::pair{worker_b, b}}) {
    const std::string seen = read_file(fleet.seen(worker));
    const auto first = fleet::parse_provenance_line(seen.substr(0, seen.find('\n')));
    REQUIRE_MESSAGE(first, seen);
    CHECK(first->caller_session_id == caller);
    CHECK(recorded(fleet, worker).caller_session_id == caller);
  }
  return worker_a;
}

// After kSteal: the guard denied B's resume of `worker_a`, the model was told why, and the
// dispatcher did not run.
void check_steal_denied(const AgentFleet& fleet, const std::string& worker_a) {
  CHECK(fleet.calls().size() == 4);
  CHECK_MESSAGE(
      fleet.tool_results().find(fleet.profile().blocked_prefix + "Refused to resume session '" +
                                worker_a) != std::string::npos,
      fleet.tool_results());
}

// The session id member `key` of the one JSON line `out`: REQUIREs it.
std::string member_of(const std::string& out, const char* key) {
  const auto doc = fleet::parse_json_object(out);
  REQUIRE_MESSAGE(doc.ok(), out);
  const auto* value = fleet::member(*doc, key);
  REQUIRE_MESSAGE(value != nullptr, out);
  return value->IsString() ? std::string(value->GetString()) : fleet::to_json(*value);
}

// `prompt` to the session `session` ("new": a session of its own) of the `opencode serve` at
// `url`, through its HTTP API (fixtures/opencode_client.mjs); returns the session, once its
// turn is over.
std::string opencode_prompt(const AgentFleet& fleet, const std::string& url,
                            const std::string& session, const std::string& prompt) {
  const RunResult run =
      fleet::test::run_process({"/usr/bin/env", "node", FLEET_E2E_FIXTURES "/opencode_client.mjs",
                                url, fleet.project(), session, prompt});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return member_of(run.out, "session_id");
}

// Waits up to `seconds` for `path` to exist.
bool appears(const std::string& path, int seconds) {
  for (int tenth = 0; tenth < seconds * 10; ++tenth) {
    if (::access(path.c_str(), F_OK) == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

}  // namespace

TEST_CASE("e2e: caller - two sessions of one opencode serve dispatch, each recorded as its own") {
  // The server runs in a kitchen of its own, so only a caller id lets a resume through.
  AgentFleet fleet("opencode", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE, {.record_at_launch = true});
  fleet.install();
  const auto server = fleet.background({fleet.cli(), "serve", "--port", "0"}, "kitchen-own");
  const std::string listening = "opencode server listening on ";
  REQUIRE_MESSAGE(server->wait_for_output(listening, 60000), server->result().err);
  const std::string& out = server->result().out;
  const std::size_t at = out.find(listening) + listening.size();
  const std::string url = out.substr(at, out.find('\n', at) - at);

  fleet.script(two_sessions_script(fleet, ""));
  std::map<std::string, std::string> sessions = {{"A", "new"}, {"B", "new"}};
  for (const auto& [label, prompt] : kTwoSessions)
    sessions[label] = opencode_prompt(fleet, url, sessions[label], prompt);
  const std::string worker_a = check_each_its_own(fleet, sessions["A"], sessions["B"]);

  fleet.script(two_sessions_script(fleet, worker_a));
  CHECK(opencode_prompt(fleet, url, sessions["B"], kSteal.second) == sessions["B"]);
  check_steal_denied(fleet, worker_a);
}

TEST_CASE("e2e: caller - two threads of one codex app-server dispatch, each recorded as its own") {
  // One `codex app-server` (fixtures/codex_app_client.mjs drives it over stdio as an IDE does)
  // runs both threads; B's steal waits until the test has put A's worker in the script.
  AgentFleet fleet("codex", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE, {.record_at_launch = true});
  fleet.install();
  fleet.trust();
  fleet.script(two_sessions_script(fleet, ""));
  const std::string gate = fleet.state() + "/steal";
  rapidjson::Document steps(rapidjson::kArrayType);
  auto& alloc = steps.GetAllocator();
  for (const auto& [label, prompt] : kTwoSessions) {
    rapidjson::Value step(rapidjson::kArrayType);
    step.PushBack(fleet::json_string(label, alloc), alloc)
        .PushBack(fleet::json_string(prompt, alloc), alloc);
    steps.PushBack(step, alloc);
  }
  rapidjson::Value steal(rapidjson::kArrayType);
  steal.PushBack(fleet::json_string(kSteal.first, alloc), alloc)
      .PushBack(fleet::json_string(kSteal.second, alloc), alloc)
      .PushBack(fleet::json_string(gate, alloc), alloc);
  steps.PushBack(steal, alloc);
  const std::string steps_file = fleet.state() + "/steps.json";
  fleet::test::write_file(steps_file, fleet::to_json(steps));
  const auto client =
      fleet.background({"/usr/bin/env", "node", FLEET_E2E_FIXTURES "/codex_app_client.mjs",
                        fleet.cli(), fleet.project(), steps_file},
                       "kitchen-own");
  for (int tenth = 0; tenth < 900 && fleet.calls().size() < 4; ++tenth)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto calls = fleet.calls();
  REQUIRE_MESSAGE(calls.size() == 4, (fleet.tool_results() + client->result().err));
  const std::string worker_a = call_field(calls[0], "result", "session_id");
  fleet.script(two_sessions_script(fleet, worker_a));
  fleet::test::write_file(gate, "");
  REQUIRE_MESSAGE(client->wait(90000), client->result().err);
  REQUIRE_MESSAGE(client->result().exit_code == 0, client->result().err);
  const std::string threads = member_of(client->result().out, "threads");
  const auto ids = fleet::parse_json_object(threads);
  REQUIRE(ids.ok());
  CHECK(check_each_its_own(fleet, std::string(fleet::string_member(*ids, "A").value_or("")),
                           std::string(fleet::string_member(*ids, "B").value_or(""))) == worker_a);
  check_steal_denied(fleet, worker_a);
}

TEST_CASE("e2e: caller - a Qwen L3's call to a service an OpenCode L3 started is refused") {
  // An OpenCode L3 dispatches (its handover is fresh), then starts the team's dispatcher as a
  // service from its bash tool; a Qwen Code L3 reaches that service over a socket. The nearest
  // CLI above the launch is the OpenCode L3, whose guard gives each call it lets through a
  // token: the call without one is refused (exit 125), nothing is recorded for it, and the
  // OpenCode session is never its caller.
  AgentFleet host("opencode", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE, {.record_at_launch = true});
  host.install();
  const std::string socket = host.state() + "/dispatcher.sock";
  host.script(R"({"rules":[{"match":"L3-HOST","turns":[)" +
              host.dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
              R"(,{"tool_use":{"name":"bash","input":{"description":"start the team's dispatcher",)"
              R"("timeout":120000,"command":")" +
              host.dispatcher_service(socket) +
              R"("}}},{"text":"L3 done"}]}],"default":{"text":"ok"}})");
  const auto l3 =
      host.background(host.l3_command("L3-HOST dispatch, then serve the team"), "kitchen-host");
  REQUIRE_MESSAGE(appears(socket, 90), (host.tool_results() + l3->result().err));

  AgentFleet guest("qwen", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE,
                   FleetOptions{.record_at_launch = true, .service_socket = socket});
  guest.install();
  guest.trust();
  guest.script(R"({"rules":[{"match":"L3-GUEST","turns":[)" +
               guest.dispatch_turn(R"({"prompt":"L2-WORK guest","recipe_name":"implement"})") +
               R"(,{"text":"L3 done"}]}],"default":{"text":"ok"}})");
  const AgentRun guest_run = guest.l3("L3-GUEST dispatch the build", "kitchen-guest");
  fleet::test::write_file(socket + ".stop", "");
  REQUIRE_MESSAGE(l3->wait(60000), l3->result().err);
  CHECK_MESSAGE(guest_run.process.exit_code == 0, guest_run.process.err);
  const std::string owner = host.session_in(l3->result().out);
  REQUIRE_MESSAGE(!owner.empty(), (l3->result().out + l3->result().err));

  // The service's journal: the OpenCode L3's own call, then the Qwen L3's, refused; the Qwen
  // model was told why, naming both causes.
  const auto calls = host.calls();
  REQUIRE_MESSAGE(calls.size() == 2, (host.tool_results() + guest.tool_results()));
  CHECK(call_field(calls[0], "result", "exit_code") == "0");
  CHECK(call_field(calls[1], "input", "prompt") == "L2-WORK guest");
  CHECK(call_field(calls[1], "result", "exit_code") == "125");
  for (const std::string& part : {"the dispatch call carries no call token, though OpenCode (pid " +
                                      std::to_string(l3->pid()) + ") above this launch",
                                  std::string("another L3 reaching a dispatcher shared with it"),
                                  std::string("no resume-guard judged it")})
    CHECK_MESSAGE(guest.tool_results().find(part) != std::string::npos, guest.tool_results());
  // The store holds the OpenCode L3's own worker alone, under its session (recorded at launch,
  // and again by the plugin's after-tool fallback).
  const std::string worker = call_field(calls[0], "result", "session_id");
  CHECK(recorded(host, worker).caller_session_id == owner);
  for (const auto& line : split_lines(read_file(host.store()))) {
    const auto record = fleet::parse_provenance_line(line);
    REQUIRE_MESSAGE(record, line);
    CHECK_MESSAGE(record->session_id == worker, line);
    CHECK_MESSAGE(record->caller_session_id == owner, line);
  }
  CHECK(read_file(guest.store()).empty());
}
