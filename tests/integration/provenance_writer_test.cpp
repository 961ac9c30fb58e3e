// provenance-writer from the command line and as a PostToolUse hook.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>

#include "fixtures.h"
#include "process.h"
#include "store/pending_launch.h"
#include "store/provenance_record.h"
#include "temp_dir.h"

using fleet::test::kL3;
using fleet::test::kWorker;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::split_lines;
using fleet::test::TempDir;

namespace {

std::vector<fleet::ProvenanceRecord> records(const std::string& store) {
  std::vector<fleet::ProvenanceRecord> out;
  for (const auto& line : split_lines(read_file(store))) {
    auto record = fleet::parse_provenance_line(line);
    REQUIRE_MESSAGE(record, line);
    out.push_back(*record);
  }
  return out;
}

}  // namespace

TEST_CASE("provenance-writer record: appends one complete record") {
  TempDir tmp;
  const auto r = run_process(
      {FLEET_PROVENANCE_WRITER, "record", "--session-id", kWorker, "--caller-session-id", kL3,
       "--kitchen-id", "kitchen-1", "--dispatch-id", "d-1", "--recipe-name", "implement",
       "--step-name", "build", "--agent", "codex", "--state-dir", tmp / "state", "--fsync"});
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  const std::string store = tmp / "state/session_provenance.jsonl";
  const auto all = records(store);
  REQUIRE(all.size() == 1);
  CHECK(all[0].session_id == kWorker);
  CHECK(all[0].caller_session_id == kL3);
  CHECK(all[0].kitchen_id == "kitchen-1");
  CHECK(all[0].dispatch_id == "d-1");
  CHECK(all[0].recipe_name == "implement");
  CHECK(all[0].step_name == "build");
  CHECK(all[0].timestamp.size() == 32);
  CHECK(all[0].agent_cli == "codex");
  CHECK(read_file(store).starts_with(R"({"agent_cli":"codex",)"));
  struct stat st {};
  REQUIRE(::stat(store.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(::stat((tmp / "state").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
}

TEST_CASE("provenance-writer record: the caller and kitchen come from the environment") {
  // Claude Code 2.1.328 names the calling session to the MCP servers it starts in
  // CLAUDE_CODE_SESSION_ID: a recorder below it takes that caller.
  TempDir tmp;
  const auto r = run_process(
      fleet::test::under_agent_cli(tmp.path(), "claude", {{"CLAUDE_CODE_SESSION_ID", kL3}},
                                   {FLEET_PROVENANCE_WRITER, "record", "--session-id", kWorker,
                                    "--recipe-name", "implement"}),
      {"", {{"FLEET_HOOKS_STATE_DIR", tmp.path()}, {"AUTOSKILLIT_CAMPAIGN_ID", "camp-3"}}, ""});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  const auto all = records(tmp / "session_provenance.jsonl");
  REQUIRE(all.size() == 1);
  CHECK(all[0].caller_session_id == kL3);
  CHECK(all[0].kitchen_id == "camp-3");
}

TEST_CASE("provenance-writer record: the AutoSkillit default location") {
  TempDir project;
  const auto r = run_process(
      {FLEET_PROVENANCE_WRITER, "record", "--session-id", kWorker, "--caller-session-id", kL3},
      {"", {{"CLAUDE_PROJECT_DIR", project.path()}, {"AUTOSKILLIT_CAMPAIGN_ID", "camp-3"}}, ""});
  CHECK(r.exit_code == 0);
  CHECK(records(project / ".autoskillit/temp/camp-3/session_provenance.jsonl").size() == 1);
}

TEST_CASE("provenance-writer record: bad input exits 2 and writes nothing") {
  TempDir tmp;
  const std::string store = tmp / "session_provenance.jsonl";
  fleet::test::write_file(store, "{\"session_id\":\"existing\",\"caller_session_id\":\"c\"}\n");
  const std::string before = read_file(store);
  const std::vector<std::vector<std::string>> bad = {
      {"record", "--caller-session-id", kL3},                             // no session id
      {"record", "--session-id", kWorker},                                // no caller anywhere
      {"record", "--session-id", "../../x", "--caller-session-id", kL3},  // path traversal
      {"record", "--session-id", "a b", "--caller-session-id", kL3},      // space
      {"record", "--session-id", kWorker, "--caller-session-id", "-x"},   // looks like a flag
      {"record", "--session-id", kWorker, "--caller-session-id", kL3, "--kitchen-id", "k/1"},
      {"record", "--session-id", kWorker, "--caller-session-id", kL3, "--step-name", "a\nb"},
      {"record", "--session-id", kWorker, "--caller-session-id", kL3, "--bogus"},
      {"record", "--session-id", kWorker, "--caller-session-id", kL3, "--agent", "cursor"},
      {},
      {"frobnicate"},
  };
  for (auto args : bad) {
    args.insert(args.begin(), FLEET_PROVENANCE_WRITER);
    if (args.size() > 1 && args[1] == "record") {
      args.push_back("--state-dir");
      args.push_back(tmp.path());
    }
    const auto r = run_process(args);
    CHECK_MESSAGE(r.exit_code == 2, (args.size() > 1 ? args[1] + " " + r.err : r.err));
    CHECK_FALSE(r.err.empty());
  }
  CHECK(read_file(store) == before);
  const auto no_caller = run_process(
      {FLEET_PROVENANCE_WRITER, "record", "--session-id", kWorker, "--state-dir", tmp.path()});
  CHECK_MESSAGE(no_caller.err.starts_with("provenance-writer: record needs the caller, and it is "
                                          "not certain: "),
                no_caller.err);
  CHECK(no_caller.err.find("--caller-session-id") != std::string::npos);
}

TEST_CASE("provenance-writer record: a store that is a symlink is refused with exit 1") {
  TempDir tmp;
  fleet::test::write_file(tmp / "elsewhere", "precious\n");
  REQUIRE(::symlink((tmp / "elsewhere").c_str(), (tmp / "session_provenance.jsonl").c_str()) == 0);
  const auto r = run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", kWorker,
                              "--caller-session-id", kL3, "--state-dir", tmp.path()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("symbolic link") != std::string::npos);
  CHECK(read_file(tmp / "elsewhere") == "precious\n");
}

TEST_CASE("provenance-writer: --help and --version") {
  const auto help = run_process({FLEET_PROVENANCE_WRITER, "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("record") != std::string::npos);
  CHECK(help.out.find("hook") != std::string::npos);
  const auto record_help = run_process({FLEET_PROVENANCE_WRITER, "record", "--help"});
  CHECK(record_help.out.find("--caller-session-id") != std::string::npos);
  const auto version = run_process({FLEET_PROVENANCE_WRITER, "--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out.find("provenance-writer 0.") == 0);
}

TEST_CASE("provenance-writer hook: records the dispatched session from an MCP response") {
  TempDir tmp;
  const std::string in =
      R"({"session_id":")" + std::string(kL3) +
      R"(","transcript_path":"/t","cwd":"/nonexistent","hook_event_name":"PostToolUse",)"
      R"("tool_name":"mcp__kitchen__dispatch_food_truck",)"
      R"("tool_input":{"recipe_name":"implement","step_name":"build","prompt":"go"},)"
      R"("tool_response":[{"type":"text","text":"{\"session_id\":\")" +
      kWorker +
      R"(\",\"dispatch_id\":\"d-7\",\"kitchen_id\":\"kitchen-1\",\"agent_cli\":\"gemini\"}"}],)"
      R"("duration_ms":12})";
  const auto r =
      run_process({FLEET_PROVENANCE_WRITER, "hook", "--state-dir", tmp.path()}, {in, {}, ""});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(r.err.empty());
  const auto all = records(tmp / "session_provenance.jsonl");
  REQUIRE(all.size() == 1);
  CHECK(all[0].session_id == kWorker);
  CHECK(all[0].caller_session_id == kL3);
  CHECK(all[0].dispatch_id == "d-7");
  CHECK(all[0].kitchen_id == "kitchen-1");
  CHECK(all[0].recipe_name == "implement");
  CHECK(all[0].step_name == "build");
  CHECK(all[0].agent_cli == "gemini");  // the worker's CLI, as the dispatcher named it
}

TEST_CASE("provenance-writer hook: never blocks - every problem is one stderr line and exit 0") {
  TempDir tmp;
  fleet::test::write_file(tmp / "target", "precious\n");
  REQUIRE(::symlink((tmp / "target").c_str(), (tmp / "session_provenance.jsonl").c_str()) == 0);
  const std::string no_id =
      R"({"session_id":"c","hook_event_name":"PostToolUse","tool_name":"dispatch_food_truck",)"
      R"("tool_input":{},"tool_response":"dispatch failed"})";
  const std::string symlinked =
      R"({"session_id":"c","hook_event_name":"PostToolUse","tool_name":"dispatch_food_truck",)"
      R"("tool_input":{},"tool_response":{"session_id":"w-1"}})";
  for (const std::string& in : {std::string(), std::string("garbage"), no_id, symlinked}) {
    const auto r =
        run_process({FLEET_PROVENANCE_WRITER, "hook", "--state-dir", tmp.path()}, {in, {}, ""});
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  CHECK(read_file(tmp / "target") == "precious\n");
  // Other tools: nothing at all.
  const auto other = run_process(
      {FLEET_PROVENANCE_WRITER, "hook", "--state-dir", tmp / "other"},
      {R"({"session_id":"c","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{},"tool_response":{"session_id":"w"}})",
       {},
       ""});
  CHECK(other.exit_code == 0);
  CHECK(other.err.empty());
  CHECK(::access((tmp / "other").c_str(), F_OK) != 0);
}

TEST_CASE(
    "provenance-writer hook: a fresh worker whose id starts with the resumed id is recorded") {
  TempDir tmp;
  const std::string store = tmp / "session_provenance.jsonl";
  fleet::test::write_file(
      store, fleet::test::autoskillit_line(fleet::test::record("w-1", kL3, "k-1")) + "\n");
  REQUIRE(::chmod(store.c_str(), 0600) == 0);
  // The L3 resumes w-1; the dispatcher launches a fresh w-10 instead and reports it.
  const std::string in = fleet::test::post_tool_use(R"({"resume_session_id":"w-1"})",
                                                    R"({"session_id":"w-10","kitchen_id":"k-1"})");
  const auto r =
      run_process({FLEET_PROVENANCE_WRITER, "hook", "--state-dir", tmp.path()}, {in, {}, ""});
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  const auto all = records(store);
  REQUIRE(all.size() == 2);
  CHECK(all[1].session_id == "w-10");
  CHECK(all[1].caller_session_id == kL3);
  // A stranger resuming w-10 is denied.
  const std::string stranger = fleet::test::pre_tool_use("stranger-1", "w-10");
  const auto guard =
      run_process({FLEET_RESUME_GUARD, "--state-dir", tmp.path()}, {stranger, {}, ""});
  CHECK(guard.exit_code == 0);
  CHECK(guard.out.find("\"deny\"") != std::string::npos);
  // Resuming w-10 itself records nothing more.
  const auto again = run_process(
      {FLEET_PROVENANCE_WRITER, "hook", "--state-dir", tmp.path()},
      {fleet::test::post_tool_use(R"({"resume_session_id":"w-10"})", R"({"session_id":"w-10"})"),
       {},
       ""});
  CHECK(again.err.empty());
  CHECK(records(store).size() == 2);
}

TEST_CASE("provenance-writer session-start: records the launcher's pending worker once") {
  TempDir tmp;
  fleet::ProvenanceRecord launch = fleet::test::record("", kL3, "kitchen-1");
  launch.agent_cli = "codex";
  const std::string pending = fleet::write_pending_launch(tmp / "state", launch);
  // What Codex 0.169.0 sends a SessionStart hook.
  const auto start = [&](const std::string& session) {
    return R"({"session_id":")" + session +
           R"(","transcript_path":null,"cwd":"/nonexistent","hook_event_name":"SessionStart",)"
           R"("model":"gpt-5","permission_mode":"default","source":"startup"})";
  };
  const std::vector<std::pair<std::string, std::string>> env = {
      {fleet::kPendingLaunchEnv, pending}};
  const auto r = run_process({FLEET_PROVENANCE_WRITER, "session-start", "--agent", "codex"},
                             {start(kWorker), env, ""});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());  // Codex would hand stdout to the model
  CHECK(r.err.empty());
  const std::string store = tmp / "state/session_provenance.jsonl";
  auto all = records(store);
  REQUIRE(all.size() == 1);
  CHECK(all[0].session_id == kWorker);
  CHECK(all[0].caller_session_id == kL3);
  CHECK(all[0].kitchen_id == "kitchen-1");
  CHECK(all[0].agent_cli == "codex");
  CHECK(fleet::read_pending_launch(pending).state == fleet::PendingLaunch::State::claimed);

  // A session the worker starts inherits the variable: nothing more is recorded, silently.
  const auto nested = run_process({FLEET_PROVENANCE_WRITER, "session-start", "--agent", "codex"},
                                  {start("11111111-0000-4000-8000-000000000009"), env, ""});
  CHECK(nested.exit_code == 0);
  CHECK(nested.err.empty());
  CHECK(records(store).size() == 1);

  // A session no launcher left anything for: silent, nothing written.
  const auto plain = run_process({FLEET_PROVENANCE_WRITER, "session-start", "--agent", "codex"},
                                 {start(kWorker), {{fleet::kPendingLaunchEnv, ""}}, ""});
  CHECK(plain.exit_code == 0);
  CHECK(plain.out.empty());
  CHECK(plain.err.empty());
}

TEST_CASE("provenance-writer session-start: never blocks - a problem is one stderr line") {
  TempDir tmp;
  const std::string pending =
      fleet::write_pending_launch(tmp / "state", fleet::test::record("", kL3, "kitchen-1"));
  const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>
      cases = {
          {"not json", {{fleet::kPendingLaunchEnv, pending}}},
          {R"({"hook_event_name":"SessionStart"})", {{fleet::kPendingLaunchEnv, pending}}},
          {R"({"session_id":"../x","hook_event_name":"SessionStart"})",
           {{fleet::kPendingLaunchEnv, pending}}},
          {R"({"session_id":"s-1","hook_event_name":"SessionStart"})",
           {{fleet::kPendingLaunchEnv, tmp / "state/session_provenance.jsonl"}}},
      };
  for (const auto& [input, env] : cases) {
    const auto r = run_process({FLEET_PROVENANCE_WRITER, "session-start", "--agent", "codex"},
                               {input, env, ""});
    CHECK_MESSAGE(r.exit_code == 0, input);
    CHECK(r.out.empty());
    CHECK(r.err.starts_with("provenance-writer session-start: "));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  // Still pending: the launcher records the session once it learns the id.
  CHECK(fleet::read_pending_launch(pending).state == fleet::PendingLaunch::State::pending);
  const auto bad_flag = run_process({FLEET_PROVENANCE_WRITER, "session-start", "--bogus"});
  CHECK(bad_flag.exit_code == 1);
}

TEST_CASE(
    "provenance-writer record: the caller is the session any agent CLI names to its MCP servers") {
  // Qwen Code 0.24.4 names the calling session to its MCP servers in QWEN_CODE_SESSION_ID (as
  // Claude Code does in CLAUDE_CODE_SESSION_ID): a recorder it runs takes that caller, not the
  // CLAUDE_CODE_SESSION_ID it inherited from a Claude Code session's shell it was started in.
  TempDir tmp;
  const auto r = run_process(
      fleet::test::under_agent_cli(tmp.path(), "qwen", {{"QWEN_CODE_SESSION_ID", kL3}},
                                   {FLEET_PROVENANCE_WRITER, "record", "--session-id", kWorker}),
      {"", {{"CLAUDE_CODE_SESSION_ID", "another-l3"}, {"FLEET_HOOKS_STATE_DIR", tmp.path()}}, ""});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  const auto all = records(tmp / "session_provenance.jsonl");
  REQUIRE(all.size() == 1);
  CHECK(all[0].caller_session_id == kL3);
  // A Qwen Code that names no session of its own (it inherited the variable): no guess.
  const auto inherited = run_process(
      fleet::test::under_agent_cli(tmp.path(), "qwen", {},
                                   {FLEET_PROVENANCE_WRITER, "record", "--session-id", kWorker}),
      {"", {{"QWEN_CODE_SESSION_ID", kL3}, {"FLEET_HOOKS_STATE_DIR", tmp.path()}}, ""});
  CHECK(inherited.exit_code == 2);
  CHECK_MESSAGE(inherited.err.find("QWEN_CODE_SESSION_ID=" + std::string(kL3) + " (it inherited") !=
                    std::string::npos,
                inherited.err);
  CHECK(records(tmp / "session_provenance.jsonl").size() == 1);
}
