// End to end: the real Codex CLI and Gemini CLI as L3 orchestrators, each against a scripted
// model API on loopback (its own wire), calling dispatch_food_truck on the stdio MCP
// dispatcher, which launches Claude Code workers through launch-wrapper. The hooks are wired
// by `fleet-hooks install --agent <cli>`, trusted, and pass `fleet-hooks check --agent <cli>`.
// Assertions use what each CLI sent back to its model, the dispatcher's calls and the store.

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "agent_orchestrator.h"
#include "agents/codex/codex_hooks_list.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "fixtures.h"
#include "process/child_process.h"
#include "suite.h"
#include "text.h"

using fleet::test::AgentFleet;
using fleet::test::AgentRun;

namespace {

// Records a worker of kL3 in kitchen-1 and scripts an L3 prompt "L3-STEAL" that resumes it;
// returns the worker's id.
std::string script_stranger_resume(const AgentFleet& fleet) {
  const std::string worker = "0d07e5d0-0000-4000-8000-00000000beef";
  fleet.record(worker, fleet::test::kL3, "kitchen-1");
  fleet.script(
      R"({"rules":[{"match":"L3-STEAL","turns":[)" +
      fleet.dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"done"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
  return worker;
}

}  // namespace

TEST_CASE("e2e: codex - a stranger's resume is denied, the owner's runs, a dispatch is recorded") {
  AgentFleet fleet("codex", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  fleet.trust();
  const auto check = fleet.check();
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));
  fleet.check_guarded();
}

TEST_CASE("e2e: codex - an untrusted wiring fails check, and Codex runs a stranger's resume") {
  AgentFleet fleet("codex", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  // Installed but not trusted: check fails and says how to trust ...
  const auto untrusted = fleet.check();
  CHECK(untrusted.exit_code == 3);  // wired right, not yet trusted
  CHECK(untrusted.out.find("codex-project-untrusted") != std::string::npos);
  CHECK(untrusted.out.find("install --agent codex --trust") != std::string::npos);
  // ... because Codex then skips the hooks without a word: a stranger's resume of a recorded
  // worker reaches the dispatcher.
  const std::string worker = script_stranger_resume(fleet);
  const AgentRun unguarded = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(unguarded.process.exit_code == 0);
  CHECK(fleet.calls().size() == 1);
  CHECK(fleet.tool_results().find(fleet.profile().blocked_prefix) == std::string::npos);
  // Trusted by install --trust: check passes and the same resume is denied.
  fleet.trust();
  const auto trusted = fleet.check();
  CHECK_MESSAGE(trusted.exit_code == 0, (trusted.out + trusted.err));
  const AgentRun denied = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(denied.process.exit_code == 0);
  CHECK(fleet.calls().size() == 1);
  CHECK(fleet.tool_results().find(fleet.profile().blocked_prefix + "Refused to resume session '" +
                                  worker) != std::string::npos);
}

TEST_CASE("e2e: copilot - --agent copilot: check fails until trusted, then guards and records") {
  // GitHub Copilot CLI 1.0.102 skips the hooks of a folder not trusted in ~/.copilot/config.json
  // without a word: check fails, install --trust adds the folder, keeping Copilot's comments.
  AgentFleet fleet("copilot", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  CHECK(fleet::test::read_file(fleet.project() + "/.claude/settings.json").empty());
  const auto untrusted = fleet.check();
  CHECK(untrusted.exit_code == 3);  // wired right, not yet trusted
  CHECK_MESSAGE(untrusted.out.find("copilot-folder-untrusted") != std::string::npos, untrusted.out);
  const auto trust = fleet.fleet_hooks({"install", "--agent", "copilot", "--trust"});
  REQUIRE_MESSAGE(trust.exit_code == 0, (trust.out + trust.err));
  const auto check = fleet.check();
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));
  fleet.check_guarded();
}

TEST_CASE("e2e: gemini - a stranger's resume is denied, the owner's runs, a dispatch is recorded") {
  AgentFleet fleet("gemini", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  fleet.trust();
  const auto check = fleet.check();
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));
  fleet.check_guarded();
}

TEST_CASE(
    "e2e: gemini - an untrusted folder fails check, and Gemini refuses it or ignores its "
    "settings") {
  AgentFleet fleet("gemini", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  const auto untrusted = fleet.check();
  CHECK(untrusted.exit_code == 3);  // wired right, not yet trusted
  CHECK(untrusted.out.find("trustedFolders.json") != std::string::npos);
  const std::string worker = script_stranger_resume(fleet);
  // Headless in an untrusted folder Gemini refuses to run (exit 55) ...
  const AgentRun refused = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(refused.process.exit_code == 55);
  CHECK(fleet.calls().empty());
  // ... and with --skip-trust it runs without anything of the project's settings.json: no
  // hooks, and here not even the dispatcher configured there (the model is told the tool does
  // not exist). A dispatcher configured elsewhere (~/.gemini/settings.json) would run
  // unguarded: hence check's failure.
  const AgentRun skipped = fleet.l3("L3-STEAL resume the worker", "kitchen-2", {"--skip-trust"});
  CHECK(skipped.process.exit_code == 0);
  CHECK(fleet.calls().empty());
  CHECK(fleet.tool_results().find("Tool \\\"mcp_kitchen_dispatch_food_truck\\\" not found") !=
        std::string::npos);
}

// The trust `fleet-hooks install --agent codex --trust` writes, proven against what the real
// Codex CLI reads: `codex app-server` hooks/list (each hook's trust status, the configuration
// errors it met) and `codex exec` loading config.toml. No model is needed: an exec whose
// model provider does not exist stops right after loading the configuration.
namespace {

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::write_file;

class CodexTrust {
 public:
  CodexTrust() {
    for (const std::string& dir : {home_, codex_home_, project_, bin_}) ::mkdir(dir.c_str(), 0755);
    fleet::test::link_suite(bin_, {"resume-guard", "provenance-writer", "fleet-hooks"});
  }
  const std::string& project() const { return project_; }
  std::string config() const { return codex_home_ + "/config.toml"; }
  std::string path(const std::string& name) const { return tmp_ / name; }

  fleet::test::RunResult fleet_hooks(std::vector<std::string> args) const {
    args.insert(args.begin(), bin_ + "/fleet-hooks");
    return fleet::test::run_process(args, {"", env(), ""});
  }
  void install(const std::string& project) const {
    const auto r = fleet_hooks({"install", "--agent", "codex", "--project", project});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
  // What Codex lists for a session in `cwd`.
  fleet::CodexHookList hooks_list(const std::string& cwd) const {
    std::vector<std::string> vars;
    for (const auto& [name, value] : env()) vars.push_back(name + "=" + value);
    const auto listed = fleet::codex_hooks_list(codex_, cwd, fleet::environment_with(vars),
                                                std::chrono::milliseconds(120000));
    REQUIRE_MESSAGE(listed.ok(), listed.problem());
    return *listed;
  }
  // `codex exec` in `cwd` as far as loading config.toml: its stderr.
  std::string exec_start(const std::string& cwd) const {
    const auto r = fleet::test::run_process(
        {codex_, "exec", "--skip-git-repo-check", "-c", "model_provider=fleet-none", "hi"},
        {"", env(), cwd});
    CHECK(r.exit_code != 0);
    return r.err;
  }

 private:
  fleet::test::EnvList env() const {
    return {
        {"HOME", home_},
        {"CODEX_HOME", codex_home_},
        {"PATH", bin_ + ":" + fleet::parent_directory(codex_) + ":" + fleet::env_value("PATH")}};
  }
  fleet::test::TempDir tmp_;
  std::string codex_ = fleet::test::cli_or_skip(FLEET_E2E_CACHE, "codex");
  std::string home_ = tmp_ / "home", codex_home_ = tmp_ / "codex-home";
  std::string project_ = tmp_ / "project", bin_ = tmp_ / "bin";
};

bool loads(const std::string& exec_err) {
  return !contains(exec_err, "Error loading config.toml") &&
         contains(exec_err, "Model provider `fleet-none` not found");
}

// The suite's hooks Codex lists, by trust status.
std::map<std::string, int> suite_statuses(const fleet::CodexHookList& list) {
  std::map<std::string, int> statuses;
  for (const auto& hook : list.hooks) {
    if (contains(hook.command, "resume-guard") || contains(hook.command, "provenance-writer"))
      ++statuses[hook.trust_status];
  }
  return statuses;
}

}  // namespace

TEST_CASE("e2e: codex trust - the hash Codex computes, for every control byte and non-ASCII") {
  CodexTrust c;
  c.install(c.project());
  // Every byte 0x00-0x1f, 0x7f and non-ASCII text in each suite hook's statusMessage.
  std::string status = "fleet ";
  for (int b = 0; b < 0x20; ++b) status += static_cast<char>(b);
  status += "\x7f \xC3\xA9 \xE6\x97\xA5 \xF0\x9F\x98\x80 \\ \" /";
  const std::string file = c.project() + "/.codex/hooks.json";
  auto doc = fleet::parse_json_object(read_file(file));
  REQUIRE(doc.ok());
  for (auto& event : (*doc)["hooks"].GetObject()) {
    for (auto& group : event.value.GetArray()) {
      for (auto& entry : group["hooks"].GetArray())
        entry.AddMember("statusMessage", fleet::json_string(status, doc->GetAllocator()),
                        doc->GetAllocator());
    }
  }
  write_file(file, fleet::to_json(*doc));
  const auto trusted =
      c.fleet_hooks({"install", "--agent", "codex", "--trust", "--project", c.project()});
  REQUIRE_MESSAGE(trusted.exit_code == 0, trusted.err);
  const fleet::CodexHookList list = c.hooks_list(c.project());
  CHECK(list.errors.empty());
  CHECK(suite_statuses(list) == std::map<std::string, int>{{"trusted", 3}});
  const auto check = c.fleet_hooks({"check", "--agent", "codex", "--project", c.project()});
  CHECK_MESSAGE(check.exit_code == 0, check.out);
}

TEST_CASE("e2e: codex trust - under the resolved path Codex looks up, not the one given") {
  CodexTrust c;
  const std::string link = c.path("link");
  REQUIRE(::symlink(c.project().c_str(), link.c_str()) == 0);
  c.install(link);
  const auto trusted =
      c.fleet_hooks({"install", "--agent", "codex", "--trust", "--project", link + "/../link"});
  REQUIRE_MESSAGE(trusted.exit_code == 0, trusted.err);
  CHECK(contains(trusted.out, "the project " + c.project() + " and 3 "));
  CHECK(contains(read_file(c.config()), "[projects.\"" + c.project() + "\"]"));
  CHECK_FALSE(contains(read_file(c.config()), link));
  // A session started in the link has the resolved working directory.
  CHECK(suite_statuses(c.hooks_list(c.project())) == std::map<std::string, int>{{"trusted", 3}});
  CHECK(c.fleet_hooks({"check", "--agent", "codex", "--project", link}).exit_code == 0);
}

TEST_CASE("e2e: codex trust - config.toml stays a document Codex loads, whatever its form") {
  CodexTrust c;
  c.install(c.project());
  const std::vector<std::string> trust = {"install", "--agent",   "codex",
                                          "--trust", "--project", c.project()};
  // Forms fleet-hooks edits or adds to: dotted keys at the root (a [table] below them may be
  // added), and in a [table] (the string edited in place).
  const std::vector<std::string> editable = {
      "projects.\"/elsewhere\".trust_level = \"trusted\"\n",
      "[projects]\n\"" + c.project() + "\".trust_level = \"untrusted\"\n"};
  for (const std::string& text : editable) {
    write_file(c.config(), text);
    REQUIRE_MESSAGE(loads(c.exec_start(c.project())), text);
    const auto edited = c.fleet_hooks(trust);
    CHECK_MESSAGE(edited.exit_code == 0, edited.err);
    CHECK_MESSAGE(loads(c.exec_start(c.project())), read_file(c.config()));
    const fleet::CodexHookList list = c.hooks_list(c.project());
    CHECK(list.errors.empty());
    CHECK(suite_statuses(list) == std::map<std::string, int>{{"trusted", 3}});
    CHECK(c.fleet_hooks({"check", "--agent", "codex", "--project", c.project()}).exit_code == 0);
  }

  // Forms it does not rewrite: refused, the file unchanged, Codex still starts.
  const std::vector<std::string> refused = {
      "projects = { \"" + c.project() + "\" = { trust_level = \"untrusted\" } }\n",
      "[projects]\n\"" + c.project() + "\".note = \"mine\"\n", "hooks.state = { }\n",
      "hooks = { state = { } }\n"};
  for (const std::string& text : refused) {
    write_file(c.config(), text);
    REQUIRE_MESSAGE(loads(c.exec_start(c.project())), text);
    const auto r = c.fleet_hooks(trust);
    CHECK_MESSAGE(r.exit_code == 1, text);
    CHECK_MESSAGE(contains(r.err, "fleet-hooks install: cannot trust in " + c.config()), r.err);
    CHECK(contains(r.err, "nothing was trusted"));
    CHECK(read_file(c.config()) == text);
    CHECK(loads(c.exec_start(c.project())));
  }

  // A file Codex cannot load: check fails, as Codex does.
  const std::vector<std::string> broken = {
      "[projects.\"/p\"]\ntrust_level = \"trusted\"\n[projects.\"/p\"]\nx = 1\n",
      "projects = { \"/p\" = { trust_level = \"trusted\" } }\n[projects.\"/p\"]\ny = 1\n",
      "[projects]\n\"/p\".trust_level = \"trusted\"\n[projects.\"/p\"]\ny = 1\n",
      "[a.b]\nx = 1\n[a]\nb.y = 2\n",
      "[a.b.c]\nx = 1\n[a]\nb.d = 2\n",
      "model = \"a\"\nmodel = \"b\"\n"};
  for (const std::string& text : broken) {
    write_file(c.config(), text);
    CHECK_MESSAGE(!loads(c.exec_start(c.project())), text);
    const auto check = c.fleet_hooks({"check", "--agent", "codex", "--project", c.project()});
    CHECK_MESSAGE(check.exit_code == 1, text);
    CHECK_MESSAGE(contains(check.out, "error codex-config-invalid"), check.out);
    CHECK_MESSAGE(contains(check.out, "error codex-config-error: Codex reports"), check.out);
    const auto r = c.fleet_hooks(trust);
    CHECK(r.exit_code == 1);
    CHECK(read_file(c.config()) == text);
  }
}

TEST_CASE("e2e: codex trust - an entry with more shell than install writes is left untrusted") {
  CodexTrust c;
  c.install(c.project());
  const std::string file = c.project() + "/.codex/hooks.json";
  std::string text = read_file(file);
  const std::string guard = "exec \\\"$exe\\\" --agent codex";  // as JSON writes it
  REQUIRE(contains(text, guard));
  text.replace(text.find(guard), guard.size(),
               guard + " --state-dir \\\"$(touch " + c.path("pwned") + ")\\\"");
  write_file(file, text);
  const auto r =
      c.fleet_hooks({"install", "--agent", "codex", "--trust", "--project", c.project()});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.err,
                 "warning: not trusted: " + c.project() + "/.codex/hooks.json:pre_tool_use:0:0"));
  CHECK(contains(r.out, " and 2 fleet-hooks hooks"));
  // Codex itself runs the suite's other hooks, not that one.
  CHECK(suite_statuses(c.hooks_list(c.project())) ==
        std::map<std::string, int>{{"trusted", 2}, {"untrusted", 1}});
  const auto check = c.fleet_hooks({"check", "--agent", "codex", "--project", c.project()});
  CHECK(check.exit_code == 1);
  CHECK(contains(check.out, "error codex-hook-untrusted: the resume-guard hook"));
}

TEST_CASE(
    "e2e: codex - every verdict leaves a trace: fleet-hooks log shows the deny and the "
    "advisory codex exec shows nowhere") {
  AgentFleet fleet("codex", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  fleet.trust();
  const auto check = fleet.check();
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));
  const std::string worker = script_stranger_resume(fleet);
  const std::string unknown = "0d07e5d0-0000-4000-8000-00000000dead";
  // A deny: a stranger's resume.
  const AgentRun denied = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(denied.process.exit_code == 0);
  CHECK(fleet.calls().empty());
  // An advisory: an id the store does not hold goes through, and Codex says so nowhere.
  fleet.script(
      R"({"rules":[{"match":"L3-UNKNOWN","turns":[)" +
      fleet.dispatch_turn(R"({"prompt":"L2-WORK other","resume_session_id":")" + unknown +
                          R"("})") +
      R"(,{"text":"done"}]},{"match":"L3-OWN","turns":[)" +
      fleet.dispatch_turn(R"({"prompt":"L2-WORK own","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"done"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
  const AgentRun advised = fleet.l3("L3-UNKNOWN resume it", "kitchen-2");
  CHECK(advised.process.exit_code == 0);
  CHECK(fleet.calls().size() == 1);
  // A silent pass: the worker's own kitchen resumes it.
  const AgentRun own = fleet.l3("L3-OWN resume it", "kitchen-1");
  CHECK(own.process.exit_code == 0);
  CHECK(fleet.calls().size() == 2);

  const auto log = fleet.fleet_hooks({"log", "--json"});
  REQUIRE_MESSAGE(log.exit_code == 0, log.err);
  const std::vector<std::string> lines = fleet::test::split_lines(log.out);
  REQUIRE_MESSAGE(lines.size() == 2, log.out);
  rapidjson::Document deny = fleet::test::json_document(lines[0]);
  CHECK(std::string(deny["verdict"].GetString()) == "deny");
  CHECK(std::string(deny["rule"].GetString()) == "not-owner");
  CHECK(std::string(deny["session"].GetString()) == worker);
  CHECK(std::string(deny["caller"].GetString()) == denied.session_id);
  CHECK(std::string(deny["agent"].GetString()) == "codex");
  rapidjson::Document advisory = fleet::test::json_document(lines[1]);
  CHECK(std::string(advisory["verdict"].GetString()) == "advisory");
  CHECK(std::string(advisory["rule"].GetString()) == "unrecorded");
  CHECK(std::string(advisory["session"].GetString()) == unknown);
  const auto text = fleet.fleet_hooks({"log"});
  CHECK_MESSAGE(text.out.find("Refused to resume session '" + worker) != std::string::npos,
                text.out);
}

TEST_CASE(
    "e2e: codex - the project's own config.toml turning hooks off fails check, and lets a "
    "stranger through") {
  // codex-cli 0.169.0 loads a trusted project's .codex/config.toml: [features] hooks = false
  // there runs no hook. Before, check said ok on a machine without codex on PATH.
  AgentFleet fleet("codex", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  fleet.trust();
  REQUIRE(fleet.check().exit_code == 0);
  const std::string worker = script_stranger_resume(fleet);
  const std::string config = fleet.project() + "/.codex/config.toml";
  fleet::test::write_file(config, "[features]\nhooks = false\n");
  const auto off = fleet.check();
  CHECK(off.exit_code == 1);
  CHECK_MESSAGE(off.out.find("error codex-hooks-disabled: hooks are turned off in " + config) !=
                    std::string::npos,
                off.out);
  const AgentRun through = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(through.process.exit_code == 0);
  CHECK(fleet.tool_results().find("Refused to resume session '" + worker) == std::string::npos);
  CHECK(fleet.calls().size() == 1);  // the dispatcher ran the stranger's resume
  // Reverted: check passes, and the same resume is denied.
  ::unlink(config.c_str());
  const auto on = fleet.check();
  CHECK_MESSAGE(on.exit_code == 0, on.out);
  const AgentRun denied = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(denied.process.exit_code == 0);
  CHECK(fleet.tool_results().find(fleet.profile().blocked_prefix + "Refused to resume session '" +
                                  worker) != std::string::npos);
}
