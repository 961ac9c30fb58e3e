// fleet-hooks install / uninstall / check as a team uses them: committed (portable,
// fail-closed) project settings, customised entries kept, files owned by their user, settings
// read the way Claude Code reads them, symlinked settings, any dispatch tool name, and the
// Claude Code plugin the install produces.

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>
#include "hook/hook_command.h"

#include "base/json.h"
#include "fixtures.h"
#include "process.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::kSystemPath;
using fleet::test::pre_tool_use;
using fleet::test::read_file;
using fleet::test::require_suite_absent;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

constexpr const char* kForged = "f0f0f0f0-0000-4000-8000-00000000f0f0";

// A project, a HOME, and a bin dir holding the suite (on PATH only when asked).
struct Team : fleet::test::SuiteMachine {
  Team() {
    // The machine "without the suite" must really be without it.
    require_suite_absent(kSystemPath);
  }
  std::string settings() const { return dir + "/.claude/settings.json"; }
  RunResult install(Args extra = {}) const {
    Args args = {"install", "--project", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }
  RunResult check(Args extra = {}, bool suite_on_path = true) const {
    Args args = {"check", "--project", dir};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args, suite_on_path);
  }
  void write_settings(const std::string& text) const {
    ::mkdir((dir + "/.claude").c_str(), 0755);
    write_file(settings(), text);
  }
  // Runs a hook command the way Claude Code does (/bin/sh -c) with a forged self-resume.
  RunResult run_hook(const std::string& command, bool suite_on_path) const {
    const std::string input = pre_tool_use(kForged, kForged, "mcp__k__dispatch_food_truck");
    return run_process({"/bin/sh", "-c", command},
                       {input, {{"PATH", path(suite_on_path)}, {"HOME", home}}, dir});
  }
};

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document doc = fleet::test::json_document(text);
  return doc;
}

std::string guard_command(const rapidjson::Document& doc) {
  return doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"].GetString();
}

bool has_finding(const RunResult& r, const std::string& severity, const std::string& rule) {
  return r.out.find(severity + " " + rule + ":") != std::string::npos;
}

std::string finding_line(const RunResult& r, const std::string& rule) {
  const std::size_t at = r.out.find(" " + rule + ":");
  if (at == std::string::npos) return "";
  const std::size_t start = r.out.rfind('\n', at);
  return r.out.substr(start == std::string::npos ? 0 : start + 1,
                      r.out.find('\n', at) - (start == std::string::npos ? 0 : start + 1));
}

}  // namespace

TEST_CASE("wiring: install keeps a customised entry - updates only what locates the executable") {
  Team t;
  const std::string customised = R"({
  "hooks": {
    "PreToolUse": [{"matcher": "^(mcp__.*__)?(dispatch_food_truck|launch_agent)$", "hooks": [
      {"type": "command", "command": "/home/me/.local/bin/resume-guard --strict --tool launch_agent --kitchen-id prod", "timeout": 20}]}],
    "PostToolUse": [{"matcher": "^(mcp__.*__)?(dispatch_food_truck|launch_agent)$", "hooks": [
      {"type": "command", "command": "/home/me/.local/bin/provenance-writer hook --tool launch_agent --fsync", "timeout": 20}]}]
  }
})";
  t.write_settings(customised);
  RunResult r = t.install();
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const std::string upgraded = read_file(t.settings());
  rapidjson::Document doc = parse(upgraded);
  const auto& pre = doc["hooks"]["PreToolUse"][0];
  CHECK(std::string(pre["matcher"].GetString()) ==
        "^(mcp__.*__|.*-)?(dispatch_food_truck|launch_agent)$");
  CHECK(pre["hooks"][0]["timeout"].GetInt() == 20);
  const std::string guard = pre["hooks"][0]["command"].GetString();
  CHECK(guard.find("; exec \"$exe\" --strict --tool launch_agent --kitchen-id prod") !=
        std::string::npos);
  CHECK(fleet::command_executable(guard) == "resume-guard");
  CHECK(guard.find("/home/me") == std::string::npos);  // converted to the portable form
  const std::string writer = doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"].GetString();
  CHECK(writer.find("; exec \"$exe\" hook --tool launch_agent --fsync") != std::string::npos);
  CHECK(fleet::command_executable(writer) == "provenance-writer");
  // launch_agent resumes are still guarded: check with that tool passes.
  r = t.check({"--tool", "launch_agent"});
  CHECK_MESSAGE(r.exit_code == 0, r.out);

  // The original is kept in .bak; a run that changes nothing touches no file.
  CHECK(read_file(t.settings() + ".bak") == customised);
  r = t.install();
  CHECK(r.out.find("unchanged") == 0);
  CHECK(read_file(t.settings()) == upgraded);
  CHECK(read_file(t.settings() + ".bak") == customised);
  CHECK(::access((t.settings() + ".bak.1").c_str(), F_OK) != 0);
  // A second upgrade that changes something keeps the original too.
  REQUIRE(t.install({"--tool", "spawn_worker"}).exit_code == 0);
  CHECK(read_file(t.settings() + ".bak") == customised);
  CHECK(read_file(t.settings() + ".bak.1") == upgraded);
}

TEST_CASE("wiring: as root, the settings file and its .bak keep owner - group - mode") {
  if (::geteuid() != 0) {
    MESSAGE("skipped: needs root");
    return;
  }
  Team t;
  ::chmod(t.tmp.path().c_str(), 0755);
  t.write_settings(R"({"model": "opus"})");
  REQUIRE(::chown((t.dir + "/.claude").c_str(), 1000, 1000) == 0);
  REQUIRE(::chown(t.settings().c_str(), 1000, 1000) == 0);
  ::chmod(t.settings().c_str(), 0664);
  REQUIRE(t.install().exit_code == 0);
  for (const std::string& file : {t.settings(), t.settings() + ".bak"}) {
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK(st.st_uid == 1000);
    CHECK(st.st_gid == 1000);
    CHECK((st.st_mode & 07777) == 0664);
  }
}

TEST_CASE("wiring: duplicate keys - comments - trailing commas - BOM, as Claude Code reads them") {
  Team t;
  REQUIRE(t.install().exit_code == 0);
  const std::string installed = read_file(t.settings());
  rapidjson::Document doc = parse(installed);
  const std::string hooks = fleet::to_json(doc["hooks"]);

  // The guard in the first of two "hooks": Claude Code keeps the last, unguarded one.
  const std::string duplicated =
      R"({"hooks": )" + hooks + R"(, "model": "x", "hooks": {"PreToolUse": []}})";
  t.write_settings(duplicated);
  RunResult r = t.check();
  CHECK(r.exit_code == 1);
  CHECK(has_finding(r, "warning", "settings-duplicate-key"));
  CHECK(has_finding(r, "error", "guard-missing"));
  CHECK(r.out.find("ok:") == std::string::npos);
  r = t.install();
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("appear more than once (/hooks)") != std::string::npos);
  CHECK(read_file(t.settings()) == duplicated);
  // In the last one: guarded, with the warning.
  t.write_settings(R"({"hooks": {}, "model": "x", "hooks": )" + hooks + "}");
  r = t.check();
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  CHECK(has_finding(r, "warning", "settings-duplicate-key"));

  // Comments or a trailing comma: Claude Code drops the whole file.
  for (const std::string& text :
       {"// team settings\n" + installed, installed.substr(0, installed.rfind('}')) + ",}\n"}) {
    t.write_settings(text);
    r = t.check();
    CHECK(r.exit_code == 1);
    const std::string line = finding_line(r, "settings-ignored");
    CHECK(line.find("Claude Code ignores the whole file") != std::string::npos);
    CHECK(line.find("PreToolUse resume-guard, PostToolUse provenance-writer") != std::string::npos);
    CHECK(has_finding(r, "error", "guard-missing"));
    r = t.install();
    CHECK(r.exit_code == 1);
    CHECK(read_file(t.settings()) == text);
  }

  // A BOM is accepted by Claude Code: kept, and the file is guarded.
  t.write_settings("\xEF\xBB\xBF" + installed);
  r = t.install();
  CHECK(r.out.find("unchanged") == 0);
  CHECK(t.check().exit_code == 0);
  t.write_settings("\xEF\xBB\xBF{\"model\": \"x\"}");
  REQUIRE(t.install().exit_code == 0);
  CHECK(read_file(t.settings()).starts_with("\xEF\xBB\xBF{\n"));
  CHECK(t.check().exit_code == 0);
}

TEST_CASE("wiring: a symlinked settings file is read and written through the link") {
  Team t;
  const std::string shared = t.tmp / "shared-settings.json";
  write_file(shared, R"({"model": "opus"})");
  ::mkdir((t.dir + "/.claude").c_str(), 0755);
  REQUIRE(::symlink(shared.c_str(), t.settings().c_str()) == 0);
  RunResult r = t.install();
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  struct stat st {};
  REQUIRE(::lstat(t.settings().c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
  CHECK(read_file(shared).find("resume-guard") != std::string::npos);
  CHECK(read_file(shared + ".bak") == R"({"model": "opus"})");
  r = t.check();
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  CHECK_FALSE(has_finding(r, "error", "settings-invalid"));
}

TEST_CASE("wiring: missing project directory - uninstall without settings creates nothing") {
  Team t;
  RunResult r = t.run({"uninstall", "--project", t.dir});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("nothing to remove") == 0);
  CHECK(::access((t.dir + "/.claude").c_str(), F_OK) != 0);
  r = t.run({"install", "--project", t.tmp / "nonexistent/x"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("does not exist") != std::string::npos);
  CHECK(::access((t.tmp / "nonexistent").c_str(), F_OK) != 0);
  r = t.run({"check", "--project", t.tmp / "nonexistent/x"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("the project directory " + t.tmp / "nonexistent/x" + " does not exist") !=
        std::string::npos);
  CHECK(r.out.find("guard-missing") == std::string::npos);
}

TEST_CASE("wiring: project settings are portable and fail closed where the suite is missing") {
  Team t;
  REQUIRE(t.install().exit_code == 0);
  const std::string text = read_file(t.settings());
  CHECK(text.find(t.tmp.path()) == std::string::npos);  // no path of this machine
  const std::string guard = guard_command(parse(text));

  // Where the suite is on PATH: the real guard answers (a deny for a forged self-resume).
  RunResult hook = t.run_hook(guard, true);
  CHECK(hook.exit_code == 0);
  CHECK(hook.out.find("\"permissionDecision\":\"deny\"") != std::string::npos);
  RunResult r = t.check();
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  CHECK(r.out.find("ok: resume-guard guards dispatch_food_truck") != std::string::npos);

  // Where it is not: exit 2 (Claude Code blocks the call), and the fix on stderr.
  hook = t.run_hook(guard, false);
  CHECK(hook.exit_code == 2);
  CHECK(hook.err.find("resume-guard is not installed on this machine") != std::string::npos);
  r = t.check({}, false);
  CHECK(r.exit_code == 1);
  const std::string missing = finding_line(r, "binary-missing");
  CHECK(missing.find("error binary-missing: resume-guard is not installed on this machine") == 0);
  CHECK(missing.find("blocks every call") != std::string::npos);
  CHECK(missing.find("npm install -g ./fleet-hooks-<version>.tgz") != std::string::npos);
  CHECK(has_finding(r, "warning", "binary-missing"));  // the writer: fail-open, warned
  // The probe ran through the wrapper, which blocks: not "does not deny", not "missing".
  CHECK_FALSE(has_finding(r, "error", "guard-does-not-deny"));
  CHECK_FALSE(has_finding(r, "error", "guard-missing"));

  // The local and user scopes keep absolute paths, still fail-closed.
  REQUIRE(t.install({"--scope", "local", "--bin-dir", t.bin}).exit_code == 0);
  const std::string local = guard_command(parse(read_file(t.dir + "/.claude/settings.local.json")));
  CHECK(local.find("exec " + t.bin + "/resume-guard") != std::string::npos);
  CHECK(t.run_hook(local, false).out.find("deny") != std::string::npos);
}

TEST_CASE("wiring: --fail-open-if-missing is visible in the file and in check") {
  Team t;
  REQUIRE(t.install({"--fail-open-if-missing"}).exit_code == 0);
  const std::string guard = guard_command(parse(read_file(t.settings())));
  const RunResult hook = t.run_hook(guard, false);
  CHECK(hook.exit_code == 1);  // not blocking; Claude Code shows the error
  CHECK(hook.err.find("this call ran without it") != std::string::npos);
  RunResult r = t.check();
  CHECK(r.exit_code == 0);
  CHECK(has_finding(r, "warning", "guard-fail-open"));
  r = t.check({}, false);
  CHECK(r.exit_code == 1);
  CHECK(finding_line(r, "binary-missing").find("UNGUARDED") != std::string::npos);
  CHECK(has_finding(r, "error", "guard-missing"));
}

TEST_CASE("wiring: any dispatch tool name - install --tool and check --tool") {
  Team t;
  REQUIRE(t.install().exit_code == 0);
  // Wired for dispatch_food_truck only: spawn_worker is named as missing.
  RunResult r = t.check({"--tool", "spawn_worker"});
  CHECK(r.exit_code == 1);
  const std::string missing = finding_line(r, "guard-missing");
  CHECK(missing.find("for spawn_worker and mcp__<server>__spawn_worker") != std::string::npos);
  CHECK(missing.find("--tool spawn_worker") != std::string::npos);
  REQUIRE(t.install({"--tool", "spawn_worker"}).exit_code == 0);
  r = t.check({"--tool", "spawn_worker"});
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  // --tool adds to what the wiring guards: dispatch_food_truck stays checked.
  CHECK_MESSAGE(r.out.find("ok: resume-guard guards dispatch_food_truck and "
                           "mcp__*__dispatch_food_truck, spawn_worker and mcp__*__spawn_worker") !=
                    std::string::npos,
                r.out);
  CHECK(t.install({"--tool", "bad|name"}).exit_code == 2);  // a usage error

  // A hand-written wiring for spawn_worker only passes check without --tool.
  const std::string hand =
      R"({"hooks": {"PreToolUse": [{"matcher": "^(mcp__.*__|.*-)?spawn_worker$",
      "hooks": [{"type": "command", "command": ")" +
      t.bin + R"(/resume-guard --tool spawn_worker", "timeout": 10}]}]}})";
  t.write_settings(hand);
  r = t.check();
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  CHECK(r.out.find("ok: resume-guard guards spawn_worker") != std::string::npos);
  // Its matcher selects launch_agent too, but the guard is not told: named as missing.
  t.write_settings(
      R"({"hooks": {"PreToolUse": [{"matcher": "^(mcp__.*__|.*-)?(spawn_worker|launch_agent)$",
      "hooks": [{"type": "command", "command": ")" +
      t.bin + R"(/resume-guard --tool spawn_worker", "timeout": 10}]}]}})");
  r = t.check({"--tool", "launch_agent"});
  CHECK(r.exit_code == 1);
  CHECK(finding_line(r, "guard-missing").find("lacks --tool launch_agent") != std::string::npos);
}

TEST_CASE("wiring: a second install changes nothing, byte for byte (portable, --tool, local)") {
  Team t;
  for (const Args& extra : {Args{}, Args{"--tool", "spawn_worker"}, Args{"--fail-open-if-missing"},
                            Args{"--scope", "local", "--bin-dir", t.bin}}) {
    REQUIRE(t.install(extra).exit_code == 0);
    const std::string project = read_file(t.settings());
    const std::string local = read_file(t.dir + "/.claude/settings.local.json");
    const RunResult again = t.install(extra);
    CHECK(again.out.find("unchanged") == 0);
    CHECK(read_file(t.settings()) == project);
    CHECK(read_file(t.dir + "/.claude/settings.local.json") == local);
  }
}

TEST_CASE("wiring: the plugin cmake --install produces - check --plugin-dir and enabledPlugins") {
  Team t;
  const std::string prefix = t.tmp / "prefix";
  const RunResult installed =
      run_process({FLEET_CMAKE, "--install", FLEET_BUILD_DIR, "--prefix", prefix});
  REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
  const std::string plugin = prefix + "/share/fleet-hooks/claude-plugin";
  for (const char* file : {"/.claude-plugin/plugin.json", "/hooks/hooks.json"}) {
    rapidjson::Document doc = parse(read_file(plugin + file));
    CHECK(doc.IsObject());
  }
  CHECK(::access((plugin + "/bin/resume-guard").c_str(), X_OK) == 0);
  CHECK(::access((plugin + "/bin/provenance-writer").c_str(), X_OK) == 0);
  rapidjson::Document market =
      parse(read_file(prefix + "/share/fleet-hooks/.claude-plugin/marketplace.json"));
  CHECK(std::string(market["plugins"][0]["source"].GetString()) == "./claude-plugin");
  CHECK(read_file(plugin + "/hooks/hooks.json")
            .find("${CLAUDE_PLUGIN_ROOT}/bin/${m:+linux-$m/}resume-guard") != std::string::npos);
  CHECK(::access((plugin + "/bin/fleet-hooks").c_str(), X_OK) == 0);  // check from the plugin
  // Installing again changes nothing.
  const std::string hooks_json = read_file(plugin + "/hooks/hooks.json");
  const RunResult again =
      run_process({FLEET_CMAKE, "--install", FLEET_BUILD_DIR, "--prefix", prefix});
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("Up-to-date: " + plugin + "/hooks/hooks.json") != std::string::npos);
  CHECK(again.out.find("Installing:") == std::string::npos);
  CHECK(read_file(plugin + "/hooks/hooks.json") == hooks_json);

  // Nothing in the settings, the plugin given as with claude --plugin-dir: guarded.
  RunResult r = t.check({"--plugin-dir", plugin}, false);
  CHECK_MESSAGE(r.exit_code == 0, r.out);
  CHECK_FALSE(has_finding(r, "error", "guard-missing"));
  CHECK(t.check({}, false).exit_code == 1);

  // A project that enables the plugin: found where `claude plugin install` records it.
  t.write_settings(R"({"enabledPlugins": {"fleet-hooks@fleet-hooks": true}})");
  r = t.check({}, false);
  CHECK(r.exit_code == 1);
  CHECK(has_finding(r, "error", "plugin-missing"));
  ::mkdir((t.home + "/.claude").c_str(), 0755);
  ::mkdir((t.home + "/.claude/plugins").c_str(), 0755);
  write_file(
      t.home + "/.claude/plugins/installed_plugins.json",
      R"({"version": 2, "plugins": {"fleet-hooks@fleet-hooks": [{"scope": "user", "installPath": ")" +
          plugin + R"("}]}})");
  r = t.check({}, false);
  CHECK_MESSAGE(r.exit_code == 0, r.out);
}
