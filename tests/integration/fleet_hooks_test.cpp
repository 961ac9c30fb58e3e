// fleet-hooks as a person and a CI job run it: install/uninstall, check, verify, query,
// compact (racing writers) and replay.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <set>

#include "base/json.h"
#include "emulator.h"
#include "fixtures.h"
#include "process.h"
#include "settings/settings_file.h"
#include "store/provenance_record.h"
#include "suite.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::pre_tool_use;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

const std::string kFleetHooks = FLEET_HOOKS_CLI;

// A project with its own HOME and a bin dir holding the suite's binaries.
struct Project {
  TempDir tmp;
  std::string dir = tmp / "project";
  std::string home = tmp / "home";
  std::string bin = tmp / "bin";

  Project() {
    ::mkdir(dir.c_str(), 0755);
    ::mkdir(home.c_str(), 0755);
    ::mkdir(bin.c_str(), 0755);
    fleet::test::link_suite(bin, {"resume-guard", "provenance-writer"});
  }
  std::string settings() const { return dir + "/.claude/settings.json"; }
  std::string store() const { return dir + "/.autoskillit/temp/session_provenance.jsonl"; }
  RunResult run(Args args) const {
    args.insert(args.begin(), kFleetHooks);
    // The suite on PATH, as after ./install.sh (project settings find it there).
    return run_process(args, {"",
                              {{"HOME", home},
                               {"CLAUDE_PROJECT_DIR", dir},
                               {"PATH", bin + ":/usr/local/bin:/usr/bin:/bin"}},
                              ""});
  }
  RunResult install(Args extra = {}) const {
    Args args = {"install", "--project", dir, "--bin-dir", bin};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }
  void write_settings(const std::string& text) const {
    ::mkdir((dir + "/.claude").c_str(), 0755);
    write_file(settings(), text);
  }
};

constexpr const char* kRealistic = R"json({
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/hooks/bash-audit.py", "timeout": 30}]}
    ],
    "PostToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "npx prettier --write"}]}
    ],
    "Notification": [{"hooks": [{"type": "command", "command": "notify-send Claude"}]}]
  },
  "env": {"GREETING": "grüß dich ✓ 日本"},
  "model": "opus"
})json";

bool has_finding(const RunResult& r, const std::string& rule) {
  return r.out.find(" " + rule + ":") != std::string::npos;
}

}  // namespace

TEST_CASE("fleet-hooks install: into a realistic settings file - idempotent - with a .bak") {
  Project p;
  p.write_settings(kRealistic);
  const RunResult first = p.install();
  CHECK(first.exit_code == 0);
  CHECK(first.out.find("installed") == 0);
  CHECK(read_file(p.settings() + ".bak") == kRealistic);
  const std::string installed = read_file(p.settings());
  rapidjson::Document doc = fleet::test::json_document(installed);
  CHECK(std::string(doc.MemberBegin()->name.GetString()) == "$schema");
  CHECK(std::string(doc["env"]["GREETING"].GetString()) == "grüß dich ✓ 日本");
  CHECK(doc["hooks"]["PreToolUse"].Size() == 2);
  const std::string portable = doc["hooks"]["PreToolUse"][1]["hooks"][0]["command"].GetString();
  CHECK(portable.starts_with("exe=$(command -v resume-guard "));  // portable: found by name
  CHECK(portable.ends_with("; exec \"$exe\""));
  CHECK(doc["hooks"]["PostToolUse"].Size() == 2);
  CHECK(doc["hooks"]["Notification"].Size() == 1);

  const RunResult second = p.install();
  CHECK(second.exit_code == 0);
  CHECK(second.out.find("unchanged") == 0);
  CHECK(read_file(p.settings()) == installed);  // byte for byte

  // Local settings from another bin dir: replaced, not added.
  TempDir other;
  ::symlink(FLEET_RESUME_GUARD, (other / "resume-guard").c_str());
  ::symlink(FLEET_PROVENANCE_WRITER, (other / "provenance-writer").c_str());
  CHECK(p.install({"--scope", "local"}).exit_code == 0);
  CHECK(p.run({"install", "--project", p.dir, "--scope", "local", "--bin-dir", other.path()})
            .exit_code == 0);
  doc = fleet::test::json_document(read_file(p.dir + "/.claude/settings.local.json"));
  CHECK(doc["hooks"]["PreToolUse"].Size() == 1);
  CHECK(std::string(doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"].GetString())
            .ends_with("; exec " + other / "resume-guard"));

  // Uninstall leaves exactly the user's settings.
  const RunResult removed = p.run({"uninstall", "--project", p.dir});
  CHECK(removed.exit_code == 0);
  CHECK(removed.out.find("removed 2") == 0);
  CHECK(read_file(p.settings()) == kRealistic);  // the user's bytes, not re-indented
}

TEST_CASE("fleet-hooks install: missing - empty - {} files and the other scopes") {
  Project p;
  CHECK(p.install().exit_code == 0);  // no .claude directory yet
  const std::string fresh = read_file(p.settings());
  CHECK(::access((p.settings() + ".bak").c_str(), F_OK) != 0);
  p.write_settings("");
  CHECK(p.install().exit_code == 0);
  CHECK(read_file(p.settings()) == fresh);
  p.write_settings("{}");
  CHECK(p.install().exit_code == 0);
  CHECK(read_file(p.settings()) == fresh);

  // The other scopes name this machine's bin dir.
  CHECK(p.install({"--scope", "local"}).exit_code == 0);
  CHECK(read_file(p.dir + "/.claude/settings.local.json").find("exec " + p.bin + "/resume-guard") !=
        std::string::npos);
  CHECK(p.install({"--scope", "user"}).exit_code == 0);
  CHECK(read_file(p.home + "/.claude/settings.json").find("exec " + p.bin + "/resume-guard") !=
        std::string::npos);
}

TEST_CASE("fleet-hooks --scope user: the settings Claude Code reads, under $CLAUDE_CONFIG_DIR") {
  Project p;
  const std::string config = p.tmp / "config-claude";
  const auto run = [&](Args args) {
    args.insert(args.begin(), kFleetHooks);
    return run_process(args, {"",
                              {{"HOME", p.home},
                               {"CLAUDE_CONFIG_DIR", config},
                               {"PATH", p.bin + ":/usr/local/bin:/usr/bin:/bin"}},
                              ""});
  };
  // Claude Code reads the user's settings from $CLAUDE_CONFIG_DIR/settings.json when it is set
  // (2.1.328), never from ~/.claude/settings.json then.
  const RunResult installed = run({"install", "--scope", "user", "--bin-dir", p.bin});
  REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
  CHECK(contains(installed.out, config + "/settings.json"));
  CHECK(read_file(config + "/settings.json").find("exec " + p.bin + "/resume-guard") !=
        std::string::npos);
  CHECK(::access((p.home + "/.claude").c_str(), F_OK) != 0);
  // check reads the same file: the project needs nothing else.
  const RunResult checked = run({"check", "--project", p.dir});
  CHECK_MESSAGE(checked.exit_code == 0, (checked.out + checked.err));
  REQUIRE(run({"uninstall", "--scope", "user"}).exit_code == 0);
  CHECK(read_file(config + "/settings.json").find("resume-guard") == std::string::npos);
}

TEST_CASE("fleet-hooks install: invalid JSON and read-only files are refused untouched") {
  Project p;
  p.write_settings("{\"hooks\": {,}");
  RunResult r = p.install();
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("not valid JSON") != std::string::npos);
  CHECK(read_file(p.settings()) == "{\"hooks\": {,}");
  p.write_settings("[1, 2]");
  CHECK(p.install().exit_code == 1);
  p.write_settings("{\"hooks\": []}");
  CHECK(p.install().exit_code == 1);
  CHECK(read_file(p.settings()) == "{\"hooks\": []}");
  p.write_settings(kRealistic);
  ::chmod(p.settings().c_str(), 0444);
  r = p.install();
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("read-only") != std::string::npos);
  CHECK(read_file(p.settings()) == kRealistic);
  // A bin dir without the suite.
  ::chmod(p.settings().c_str(), 0644);
  TempDir empty;
  r = p.run({"install", "--project", p.dir, "--bin-dir", empty.path()});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("--bin-dir") != std::string::npos);
}

TEST_CASE("fleet-hooks install --dry-run prints the file and writes nothing") {
  Project p;
  p.write_settings(kRealistic);
  const RunResult r = p.install({"--dry-run"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("resume-guard") != std::string::npos);
  CHECK(read_file(p.settings()) == kRealistic);
  CHECK(::access((p.settings() + ".bak").c_str(), F_OK) != 0);
}

TEST_CASE("fleet-hooks check: a fresh install passes") {
  Project p;
  p.write_settings(kRealistic);
  REQUIRE(p.install().exit_code == 0);
  const RunResult r = p.run({"check", "--project", p.dir});
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  CHECK(r.out.find("ok:") != std::string::npos);
  const RunResult json = p.run({"check", "--project", p.dir, "--json"});
  CHECK(json.exit_code == 0);
  CHECK(json.out == "[]\n");
}

TEST_CASE("fleet-hooks check: each rule fails when broken") {
  Project p;
  const auto settings_with = [&](const std::string& matcher, const std::string& command,
                                 const std::string& timeout) {
    p.write_settings(
        R"({"hooks":{"PreToolUse":[{"matcher":")" + matcher +
        R"(","hooks":[{"type":"command","command":")" + command + "\"" + timeout +
        R"(}]}],"PostToolUse":[{"matcher":"^(mcp__.*__|.*-)?dispatch_food_truck$","hooks":[{"type":"command","command":")" +
        p.bin + R"(/provenance-writer hook","timeout":10}]}]}})");
    return p.run({"check", "--project", p.dir});
  };
  const std::string guard = p.bin + "/resume-guard";
  const std::string good = "^(mcp__.*__|.*-)?dispatch_food_truck$";

  CHECK(settings_with(good, guard, ",\"timeout\":10").exit_code == 0);

  RunResult r = p.run({"check", "--project", p.dir + "/nowhere"});
  CHECK(r.exit_code == 2);  // a missing project directory is a usage error

  r = settings_with("dispatch_food_truck", guard, ",\"timeout\":10");
  CHECK(r.exit_code == 1);
  CHECK(has_finding(r, "matcher-misses-mcp"));

  r = settings_with("mcp__.*__dispatch_food_truck$", guard, ",\"timeout\":10");
  CHECK(has_finding(r, "matcher-misses-dispatch"));

  r = settings_with("dispatch_food_truck.*", guard, ",\"timeout\":10");
  CHECK(r.exit_code == 1);
  CHECK(has_finding(r, "matcher-too-broad"));

  r = settings_with(good, guard, "");
  CHECK(r.exit_code == 1);
  CHECK(has_finding(r, "timeout"));
  r = settings_with(good, guard, ",\"timeout\":2");
  CHECK(has_finding(r, "timeout"));

  r = settings_with(good, p.tmp / "gone/resume-guard", ",\"timeout\":10");
  CHECK(r.exit_code == 1);
  CHECK(has_finding(r, "binary-missing"));

  // A "resume-guard" that lets everything through.
  ::mkdir((p.tmp / "fake").c_str(), 0755);
  fleet::test::write_script(p.tmp / "fake/resume-guard", "cat >/dev/null\nexit 0\n");
  r = settings_with(good, p.tmp / "fake/resume-guard", ",\"timeout\":10");
  CHECK(r.exit_code == 1);
  CHECK(has_finding(r, "guard-does-not-deny"));

  // JSON findings.
  r = p.run({"check", "--project", p.dir, "--json"});
  rapidjson::Document doc = fleet::test::json_document(r.out);
  REQUIRE(doc.IsArray());
  REQUIRE(doc.Size() >= 1);
  CHECK(std::string(doc[0]["rule"].GetString()) == "guard-does-not-deny");
  CHECK(std::string(doc[0]["severity"].GetString()) == "error");
  CHECK(std::string(doc[0]["file"].GetString()) == p.settings());
}

TEST_CASE("fleet-hooks check: the provenance store's safety and a missing writer") {
  Project p;
  REQUIRE(p.install().exit_code == 0);
  ::mkdir((p.dir + "/.autoskillit").c_str(), 0700);
  ::mkdir((p.dir + "/.autoskillit/temp").c_str(), 0700);
  write_file(p.store(), "");
  ::chmod(p.store().c_str(), 0600);
  CHECK(p.run({"check", "--project", p.dir}).exit_code == 0);
  ::chmod(p.store().c_str(), 0620);
  RunResult r = p.run({"check", "--project", p.dir});
  CHECK(r.exit_code == 1);
  CHECK(has_finding(r, "store-unsafe"));
  ::unlink(p.store().c_str());
  write_file(p.tmp / "elsewhere", "");
  ::symlink((p.tmp / "elsewhere").c_str(), p.store().c_str());
  CHECK(has_finding(p.run({"check", "--project", p.dir}), "store-unsafe"));
  ::unlink(p.store().c_str());
  ::mkdir(p.store().c_str(), 0700);
  CHECK(has_finding(p.run({"check", "--project", p.dir}), "store-unsafe"));
  ::rmdir(p.store().c_str());

  // Without the PostToolUse writer: a warning, still exit 0.
  p.write_settings(
      R"({"hooks":{"PreToolUse":[{"matcher":"^(mcp__.*__|.*-)?dispatch_food_truck$","hooks":[{"type":"command","command":")" +
      p.bin + R"(/resume-guard","timeout":10}]}]}})");
  r = p.run({"check", "--project", p.dir});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("warning writer-missing") != std::string::npos);
}

TEST_CASE("fleet-hooks verify: healthy - torn tail - damaged") {
  Project p;
  const std::string state = p.tmp / "state";
  ::mkdir(state.c_str(), 0755);
  RunResult r = p.run({"verify", "--state-dir", state});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("no store yet") != std::string::npos);
  for (const char* session : {"w-1", "w-2"}) {
    REQUIRE(run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", session,
                         "--caller-session-id", "l3", "--state-dir", state})
                .exit_code == 0);
  }
  CHECK(p.run({"verify", "--state-dir", state}).exit_code == 0);
  const std::string store = state + "/session_provenance.jsonl";
  write_file(store, read_file(store) + "{\"torn");
  r = p.run({"verify", "--state-dir", state});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("warning line 3: torn-tail") != std::string::npos);
  write_file(store, read_file(store) + "\n" +
                        to_json_line(fleet::ProvenanceRecord{"w-3", "l3", "", "", "", "", "t"}) +
                        "\n");
  r = p.run({"verify", "--state-dir", state, "--json"});
  CHECK(r.exit_code == 1);
  rapidjson::Document doc = fleet::test::json_document(r.out);
  CHECK(doc["counts"]["not-json"].GetUint() == 1);
  CHECK(doc["records"].GetUint() == 3);
  CHECK_FALSE(doc["ok"].GetBool());
}

TEST_CASE("fleet-hooks query: records and the guard's verdict") {
  Project p;
  const std::string state = p.tmp / "state";
  const auto record = [&](const std::string& session, const std::string& caller,
                          const std::string& kitchen) {
    REQUIRE(run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", session,
                         "--caller-session-id", caller, "--kitchen-id", kitchen, "--recipe-name",
                         "implement", "--state-dir", state})
                .exit_code == 0);
  };
  record("w-1", "l3-a", "k1");
  record("w-2", "l3-a", "k2");
  record("w-1", "l3-b", "k9");
  RunResult r = p.run({"query", "--session", "w-1", "--as-caller", "l3-b", "--state-dir", state});
  CHECK(r.exit_code == 0);
  CHECK(split_lines(r.out).size() == 3);
  CHECK(r.out.find("verdict for caller 'l3-b': deny") != std::string::npos);
  r = p.run({"query", "--session", "w-1", "--as-caller", "l3-a", "--state-dir", state});
  CHECK(r.out.find("verdict for caller 'l3-a': silent") != std::string::npos);
  CHECK(split_lines(p.run({"query", "--caller", "l3-a", "--state-dir", state}).out).size() == 2);
  CHECK(split_lines(p.run({"query", "--kitchen", "k1", "--state-dir", state}).out).size() == 1);
  CHECK(p.run({"query", "--kitchen", "nope", "--state-dir", state}).exit_code == 1);
  CHECK(p.run({"query", "--state-dir", state}).exit_code == 2);
  CHECK(p.run({"query", "--session", "a", "--caller", "b"}).exit_code == 2);
}

TEST_CASE("fleet-hooks compact: racing 16 writers loses nothing") {
  Project p;
  const std::string state = p.tmp / "state";
  const std::string store = state + "/session_provenance.jsonl";
  // Damage and duplicates for the compactions to remove.
  REQUIRE(run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", "seed",
                       "--caller-session-id", "l3", "--state-dir", state})
              .exit_code == 0);
  write_file(store, read_file(store) + "damaged line\n" + read_file(store));

  constexpr int kWriters = 16;
  const int kRecordsEach = fleet::test::full_or_reduced(60, 15);
  const std::vector<pid_t> writers =
      fleet::test::fork_runners(kWriters, kRecordsEach, [&state](int w, int i) {
        return std::vector<std::string>{
            FLEET_PROVENANCE_WRITER, "record",
            "--session-id",          "c-" + std::to_string(w) + "-" + std::to_string(i),
            "--caller-session-id",   "l3",
            "--state-dir",           state};
      });
  int compactions = 0;
  for (bool running = true; running;) {
    CHECK(p.run({"compact", "--state-dir", state}).exit_code == 0);
    ++compactions;
    running = false;
    for (pid_t w : writers) running = running || ::waitpid(w, nullptr, WNOHANG) == 0;
    ::usleep(20000);
  }
  for (pid_t w : writers) ::waitpid(w, nullptr, 0);
  MESSAGE(compactions << " compactions ran while the writers appended");
  CHECK(compactions >= 2);
  const RunResult last = p.run({"compact", "--state-dir", state});
  CHECK(last.out.find("kept " + std::to_string(kWriters * kRecordsEach + 1) + " records") !=
        std::string::npos);
  std::set<std::string> sessions;
  for (const auto& line : split_lines(read_file(store))) {
    const auto record = fleet::parse_provenance_line(line);
    REQUIRE_MESSAGE(record, line);
    CHECK(sessions.insert(record->session_id).second);
  }
  CHECK(sessions.size() == kWriters * kRecordsEach + 1);
  CHECK(p.run({"verify", "--state-dir", state}).exit_code == 0);
}

TEST_CASE("fleet-hooks replay: passing and failing policy files") {
  Project p;
  const std::string state = p.tmp / "state";
  REQUIRE(run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", "w-1",
                       "--caller-session-id", "l3-a", "--kitchen-id", "k1", "--recipe-name",
                       "implement", "--state-dir", state})
              .exit_code == 0);
  write_file(p.tmp / "pass.jsonl", R"({"name":"owner","input":)" + pre_tool_use("l3-a", "w-1") +
                                       R"(,"expect":"silent"})" + "\n" +
                                       R"({"name":"self","input":)" + pre_tool_use("l3-a", "l3-a") +
                                       R"(,"expect":"deny","reason_contains":"own id"})" + "\n");
  RunResult r = p.run({"replay", p.tmp / "pass.jsonl", "--state-dir", state});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("replay: 2 of 2 cases passed, 0 failed") != std::string::npos);
  write_file(p.tmp / "fail.jsonl", R"({"name":"stranger allowed?","input":)" +
                                       pre_tool_use("l3-x", "w-1") + R"(,"expect":"silent"})" +
                                       "\n");
  r = p.run({"replay", p.tmp / "fail.jsonl", "--state-dir", state});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("FAIL") != std::string::npos);
  CHECK(p.run({"replay", p.tmp / "missing.jsonl"}).exit_code == 1);
}

TEST_CASE("fleet-hooks: --help - --version - usage errors") {
  CHECK(run_process({kFleetHooks, "--version"}).out.find("fleet-hooks 0.") == 0);
  const RunResult help = run_process({kFleetHooks, "--help"});
  for (const char* sub :
       {"install", "uninstall", "check", "verify", "query", "compact", "replay"}) {
    CHECK(help.out.find(sub) != std::string::npos);
  }
  CHECK(run_process({kFleetHooks}).exit_code == 2);
  CHECK(run_process({kFleetHooks, "install", "--scope", "galaxy"}).exit_code == 2);
}
