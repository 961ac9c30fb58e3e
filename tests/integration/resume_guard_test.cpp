// resume-guard as Claude Code runs it: hook input on stdin, decision on stdout, exit 0.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>

#include "base/json.h"
#include "fixtures.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::kL3;
using fleet::test::kWorker;
using fleet::test::kWorker2;
using fleet::test::RunResult;
using fleet::test::TempDir;

namespace {

std::string input(const std::string& caller, const std::string& resume_json,
                  const std::string& tool = "mcp__kitchen__dispatch_food_truck",
                  const std::string& event = "PreToolUse") {
  return R"({"session_id":")" + caller +
         R"(","transcript_path":"/tmp/t.jsonl","cwd":"/nonexistent","prompt_id":"p",)"
         R"("permission_mode":"default","hook_event_name":")" +
         event + R"(","tool_name":")" + tool +
         R"(","tool_input":{"recipe_name":"implement","resume_session_id":)" + resume_json +
         R"(},"tool_use_id":"toolu_1","mcp_server":{"name":"kitchen","source":"config"}})";
}

std::string id(const char* value) {
  return std::string("\"") + value + "\"";
}

struct Guard {
  TempDir tmp;
  std::vector<std::string> extra_args;
  std::vector<std::pair<std::string, std::string>> env;

  std::string store() const { return tmp / "session_provenance.jsonl"; }

  RunResult run(const std::string& stdin_data) const {
    std::vector<std::string> argv = {FLEET_RESUME_GUARD, "--state-dir", tmp.path()};
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    return fleet::test::run_process(argv, {stdin_data, env, ""});
  }

  void record(const std::string& line) const {
    std::string content = fleet::test::read_file(store());
    fleet::test::write_file(store(), content + line + "\n");
  }
};

std::string record_line(const std::string& session, const std::string& caller,
                        const std::string& kitchen, const std::string& recipe = "implement") {
  return fleet::test::autoskillit_line(fleet::test::record(session, caller, kitchen, recipe));
}

// The permissionDecisionReason of a deny, or "" when the output is not a deny.
std::string deny_reason(const RunResult& r) {
  const auto doc = fleet::parse_json(r.out);
  const auto* specific = doc ? fleet::member(*doc, "hookSpecificOutput") : nullptr;
  if (specific == nullptr) return "";
  if (fleet::string_member(*specific, "permissionDecision").value_or("") != "deny") return "";
  CHECK(fleet::string_member(*specific, "hookEventName").value_or("") == "PreToolUse");
  return std::string(fleet::string_member(*specific, "permissionDecisionReason").value_or(""));
}

bool is_silent(const RunResult& r) {
  return r.exit_code == 0 && r.out.empty();
}

}  // namespace

TEST_CASE("resume-guard: --help and --version") {
  auto help = fleet::test::run_process({FLEET_RESUME_GUARD, "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--strict") != std::string::npos);
  // The placeholders of doc/resume-guard.md's synopsis: a tool's NAME, the kitchen's ID.
  CHECK(help.out.find("--tool NAME") != std::string::npos);
  CHECK(help.out.find("--tool TOOL") == std::string::npos);
  CHECK(help.out.find("--kitchen-id ID") != std::string::npos);
  auto version = fleet::test::run_process({FLEET_RESUME_GUARD, "--version"});
  CHECK(version.exit_code == 0);
  CHECK(version.out.find("resume-guard 0.") == 0);
  auto bad = fleet::test::run_process({FLEET_RESUME_GUARD, "--no-such-flag"});
  CHECK(bad.exit_code == 1);  // a usage error never exits 2, which would block the tool
  CHECK(bad.err.find("--no-such-flag") != std::string::npos);
}

TEST_CASE("resume-guard: fresh dispatches, other tools and other events are silent") {
  Guard g;
  CHECK(is_silent(g.run(input(kL3, "null"))));
  CHECK(is_silent(g.run(input(kL3, "\"\""))));
  std::string absent = input(kL3, "null");
  absent.replace(absent.find(",\"resume_session_id\":null"), 25, "");
  CHECK(is_silent(g.run(absent)));
  CHECK(is_silent(g.run(input(kL3, id(kL3), "Bash"))));
  CHECK(is_silent(g.run(input(kL3, id(kL3), "mcp__kitchen__other_tool"))));
  CHECK(is_silent(g.run(input(kL3, id(kL3), "dispatch_food_truck", "PostToolUse"))));
  const auto r = g.run(input(kL3, id(kL3), "dispatch_food_truck"));
  CHECK_FALSE(deny_reason(r).empty());  // the bare name is guarded too
}

TEST_CASE("resume-guard: rule 1 - malformed resume ids are denied") {
  Guard g;
  for (const std::string bad : {"42", "{}", "[]", "true", "\"a/b\"", "\"..\"", "\"x y\""}) {
    const auto r = g.run(input(kL3, bad));
    CHECK(r.exit_code == 0);
    CHECK_MESSAGE(deny_reason(r).find("Refused") == 0, bad);
  }
}

TEST_CASE("resume-guard: rule 2 - self-resume by full id and by 8-character prefix") {
  Guard g;
  g.record(record_line(kWorker, kL3, "kitchen-1"));
  CHECK(deny_reason(g.run(input(kL3, id(kL3)))).find("own id") != std::string::npos);
  CHECK(deny_reason(g.run(input(kL3, "\"c0ffee00\""))).find("own id") != std::string::npos);
}

TEST_CASE("resume-guard: rule 3 - first record wins - short ids resolve or are ambiguous") {
  Guard g;
  g.extra_args = {"--kitchen-id", "kitchen-2"};
  g.record(record_line(kWorker, kL3, "kitchen-1"));
  g.record(record_line(kWorker, "intruder-l3", "kitchen-2"));
  // The later record does not give kitchen-2 the session.
  const auto other = g.run(input("intruder-l3", id(kWorker)));
  CHECK(deny_reason(other).find(kL3) != std::string::npos);
  // The owner, by full id and by a unique short id.
  CHECK(is_silent(g.run(input(kL3, id(kWorker)))));
  CHECK(is_silent(g.run(input(kL3, "\"0d07e5d0-0000\""))));
  g.record(record_line(kWorker2, kL3, "kitchen-1"));
  const std::string ambiguous = deny_reason(g.run(input(kL3, "\"0d07e5d0\"")));
  CHECK(ambiguous.find(kWorker) != std::string::npos);
  CHECK(ambiguous.find(kWorker2) != std::string::npos);
}

TEST_CASE("resume-guard: rule 4 - fail open with an advisory - --strict denies") {
  Guard g;
  auto missing = g.run(input(kL3, id(kWorker)));
  CHECK(missing.exit_code == 0);
  CHECK(deny_reason(missing).empty());
  CHECK(missing.out.find("\"systemMessage\"") != std::string::npos);
  CHECK(missing.out.find("permissionDecision") == std::string::npos);
  CHECK(missing.err.find("not checked") != std::string::npos);

  g.record(record_line(kWorker2, kL3, "kitchen-1"));
  auto unknown = g.run(input(kL3, id(kWorker)));
  CHECK(unknown.out.find("no provenance record") != std::string::npos);

  g.extra_args = {"--strict"};
  CHECK(deny_reason(g.run(input(kL3, id(kWorker)))).find("--strict") != std::string::npos);
}

TEST_CASE("resume-guard: rule 4 - a store that is a directory or a FIFO does not hang the guard") {
  Guard g;
  REQUIRE(::mkfifo(g.store().c_str(), 0600) == 0);
  auto fifo = g.run(input(kL3, id(kWorker)));
  CHECK(fifo.exit_code == 0);
  CHECK(fifo.out.find("unreadable") != std::string::npos);
  g.extra_args = {"--strict"};
  CHECK(deny_reason(g.run(input(kL3, id(kWorker)))).find("unreadable") != std::string::npos);
}

TEST_CASE("resume-guard: rules 5 to 7 - orchestrators - owners - everyone else") {
  Guard g;
  g.extra_args = {"--kitchen-id", "kitchen-1"};
  g.record(record_line("l3-other", kL3, "kitchen-1", ""));
  g.record(record_line(kWorker, "l3-predecessor", "kitchen-1"));
  g.record(record_line(kWorker2, "l3-elsewhere", "kitchen-9"));
  CHECK(deny_reason(g.run(input(kL3, "\"l3-other\""))).find("orchestrator") != std::string::npos);
  CHECK(is_silent(g.run(input(kL3, id(kWorker)))));              // same kitchen
  CHECK(is_silent(g.run(input("l3-elsewhere", id(kWorker2)))));  // same caller
  const std::string reason = deny_reason(g.run(input(kL3, id(kWorker2))));
  CHECK(reason.find("l3-elsewhere") != std::string::npos);
  CHECK(reason.find("kitchen-9") != std::string::npos);
  CHECK(reason.find("kitchen-1") != std::string::npos);
  CHECK(reason.find(kL3) != std::string::npos);
}

TEST_CASE("resume-guard: --tool guards another tool name") {
  Guard g;
  CHECK(is_silent(g.run(input(kL3, id(kL3), "mcp__x__launch_worker"))));
  g.extra_args = {"--tool", "launch_worker", "--tool", "other"};
  CHECK_FALSE(deny_reason(g.run(input(kL3, id(kL3), "mcp__x__launch_worker"))).empty());
  CHECK_FALSE(deny_reason(g.run(input(kL3, id(kL3), "other"))).empty());
}

TEST_CASE("resume-guard: AutoSkillit's environment and store") {
  TempDir project;
  const std::string state = project / ".autoskillit/temp/camp-1";
  fleet::test::run_process({"/bin/mkdir", "-p", state});
  fleet::test::write_file(
      state + "/session_provenance.jsonl",
      fleet::test::read_file(std::string(FLEET_FIXTURES) + "/autoskillit_store.jsonl"));
  const std::vector<std::pair<std::string, std::string>> env = {
      {"CLAUDE_PROJECT_DIR", project.path()}, {"AUTOSKILLIT_CAMPAIGN_ID", "camp-1"}};
  const auto run = [&](const std::string& caller, const std::string& resume) {
    return fleet::test::run_process({FLEET_RESUME_GUARD}, {input(caller, resume), env, ""});
  };
  // kitchen-1 owns the workers; the current kitchen is camp-1, so only the caller matches.
  CHECK(is_silent(
      run("c0ffee00-0000-4000-8000-000000000001", "\"0d07e5d0-0000-4000-8000-000000000001\"")));
  CHECK_FALSE(deny_reason(run("someone-else", "\"0d07e5d0-0000-4000-8000-000000000002\"")).empty());
  // The L3's own record has an empty recipe: never resumable as a worker.
  CHECK(deny_reason(run("someone-else", "\"c0ffee00-0000-4000-8000-000000000001\""))
            .find("orchestrator") != std::string::npos);
  // AUTOSKILLIT_STATE_DIR points elsewhere: the store there is missing.
  auto elsewhere = fleet::test::run_process(
      {FLEET_RESUME_GUARD}, {input("someone-else", "\"0d07e5d0-0000-4000-8000-000000000002\""),
                             {{"AUTOSKILLIT_STATE_DIR", project / "empty"}},
                             ""});
  CHECK(elsewhere.out.find("does not exist") != std::string::npos);
}

TEST_CASE("resume-guard: the project comes from the hook input's cwd without CLAUDE_PROJECT_DIR") {
  TempDir project;
  fleet::test::run_process({"/bin/mkdir", "-p", project / ".autoskillit/temp"});
  fleet::test::write_file(project / ".autoskillit/temp/session_provenance.jsonl",
                          record_line(kWorker, "l3-elsewhere", "kitchen-9") + "\n");
  std::string in = input(kL3, id(kWorker));
  in.replace(in.find("/nonexistent"), 12, project.path());
  CHECK(deny_reason(fleet::test::run_process({FLEET_RESUME_GUARD}, {in, {}, ""}))
            .find("l3-elsewhere") != std::string::npos);
}

TEST_CASE("resume-guard: bad stdin is silent with one stderr line and exit 0") {
  Guard g;
  const std::string huge = "{\"pad\":\"" + std::string(9 << 20, 'x') + "\"}";
  for (const std::string& bad :
       {std::string(), std::string("not json"), std::string("[1,2]"), std::string("\"str\""),
        std::string("{\"tool_name\": \"dispatch_food_truck\""), std::string(1 << 16, '['), huge,
        std::string("{\"tool_name\":\"dispatch_food_truck\",\"tool_input\":[1]}"),
        std::string("\xff\xfe{}")}) {
    const auto r = g.run(bad);
    CHECK(r.exit_code == 0);
    CHECK(r.term_signal == 0);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  CHECK(g.run(huge).err.find("8 MiB") != std::string::npos);
  g.extra_args = {"--strict"};
  CHECK_FALSE(deny_reason(g.run("not json")).empty());
}

TEST_CASE("resume-guard: fields of the wrong type") {
  Guard g;
  g.record(record_line(kWorker, kL3, "kitchen-1"));
  // A caller id that is not a string cannot own anything.
  const std::string numeric_caller =
      R"({"session_id":7,"hook_event_name":"PreToolUse","tool_name":"dispatch_food_truck",)"
      R"("tool_input":{"resume_session_id":")" +
      std::string(kWorker) + R"("}})";
  CHECK_FALSE(deny_reason(g.run(numeric_caller)).empty());
  // A tool_name that is not a string is not the dispatch tool.
  const std::string numeric_tool =
      R"({"session_id":"x","hook_event_name":"PreToolUse","tool_name":1,)"
      R"("tool_input":{"resume_session_id":"x"}})";
  CHECK(is_silent(g.run(numeric_tool)));
}

TEST_CASE("resume-guard: a damaged store still answers from its intact records") {
  Guard g;
  g.record("");
  g.record("not json " + std::string(kWorker));
  g.record("[\"" + std::string(kWorker) + "\"]");
  g.record(R"({"session_id": ")" + std::string(kWorker) +
           R"(", "caller_sess)");  // torn, terminated
  g.record(record_line(kWorker, "l3-elsewhere", "kitchen-9"));
  fleet::test::write_file(g.store(), fleet::test::read_file(g.store()) +
                                         record_line(kWorker2, "l3-elsewhere", "kitchen-9"));
  CHECK(deny_reason(g.run(input(kL3, id(kWorker)))).find("l3-elsewhere") != std::string::npos);
  // The unterminated last line is incomplete: not a record yet.
  CHECK(g.run(input(kL3, id(kWorker2))).out.find("no provenance record") != std::string::npos);
}
