// The wiring check (`fleet-hooks check`): for each kind of misconfiguration, the finding it
// produces (rule, severity, file), checked on settings files in a temporary project with
// stand-in resume-guard and provenance-writer scripts (the check runs the guard command).

#include "settings/policy_check.h"
#include "agents/agents.h"
#include "settings/check_report.h"
#include "settings/hook_sources.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>

#include "base/json.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

constexpr const char* kGood = "^(mcp__.*__|.*-)?dispatch_food_truck$";
constexpr const char* kTimeout = ",\"timeout\":10";

void write_executable(const std::string& path, const std::string& script) {
  write_file(path, "#!/bin/sh\ncat >/dev/null\n" + script);
  REQUIRE(::chmod(path.c_str(), 0755) == 0);
}

// One matcher group with one command hook.
std::string group(const std::string& matcher, const std::string& command,
                  const std::string& timeout = kTimeout) {
  return R"({"matcher":")" + matcher + R"(","hooks":[{"type":"command","command":")" + command +
         "\"" + timeout + "}]}";
}

std::string hooks(const std::string& pre, const std::string& post) {
  return R"({"hooks":{"PreToolUse":[)" + pre + R"(],"PostToolUse":[)" + post + "]}}";
}

// A project, a private Claude Code config directory and state directory, and stand-ins for
// the suite: `guard` denies by exiting 2, `json_guard` by a deny decision, `lax_guard` lets
// everything through; `writer` records nothing.
struct Wiring {
  TempDir tmp;
  std::string project = tmp / "project";
  std::string bin = tmp / "bin";
  std::string guard = bin + "/resume-guard";
  std::string json_guard = tmp / "json/resume-guard";
  std::string lax_guard = tmp / "lax/resume-guard";
  std::string writer = bin + "/provenance-writer hook";
  std::string config = tmp / "config";
  ScopedEnv config_dir{"CLAUDE_CONFIG_DIR", config.c_str()};

  Wiring() {
    for (const std::string& dir :
         {project, project + "/.claude", bin, tmp / "json", tmp / "lax", config, tmp / "state"})
      REQUIRE(::mkdir(dir.c_str(), 0755) == 0);
    REQUIRE(::chmod((tmp / "state").c_str(), 0700) == 0);
    write_executable(guard, "exit 2\n");
    write_executable(
        json_guard,
        R"(echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}')"
        "\n");
    write_executable(lax_guard, "exit 0\n");
    write_executable(bin + "/provenance-writer", "exit 0\n");
  }
  std::string settings() const { return project + "/.claude/settings.json"; }
  std::string local() const { return project + "/.claude/settings.local.json"; }
  // The suite wired correctly, except for what the caller replaces.
  std::string wired(const std::string& pre) const { return hooks(pre, group(kGood, writer)); }
  std::vector<Finding> check(std::vector<std::string> tools = {},
                             std::vector<std::string> plugin_dirs = {},
                             std::vector<std::string>* checked = nullptr) const {
    CheckOptions options;
    options.agent = &fleet::claude_code();
    options.project_dir = project;
    options.state_dir = tmp / "state";
    options.tools = std::move(tools);
    options.plugin_dirs = std::move(plugin_dirs);
    CheckResult result = check_wiring(options);
    if (checked != nullptr) *checked = result.checked_tools;
    return std::move(result.findings);
  }
};

std::vector<std::string> rules(const std::vector<Finding>& findings) {
  std::vector<std::string> names;
  for (const Finding& f : findings) names.push_back(f.rule);
  return names;
}

const Finding* find(const std::vector<Finding>& findings, const std::string& rule) {
  const auto it = std::find_if(findings.begin(), findings.end(),
                               [&](const Finding& f) { return f.rule == rule; });
  return it == findings.end() ? nullptr : &*it;
}

std::string listed(const std::vector<Finding>& findings) {
  return findings_text(findings);
}

}  // namespace

TEST_CASE("policy_check: a hook command's executable - with the variables its CLI sets") {
  ConfiguredHook hook;
  hook.command = "$CLAUDE_PROJECT_DIR/bin/resume-guard --tool x";
  CHECK(resolve_hook_executable(hook, "/p", fleet::claude_code()) == "/p/bin/resume-guard");
  CHECK(resolve_hook_executable(hook, "/p", *fleet::find_agent_cli("gemini")) ==
        "/p/bin/resume-guard");
  // Codex sets no such variable for its hooks: the command finds no file there.
  CHECK(resolve_hook_executable(hook, "/p", *fleet::find_agent_cli("codex")) ==
        "$CLAUDE_PROJECT_DIR/bin/resume-guard");
  hook.command = "\"${CLAUDE_PLUGIN_ROOT}/bin/resume-guard\"";
  hook.plugin_root = "/plugin";
  CHECK(resolve_hook_executable(hook, "/p", fleet::claude_code()) == "/plugin/bin/resume-guard");
}

TEST_CASE("policy_check: a correct wiring has no finding - the guard may deny by exit 2 or JSON") {
  Wiring w;
  write_file(w.settings(), w.wired(group(kGood, w.guard)));
  std::vector<std::string> checked;
  auto findings = w.check({}, {}, &checked);
  CHECK_MESSAGE(findings.empty(), listed(findings));
  CHECK(checked == std::vector<std::string>{"dispatch_food_truck"});
  CHECK_FALSE(has_errors(findings));

  write_file(w.settings(), w.wired(group(kGood, w.json_guard)));
  findings = w.check();
  CHECK_MESSAGE(findings.empty(), listed(findings));
}

TEST_CASE("policy_check: no guard at all - guard-missing and writer-missing") {
  Wiring w;
  auto findings = w.check();  // no settings file anywhere
  CHECK((rules(findings) == std::vector<std::string>{"guard-missing", "writer-missing"}));
  CHECK(findings[0].severity == Severity::error);
  CHECK(findings[0].message.find("dispatch_food_truck and mcp__<server>__dispatch_food_truck") !=
        std::string::npos);
  CHECK(findings[0].message.find("fleet-hooks install --project " + w.project) !=
        std::string::npos);
  CHECK(findings[1].severity == Severity::warning);
  CHECK(has_errors(findings));

  // Asked for another tool: the hint names it.
  findings = w.check({"open_kitchen"});
  REQUIRE(find(findings, "guard-missing") != nullptr);
  CHECK(find(findings, "guard-missing")->message.find("--tool open_kitchen") != std::string::npos);
}

TEST_CASE("policy_check: matcher-misses-mcp - matcher-misses-dispatch - matcher-too-broad") {
  Wiring w;
  write_file(w.settings(), w.wired(group("dispatch_food_truck", w.guard)));
  auto findings = w.check();
  const Finding* f = find(findings, "matcher-misses-mcp");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->file == w.settings());
  CHECK(f->message.find(std::string("use ") + kGood) != std::string::npos);
  CHECK(find(findings, "guard-missing") != nullptr);  // a broken guard guards nothing

  write_file(w.settings(), w.wired(group("mcp__.*__dispatch_food_truck$", w.guard)));
  findings = w.check();
  REQUIRE_MESSAGE(find(findings, "matcher-misses-dispatch") != nullptr, listed(findings));
  CHECK(find(findings, "matcher-misses-mcp") == nullptr);

  write_file(w.settings(), w.wired(group("dispatch_food_truck.*", w.guard)));
  findings = w.check();
  f = find(findings, "matcher-too-broad");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->message.find("also matches") != std::string::npos);
}

TEST_CASE("policy_check: timeout missing or under 5 s") {
  Wiring w;
  write_file(w.settings(), w.wired(group(kGood, w.guard, "")));
  auto findings = w.check();
  const Finding* f = find(findings, "timeout");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->message.find("has no timeout") != std::string::npos);

  write_file(w.settings(), w.wired(group(kGood, w.guard, ",\"timeout\":2")));
  findings = w.check();
  f = find(findings, "timeout");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->message.find("timeout 2 s is under 5 s") != std::string::npos);
}

TEST_CASE("policy_check: hook-type - an entry Claude Code does not run as a command") {
  Wiring w;
  const std::string command_entry = R"({"type":"command","command":")" + w.guard;
  for (const std::string& type :
       {std::string(R"({"type":"prompt","command":")"), std::string(R"({"command":")")}) {
    CAPTURE(type);
    std::string entry = group(kGood, w.guard);
    entry.replace(entry.find(command_entry), command_entry.size(), type + w.guard);
    write_file(w.settings(), w.wired(entry));
    const auto findings = w.check();
    const Finding* f = find(findings, "hook-type");
    REQUIRE_MESSAGE(f != nullptr, listed(findings));
    CHECK(f->severity == Severity::error);
    CHECK(f->message.find("\"type\": \"command\"") != std::string::npos);
    CHECK(f->file == w.settings());
    // Claude Code never runs it: the dispatch is unguarded.
    CHECK(find(findings, "guard-missing") != nullptr);
  }
}

TEST_CASE("policy_check: binary-missing is an error for the guard - a warning for the writer") {
  Wiring w;
  const std::string gone = w.tmp / "gone/resume-guard";
  write_file(w.settings(), w.wired(group(kGood, gone)));
  auto findings = w.check();
  const Finding* f = find(findings, "binary-missing");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->message.find(gone + " is missing or not executable") != std::string::npos);
  CHECK(f->message.find("UNGUARDED") != std::string::npos);  // a plain command: exit 127

  // A bare name that is not on PATH.
  const ScopedEnv path("PATH", "/nonexistent-fleet-hooks-path");
  write_file(w.settings(), w.wired(group(kGood, "resume-guard")));
  findings = w.check();
  f = find(findings, "binary-missing");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->message.find("resume-guard is not on PATH") != std::string::npos);

  write_file(w.settings(),
             hooks(group(kGood, w.guard), group(kGood, w.tmp / "gone/provenance-writer hook")));
  findings = w.check();
  f = find(findings, "binary-missing");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::warning);
  CHECK(f->message.find("dispatches are not recorded") != std::string::npos);
  CHECK_FALSE(has_errors(findings));
}

TEST_CASE("policy_check: a guard that lets a forged self-resume through - guard-does-not-deny") {
  Wiring w;
  write_file(w.settings(), w.wired(group(kGood, w.lax_guard)));
  const auto findings = w.check();
  const Finding* f = find(findings, "guard-does-not-deny");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->file == w.settings());
  CHECK(f->message.find("exit 0") != std::string::npos);
  CHECK(find(findings, "guard-missing") != nullptr);
}

TEST_CASE("policy_check: the fail-open form is a warning - guard-fail-open") {
  Wiring w;
  const std::string fail_open = "command -v " + w.guard +
                                R"( >/dev/null 2>&1 || { echo \"missing\" >&2; exit 1; }; exec )" +
                                w.guard;
  write_file(w.settings(), w.wired(group(kGood, fail_open)));
  const auto findings = w.check();
  REQUIRE_MESSAGE(rules(findings) == std::vector<std::string>{"guard-fail-open"}, listed(findings));
  CHECK(findings[0].severity == Severity::warning);
  CHECK_FALSE(has_errors(findings));
}

TEST_CASE("policy_check: --tool names - a matcher that selects a tool its command ignores") {
  Wiring w;
  const std::string both = "^(mcp__.*__|.*-)?(dispatch_food_truck|open_kitchen)$";
  write_file(w.settings(), w.wired(group(both, w.guard + " --tool open_kitchen")));
  std::vector<std::string> checked;
  auto findings = w.check({}, {}, &checked);
  CHECK_MESSAGE(find(findings, "guard-missing") == nullptr, listed(findings));
  CHECK((checked == std::vector<std::string>{"dispatch_food_truck", "open_kitchen"}));

  write_file(w.settings(), w.wired(group(both, w.guard)));
  findings = w.check({"open_kitchen"});
  const Finding* f = find(findings, "guard-missing");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->message.find("its command lacks --tool open_kitchen") != std::string::npos);
}

TEST_CASE("policy_check: settings-invalid - settings-ignored - settings-duplicate-key") {
  Wiring w;
  write_file(w.settings(), "{\"hooks\": ");
  auto findings = w.check();
  const Finding* f = find(findings, "settings-invalid");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->file == w.settings());

  write_file(w.settings(), "// mine\n" + w.wired(group(kGood, w.guard)));
  findings = w.check();
  f = find(findings, "settings-ignored");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->message.find("PreToolUse resume-guard") != std::string::npos);  // what is lost
  CHECK(find(findings, "guard-missing") != nullptr);

  // The local file counts too, and a duplicate key only warns: the last one counts.
  write_file(w.settings(), "{}");
  write_file(w.local(), R"({"model":"a","model":"b",)" + w.wired(group(kGood, w.guard)).substr(1));
  findings = w.check();
  REQUIRE_MESSAGE(rules(findings) == std::vector<std::string>{"settings-duplicate-key"},
                  listed(findings));
  CHECK(findings[0].severity == Severity::warning);
  CHECK(findings[0].file == w.local());
  CHECK(findings[0].message.find("/model") != std::string::npos);
}

TEST_CASE("policy_check: plugin-missing - guard-wired-twice with the plugin") {
  Wiring w;
  // A --plugin-dir without hooks/hooks.json.
  const std::string plugin = w.tmp / "plugin";
  REQUIRE(::mkdir(plugin.c_str(), 0755) == 0);
  write_file(w.settings(), w.wired(group(kGood, w.guard)));
  auto findings = w.check({}, {plugin});
  const Finding* f = find(findings, "plugin-missing");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->message.find("no hooks/hooks.json") != std::string::npos);

  // The plugin enabled but not installed for this user.
  write_file(w.settings(), R"({"enabledPlugins":{"fleet-hooks@local":true},)" +
                               w.wired(group(kGood, w.guard)).substr(1));
  findings = w.check();
  f = find(findings, "plugin-missing");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->message.find("fleet-hooks@local is enabled but not installed") != std::string::npos);

  // A plugin with the guard, and the settings entry as well.
  REQUIRE(::mkdir((plugin + "/hooks").c_str(), 0755) == 0);
  write_file(plugin + "/hooks/hooks.json",
             hooks(group(kGood, "${CLAUDE_PLUGIN_ROOT}/bin/resume-guard"),
                   group(kGood, "${CLAUDE_PLUGIN_ROOT}/bin/provenance-writer hook")));
  REQUIRE(::mkdir((plugin + "/bin").c_str(), 0755) == 0);
  write_executable(plugin + "/bin/resume-guard", "exit 2\n");
  write_executable(plugin + "/bin/provenance-writer", "exit 0\n");
  write_file(w.settings(), w.wired(group(kGood, w.guard)));
  findings = w.check({}, {plugin});
  REQUIRE_MESSAGE(rules(findings) == std::vector<std::string>{"guard-wired-twice"},
                  listed(findings));
  CHECK(findings[0].severity == Severity::warning);
  CHECK(findings[0].file == w.settings());
  CHECK(findings[0].message.find(plugin) != std::string::npos);

  // The plugin alone is enough.
  write_file(w.settings(), "{}");
  findings = w.check({}, {plugin});
  CHECK_MESSAGE(findings.empty(), listed(findings));
}

TEST_CASE("policy_check: the writer's own findings are warnings") {
  Wiring w;
  write_file(w.settings(),
             hooks(group(kGood, w.guard), group("dispatch_food_truck", w.writer, "")));
  const auto findings = w.check();
  REQUIRE_MESSAGE((rules(findings) == std::vector<std::string>{"matcher-misses-mcp", "timeout"}),
                  listed(findings));
  for (const Finding& f : findings) CHECK(f.severity == Severity::warning);
  CHECK(findings[0].message.find("the provenance-writer hook matcher") != std::string::npos);
}

TEST_CASE("policy_check: store-unsafe - a store others can write") {
  Wiring w;
  write_file(w.settings(), w.wired(group(kGood, w.guard)));
  const std::string store = w.tmp / "state/session_provenance.jsonl";
  write_file(store, "");
  REQUIRE(::chmod(store.c_str(), 0666) == 0);
  const auto findings = w.check();
  const Finding* f = find(findings, "store-unsafe");
  REQUIRE_MESSAGE(f != nullptr, listed(findings));
  CHECK(f->severity == Severity::error);
  CHECK(f->file == store);
  CHECK(f->message.find("fix:") != std::string::npos);
}

TEST_CASE("policy_check: the report - text with the ok line - JSON") {
  const std::vector<Finding> warning = {{"writer-missing", Severity::warning, "no writer", ""}};
  CHECK(check_report_text(warning, {"dispatch_food_truck", "open_kitchen"}, fleet::claude_code()) ==
        "warning writer-missing: no writer\n"
        "ok: resume-guard guards dispatch_food_truck and mcp__*__dispatch_food_truck, "
        "open_kitchen and mcp__*__open_kitchen, and denied a forged self-resume (Claude Code)\n");
  const std::vector<Finding> error = {{"timeout", Severity::error, "too short", "/p/s.json"}};
  CHECK(check_report_text(error, {"dispatch_food_truck"}, fleet::claude_code()) ==
        "error timeout: too short (/p/s.json)\n");
  CHECK(findings_json(error) ==
        R"([{"rule":"timeout","severity":"error","message":"too short","file":"/p/s.json"}])"
        "\n");
  CHECK(findings_json({}) == "[]\n");
}

TEST_CASE("policy_check: the severities are named once - error and warning") {
  CHECK(to_string(Severity::error) == "error");
  CHECK(to_string(Severity::warning) == "warning");
  CHECK(from_string<Severity>("warning") == Severity::warning);
  CHECK_FALSE(from_string<Severity>("fatal"));
}
