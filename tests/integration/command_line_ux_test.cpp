// The command lines as a person types them: error messages that name the program and the
// word that is wrong, usage for a missing subcommand, launch-wrapper's option parsing,
// `query --json`, answers that say where they looked, `replay`'s table, and the polish of
// what the binaries print (reasons, paths, durations, JSON errors, --help).

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "fixtures.h"
#include "process.h"
#include "suite.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::BackgroundProcess;
using fleet::test::contains;
using fleet::test::pre_tool_use;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunOptions;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_file;
using fleet::test::write_record;
using fleet::test::write_script;
using Args = std::vector<std::string>;

namespace {

const std::string kGuard = FLEET_RESUME_GUARD;
const std::string kWriter = FLEET_PROVENANCE_WRITER;
const std::string kWrapper = FLEET_LAUNCH_WRAPPER;
const std::string kFleetHooks = FLEET_HOOKS_CLI;

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

}  // namespace

// ---- 13.6: error messages name the program and the unknown word ----------------------------

TEST_CASE("cli 13.6: an unknown flag is named, with a suggestion, by every binary") {
  TempDir tmp;
  // resume-guard: a hook, so a usage error exits 1 (2 would block every dispatch).
  RunResult r = run_process({kGuard, "--stict"}, {pre_tool_use("l3", "w-1"), {}, ""});
  CHECK(r.exit_code == 1);
  CHECK(first_line(r.err) == "resume-guard: unknown option --stict; did you mean --strict?");
  CHECK(r.out.empty());

  // provenance-writer record: the misspelled option is reported, not the missing one.
  r = run_process({kWriter, "record", "--sesion-id", "x", "--caller-session-id", "l3",
                   "--state-dir", tmp.path()});
  CHECK(r.exit_code == 2);
  CHECK(first_line(r.err) ==
        "provenance-writer record: unknown option --sesion-id; did you mean --session-id?");
  CHECK_FALSE(contains(r.err, "is required"));
  CHECK_FALSE(exists(tmp / "session_provenance.jsonl"));
  // provenance-writer hook is a PostToolUse hook: a usage error never exits 2.
  r = run_process({kWriter, "hook", "--fsinc"}, {"{}", {}, ""});
  CHECK(r.exit_code == 1);
  CHECK(first_line(r.err) ==
        "provenance-writer hook: unknown option --fsinc; did you mean --fsync?");
  // `--name=value` is reported by its name.
  r = run_process({kWriter, "record", "--sesion-id=x"});
  CHECK(first_line(r.err) ==
        "provenance-writer record: unknown option --sesion-id; did you mean --session-id?");

  // launch-wrapper: its own failures exit 125, and nothing runs.
  r = run_process({kWrapper, "--membr", "t1", "--state-dir", tmp.path(), "--", "true"});
  CHECK(r.exit_code == 125);
  CHECK(first_line(r.err) == "launch-wrapper: unknown option --membr; did you mean --member?");
  CHECK_FALSE(contains(r.out, "FLEET_PID:"));
  r = run_process({kWrapper, "status", "--membr", "t1"});
  CHECK(r.exit_code == 125);
  CHECK(first_line(r.err) ==
        "launch-wrapper status: unknown option --membr; did you mean --member?");

  // fleet-hooks: far from every option, no suggestion; an option of another subcommand is
  // pointed at.
  r = run_process({kFleetHooks, "verify", "--zzzzzz"});
  CHECK(r.exit_code == 2);
  CHECK(first_line(r.err) == "fleet-hooks verify: unknown option --zzzzzz");
  r = run_process({kFleetHooks, "verify", "--project", "."});
  CHECK(r.exit_code == 2);
  CHECK(first_line(r.err).starts_with("fleet-hooks verify: unknown option --project"));
  CHECK(contains(first_line(r.err), "install"));
  // An unexpected extra word.
  r = run_process({kFleetHooks, "compact", "now"});
  CHECK(r.exit_code == 2);
  CHECK(first_line(r.err) == "fleet-hooks compact: unexpected argument 'now'");
}

TEST_CASE("cli 13.6: other usage errors are one sentence that starts with the program") {
  RunResult r = run_process({kWrapper, "--grace", "-1", "--", "true"});
  CHECK(r.exit_code == 125);
  CHECK(first_line(r.err) == "launch-wrapper: --grace must be a number of at least 0, not -1");
  CHECK(r.err.size() < 200);
  r = run_process({kWrapper, "--retries", "many", "--", "true"});
  CHECK(r.exit_code == 125);
  CHECK(first_line(r.err) == "launch-wrapper: --retries must be a number from 0 to 100, not many");
  r = run_process({kWrapper, "stop"});
  CHECK(r.exit_code == 125);
  CHECK(first_line(r.err) == "launch-wrapper stop: --member is required");
  r = run_process({kWrapper, "--member"});
  CHECK(r.exit_code == 125);
  CHECK(first_line(r.err) == "launch-wrapper: --member needs a value");
  r = run_process({kFleetHooks, "install", "--scope", "galaxy"});
  CHECK(r.exit_code == 2);
  CHECK(first_line(r.err) ==
        "fleet-hooks install: --scope must be one of project, local, user, not galaxy");
  r = run_process({kFleetHooks, "query", "--session", "a", "--caller", "b"});
  CHECK(r.exit_code == 2);
  CHECK(first_line(r.err) == "fleet-hooks query: --session and --caller cannot be used together");
  r = run_process({kFleetHooks, "replay"});
  CHECK(r.exit_code == 2);
  CHECK(first_line(r.err) ==
        "fleet-hooks replay: CASES.jsonl is required (a JSON-lines file of cases, or - for "
        "standard input)");
  for (const auto& bin : {kGuard, kWriter, kWrapper, kFleetHooks}) {
    r = run_process({bin, "--zz"});
    const std::string name = bin.substr(bin.rfind('/') + 1);
    CHECK_MESSAGE(r.err.starts_with(name + ": unknown option --zz"), r.err);
    CHECK(r.exit_code != 0);
    CHECK(r.exit_code != (bin == kGuard ? 2 : 0));
  }
}

TEST_CASE("cli 13.6: no or an unknown subcommand prints usage and the subcommands") {
  for (const Args& args : {Args{}, Args{"instal"}}) {
    Args argv = {kFleetHooks};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult r = run_process(argv);
    CHECK(r.exit_code == 2);
    CHECK_FALSE(contains(r.err, "A subcommand is required"));
    CHECK(r.err.starts_with("fleet-hooks: "));
    CHECK(contains(r.err, "Usage: fleet-hooks"));
    for (const char* sub :
         {"install", "uninstall", "check", "verify", "query", "compact", "replay", "log"}) {
      CHECK_MESSAGE(contains(r.err, std::string("\n  ") + sub + " "), sub);
    }
  }
  CHECK(first_line(run_process({kFleetHooks}).err) == "fleet-hooks: a subcommand is required");
  CHECK(first_line(run_process({kFleetHooks, "instal"}).err) ==
        "fleet-hooks: unknown subcommand instal; did you mean install?");
  const RunResult w = run_process({kWriter});
  CHECK(w.exit_code == 2);
  CHECK(first_line(w.err) == "provenance-writer: a subcommand is required");
  CHECK(contains(w.err, "\n  record "));
  CHECK(contains(w.err, "\n  hook "));
}

// ---- 13.7: launch-wrapper's options end at the command -----------------------------------

TEST_CASE("cli 13.7: launch-wrapper options end at the first word that is not an option") {
  TempDir tmp;
  const std::string agent = write_script(tmp / "agent.sh", "printf 'arg:%s\\n' \"$@\"\n");
  RunOptions in_tmp{"", {}, tmp.path()};
  RunResult r = run_process({kWrapper, "--member", "t1", "--state-dir", tmp / "state", "--quiet",
                             "./agent.sh", "-p", "x", "--member", "--help"},
                            in_tmp);
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  auto lines = split_lines(r.out);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].starts_with("FLEET_PID:"));
  CHECK(lines[1] == "arg:-p");
  CHECK(lines[2] == "arg:x");
  CHECK(lines[3] == "arg:--member");
  CHECK(lines[4] == "arg:--help");
  // `--` stays accepted, and makes a command that starts with '-' possible.
  r = run_process({kWrapper, "--quiet", "--state-dir", tmp / "state", "--", agent, "--", "y"},
                  in_tmp);
  CHECK(r.exit_code == 0);
  lines = split_lines(r.out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[1] == "arg:--");
  CHECK(lines[2] == "arg:y");
  // No command at all.
  r = run_process({kWrapper, "--member", "t1"}, in_tmp);
  CHECK(r.exit_code == 125);
  CHECK(first_line(r.err).starts_with("launch-wrapper: "));
  CHECK(contains(r.err, "command"));
}

TEST_CASE("cli 13.7: launch-wrapper --help shows one usage line and the exit codes") {
  const RunResult r = run_process({kWrapper, "--help"});
  CHECK(r.exit_code == 0);
  std::size_t usage_lines = 0;
  for (const auto& line : split_lines(r.out)) usage_lines += contains(line, "Usage:") ? 1 : 0;
  CHECK(usage_lines == 1);
  CHECK(contains(r.out, "Usage: launch-wrapper [OPTIONS] [--] COMMAND [ARGS...]"));
  for (const char* code : {"\n  125 ", "\n  126 ", "\n  127 ", "\n  128+N "}) {
    CHECK_MESSAGE(contains(r.out, code), code);
  }
}

// ---- 13.8: query --json and short ids -----------------------------------------------------

TEST_CASE("cli 13.8: query --json prints JSON lines only, the verdict too") {
  TempDir tmp;
  const std::string state = tmp / "state";
  write_record(state, "w-1", "l3-a", "k1");
  write_record(state, "w-2", "l3-a", "k2");
  const auto all_json = [](const std::string& out) {
    std::vector<rapidjson::Document> docs;
    for (const auto& line : split_lines(out)) {
      rapidjson::Document doc = fleet::test::json_document(line);
      REQUIRE(doc.IsObject());
      docs.push_back(std::move(doc));
    }
    return docs;
  };
  RunResult r = run_process({kFleetHooks, "query", "--session", "w-1", "--as-caller", "l3-b",
                             "--state-dir", state, "--json"});
  CHECK(r.exit_code == 0);
  auto docs = all_json(r.out);
  REQUIRE(docs.size() == 2);
  CHECK(std::string(docs[0]["session_id"].GetString()) == "w-1");
  CHECK(std::string(docs[1]["verdict"].GetString()) == "deny");
  CHECK(std::string(docs[1]["caller"].GetString()) == "l3-b");
  CHECK(std::string(docs[1]["session"].GetString()) == "w-1");
  CHECK(contains(docs[1]["reason"].GetString(), "dispatched by l3-a"));
  r = run_process({kFleetHooks, "query", "--caller", "l3-a", "--state-dir", state, "--json"});
  CHECK(all_json(r.out).size() == 2);
  // Without --json the verdict stays a sentence.
  r = run_process(
      {kFleetHooks, "query", "--session", "w-1", "--as-caller", "l3-a", "--state-dir", state});
  CHECK(contains(r.out, "verdict for caller 'l3-a': silent"));
}

TEST_CASE("cli 13.8: query --session resolves a short id the way the guard does") {
  TempDir tmp;
  const std::string state = tmp / "state";
  const std::string full = "0f3c2a1e-4b5d-4e6f-8a7b-9c0d1e2f3a4b";
  write_record(state, full, "l3-a", "k1");
  write_record(state, "7e57ab1e-0000-4000-8000-000000000001", "l3-a", "k1");
  write_record(state, "7e57ab1e-0000-4000-8000-000000000002", "l3-a", "k1");
  RunResult r = run_process(
      {kFleetHooks, "query", "--session", "0f3c2a1e", "--as-caller", "l3-a", "--state-dir", state});
  CHECK(r.exit_code == 0);
  auto lines = split_lines(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(contains(lines[0], "\"session_id\":\"" + full + "\""));
  CHECK(contains(lines[1], "verdict for caller 'l3-a': silent"));
  // Several sessions start with it: the guard denies, query names them and exits 1.
  r = run_process(
      {kFleetHooks, "query", "--session", "7e57ab1e", "--as-caller", "l3-a", "--state-dir", state});
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "deny"));
  CHECK(contains(r.err, "7e57ab1e-0000-4000-8000-000000000001"));
  CHECK(contains(r.err, "7e57ab1e-0000-4000-8000-000000000002"));
}

// ---- 13.9: answers say where they looked; questions create nothing ------------------------

TEST_CASE("cli 13.9: stop and status from another directory name the state directory") {
  TempDir tmp;
  const std::string project = tmp / "project";
  const std::string elsewhere = tmp / "elsewhere";
  ::mkdir(project.c_str(), 0755);
  ::mkdir(elsewhere.c_str(), 0755);
  BackgroundProcess agent({kWrapper, "--member", "t1", "--quiet", "--", "sleep", "60"},
                          {"", {}, project});
  REQUIRE(agent.wait_for_output("FLEET_PID:"));
  const std::string searched = elsewhere + "/.autoskillit/temp";

  RunResult r = run_process({kWrapper, "status", "--member", "t1"}, {"", {}, elsewhere});
  CHECK(r.exit_code == 1);
  rapidjson::Document doc = fleet::test::json_document(r.out);
  CHECK(std::string(doc["state"].GetString()) == "no_record");
  CHECK(std::string(doc["state_dir"].GetString()) == searched);
  r = run_process({kWrapper, "stop", "--member", "t1"}, {"", {}, elsewhere});
  CHECK(r.exit_code == 0);
  CHECK(r.out.starts_with("no_record: "));
  CHECK(contains(r.out, searched));
  CHECK(contains(r.out, "does not exist"));
  CHECK_FALSE(exists(elsewhere + "/.autoskillit"));

  // A state directory that exists but never saw the member: named, and no lock is left.
  ::mkdir((tmp / "state").c_str(), 0755);
  r = run_process({kWrapper, "stop", "--member", "t1", "--state-dir", tmp / "state"});
  CHECK(contains(r.out, tmp / "state"));
  r = run_process({kWrapper, "status", "--member", "t1", "--state-dir", tmp / "state"});
  CHECK(fleet::test::run_ls(tmp / "state").empty());

  // From the project it is found and stopped.
  r = run_process({kWrapper, "stop", "--member", "t1"}, {"", {}, project});
  CHECK(r.out.starts_with("stopped: "));
  CHECK(agent.wait());
}

TEST_CASE("cli 13.9: verify, query and compact name the state directory they read") {
  TempDir tmp;
  const std::string typo = tmp / "sate";
  for (const Args& args :
       {Args{"verify", "--state-dir", typo}, Args{"compact", "--state-dir", typo},
        Args{"query", "--kitchen", "k", "--state-dir", typo}}) {
    Args argv = {kFleetHooks};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult r = run_process(argv);
    CHECK_MESSAGE(r.exit_code == 2, args[0]);
    CHECK(first_line(r.err) ==
          "fleet-hooks " + args[0] + ": state directory " + typo + " does not exist (--state-dir)");
    CHECK_FALSE(exists(typo));
  }
  // An existing directory without a store: "no store yet", naming the store.
  ::mkdir((tmp / "state").c_str(), 0755);
  RunResult r = run_process({kFleetHooks, "verify", "--state-dir", tmp / "state"});
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, tmp / "state/session_provenance.jsonl"));
  CHECK(contains(r.out, "no store yet"));
  r = run_process({kFleetHooks, "query", "--kitchen", "k", "--state-dir", tmp / "state"});
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, tmp / "state/session_provenance.jsonl"));
  CHECK(fleet::test::run_ls(tmp / "state").empty());
}

// ---- 13.10: replay -----------------------------------------------------------------------

TEST_CASE("cli 13.10: replay keeps its table for invalid cases, reads stdin, fails on none") {
  TempDir tmp;
  const std::string state = tmp / "state";
  write_record(state, "w-1", "l3-a", "k1");
  const std::string cases = R"({"name":"owner","input":)" + pre_tool_use("l3-a", "w-1") +
                            R"(,"expect":"silent"})" + "\n" +
                            R"({"name":"typo in expect","input":)" + pre_tool_use("l3-a", "w-1") +
                            R"(,"expect":"catypo"})" + "\n" + "not json\n";
  write_file(tmp / "cases.jsonl", cases);
  RunResult r = run_process({kFleetHooks, "replay", tmp / "cases.jsonl", "--state-dir", state});
  CHECK(r.exit_code == 1);
  CHECK_FALSE(contains(r.out, "invalid catypo"));
  const auto lines = split_lines(r.out);
  bool typo_row = false;
  for (const auto& line : lines) {
    if (!contains(line, "typo in expect")) continue;
    typo_row = true;
    CHECK(line.starts_with("2 "));
    CHECK(contains(line, " ERROR "));
    CHECK(contains(line, " catypo "));
  }
  CHECK(typo_row);
  CHECK(contains(r.out, "\"expect\" must be deny, silent, advisory or pass"));
  CHECK(contains(r.out, "replay: 1 of 3 cases passed, 0 failed, 2 invalid"));

  // `-` reads the cases from stdin.
  const std::string good =
      R"({"name":"owner","input":)" + pre_tool_use("l3-a", "w-1") + R"(,"expect":"silent"})" + "\n";
  r = run_process({kFleetHooks, "replay", "-", "--state-dir", state}, {good, {}, ""});
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "replay: 1 of 1 cases passed, 0 failed"));

  // No case at all: nothing was tested, which is a failure.
  write_file(tmp / "empty.jsonl", "\n  \n");
  r = run_process({kFleetHooks, "replay", tmp / "empty.jsonl", "--state-dir", state});
  CHECK(r.exit_code == 1);
  CHECK(first_line(r.err) ==
        "fleet-hooks replay: " + tmp / "empty.jsonl" + " holds no case; nothing was tested");
  r = run_process({kFleetHooks, "replay", "-", "--state-dir", state}, {"", {}, ""});
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "standard input holds no case"));
}

// ---- 13.11: polish -----------------------------------------------------------------------

TEST_CASE("cli 13.11: a deny reason has no doubled parentheses") {
  TempDir tmp;
  const std::string state = tmp / "state";
  write_record(state, "w-1", "l3-a", "k1");
  // No caller session id and no kitchen: both are unknown.
  const RunResult r = run_process(
      {kGuard, "--state-dir", state},
      {R"({"hook_event_name":"PreToolUse","tool_name":"dispatch_food_truck","tool_input":{"resume_session_id":"w-1"}})",
       {},
       ""});
  CHECK(contains(r.out, "\"permissionDecision\":\"deny\""));
  CHECK_FALSE(contains(r.out, "(("));
  CHECK_FALSE(contains(r.out, "))"));
  CHECK(contains(r.out, "not by this session (none) or this kitchen (none)"));
}

TEST_CASE("cli 13.11: paths are printed normalised") {
  TempDir tmp;
  ::mkdir((tmp / "state").c_str(), 0755);
  RunResult r =
      run_process({kFleetHooks, "verify", "--state-dir", "./state/."}, {"", {}, tmp.path()});
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, tmp / "state/session_provenance.jsonl"));
  CHECK_FALSE(contains(r.out, "/./"));
  ::mkdir((tmp / "project").c_str(), 0755);
  ::mkdir((tmp / "bin").c_str(), 0755);
  REQUIRE(::symlink(kGuard.c_str(), (tmp / "bin/resume-guard").c_str()) == 0);
  REQUIRE(::symlink(kWriter.c_str(), (tmp / "bin/provenance-writer").c_str()) == 0);
  r = run_process({kFleetHooks, "install", "--project", ".", "--bin-dir", tmp / "bin"},
                  {"", {{"HOME", tmp.path()}}, tmp / "project"});
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, tmp / "project/.claude/settings.json"));
  CHECK_FALSE(contains(r.out, "/./"));
}

TEST_CASE("cli 13.11: durations are printed as a person writes them") {
  TempDir tmp;
  const std::string agent =
      write_script(tmp / "agent.sh", "echo 'API Error: 529 overloaded' >&2\nexit 1\n");
  const RunResult r = run_process({kWrapper, "--quiet", "--state-dir", tmp / "state", "--retries",
                                   "1", "--backoff", "0.2", "--", agent});
  CHECK(r.exit_code == 1);
  CHECK_MESSAGE(contains(r.err, "retrying in 0.2 s"), r.err);
  CHECK_FALSE(contains(r.err, "0.200000"));
}

TEST_CASE("cli 13.11: a JSON parse error is a sentence with the byte offset") {
  const RunResult r = run_process({kGuard}, {"{\"session_id\": \"a\",\n \"tool_name\" 1}", {}, ""});
  CHECK(r.exit_code == 0);
  CHECK(first_line(r.err) ==
        "resume-guard: hook input is not valid JSON (a ':' is missing after the name of an "
        "object member at byte offset 33, line 2, column 14); no decision made");
}

TEST_CASE("cli 13.11: --help shows no CLI11 type noise") {
  const std::vector<Args> helps = {{kGuard, "--help"},
                                   {kWriter, "--help"},
                                   {kWriter, "record", "--help"},
                                   {kWriter, "hook", "--help"},
                                   {kWrapper, "--help"},
                                   {kWrapper, "stop", "--help"},
                                   {kWrapper, "status", "--help"},
                                   {kFleetHooks, "--help"},
                                   {kFleetHooks, "install", "--help"},
                                   {kFleetHooks, "query", "--help"},
                                   {kFleetHooks, "replay", "--help"}};
  for (const Args& argv : helps) {
    const RunResult r = run_process(argv);
    CHECK(r.exit_code == 0);
    for (const char* noise : {"FLOAT", "INT", "NONNEGATIVE", "TEXT", "in [", ":{", "UINT"}) {
      CHECK_MESSAGE(!contains(r.out, noise), argv.back() << " " << argv[1] << ": " << noise);
    }
  }
  CHECK(contains(run_process({kWrapper, "--help"}).out, "--grace SECONDS"));
  CHECK(contains(run_process({kWrapper, "--help"}).out, "--state-dir DIR"));
}

TEST_CASE("cli 13.12: --state-dir help says a launch records where the guard judged its call") {
  // launch-wrapper and provenance-writer record find the store as launch_state_dir does: when
  // nothing names one, the one resume-guard judged the caller's dispatch call with.
  const std::string judged = "the one resume-guard judged the caller's dispatch call with";
  for (const Args& argv : std::vector<Args>{{kWrapper, "--help"}, {kWriter, "record", "--help"}}) {
    const RunResult r = run_process(argv);
    CHECK_MESSAGE(contains(r.out, judged), argv[0] << " " << argv[1] << ":\n" << r.out);
  }
  // Programs that read or write a store the guard judged nothing for name no such default.
  for (const Args& argv : std::vector<Args>{{kWrapper, "status", "--help"},
                                            {kWriter, "hook", "--help"},
                                            {kFleetHooks, "query", "--help"}}) {
    const RunResult r = run_process(argv);
    CHECK(contains(r.out, "--state-dir"));
    CHECK_MESSAGE(!contains(r.out, judged), argv[0] << " " << argv[1]);
  }
}
