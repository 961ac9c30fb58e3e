// End to end, as a team uses the suite: the real Claude Code CLI on a machine with the suite
// and on one without it, reading the project settings `fleet-hooks install --project` wrote
// (portable, fail-closed), and loading the Claude Code plugin that `cmake --install`
// produced, through --plugin-dir and through a local marketplace.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <memory>

#include "base/json.h"
#include "claude_cli.h"
#include "fixtures.h"
#include "process.h"
#include "store/provenance_store.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::claude_or_skip;
using fleet::test::ClaudeRun;
using fleet::test::kSystemPath;
using fleet::test::MockMessagesApi;
using fleet::test::read_file;
using fleet::test::run_claude;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;

namespace {

constexpr const char* kOwner = "c0ffee00-0000-4000-8000-0000000000a1";
constexpr const char* kStranger = "beef0000-0000-4000-8000-0000000000b2";
using Env = std::vector<std::pair<std::string, std::string>>;

// The suite installed into one prefix (cmake --install, as ./install.sh does), a project,
// homes for the people who run Claude Code, a mock Messages API and the MCP dispatcher.
class Team {
 public:
  // `pass_meta`: the dispatcher passes each call's _meta to launch-wrapper (--mcp-meta).
  explicit Team(bool dispatcher_records = true, const std::string& tool = "dispatch_food_truck",
                bool pass_meta = true)
      : claude_(claude_or_skip(FLEET_E2E_CACHE)), tool_("mcp__kitchen__" + tool) {
    for (const std::string& dir : {project_, state_}) ::mkdir(dir.c_str(), 0755);
    // The machine "without the suite" must really be without it.
    fleet::test::require_suite_absent(kSystemPath);
    const RunResult installed =
        run_process({FLEET_CMAKE, "--install", FLEET_BUILD_DIR, "--prefix", prefix_});
    REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
    fleet::test::write_dispatcher_config(
        tmp_ / "mcp.json", FLEET_EXAMPLE_DISPATCHER,
        {{"FLEET_DISPATCH_LAUNCHER", std::string(FLEET_E2E_FIXTURES) + "/launcher.sh"},
         {"FLEET_E2E_LAUNCH_WRAPPER", prefix_ + "/bin/launch-wrapper"},
         {"FLEET_DISPATCH_PROGRAM_CLAUDE", claude_},
         {"FLEET_DISPATCH_STATE_DIR", state_},
         {"FLEET_DISPATCH_KITCHEN", "kitchen-1"},
         {"FLEET_DISPATCH_RECORD", dispatcher_records ? "1" : "0"},
         {"FLEET_DISPATCH_TOOL", tool},
         {"FLEET_DISPATCH_WRAPPER_ARGS", fleet::test::kDispatcherWrapperArgs},
         {"FLEET_E2E_NO_META", pass_meta ? "0" : "1"},
         {"FLEET_DISPATCH_JOURNAL", calls_}});
    api_ = std::make_unique<MockMessagesApi>(FLEET_E2E_FIXTURES, tmp_.path());
  }

  std::string home(const std::string& who) const {
    const std::string dir = tmp_ / ("home-" + who);
    ::mkdir(dir.c_str(), 0755);
    return dir;
  }
  std::string suite_path() const { return prefix_ + "/bin:" + kSystemPath; }
  std::string plugin() const { return prefix_ + "/share/fleet-hooks/claude-plugin"; }
  std::string marketplace() const { return prefix_ + "/share/fleet-hooks"; }

  // The plugin as a user gets it: the archive cmake/ClaudePlugin.cmake writes (the step of
  // ./install.sh --package, here from this build's architecture only), unpacked; returns the
  // marketplace directory it holds.
  std::string packaged_marketplace() const {
    const std::string name = "fleet-hooks-claude-plugin-" + std::string(FLEET_VERSION_NUMBER);
    const RunResult packed =
        run_process({FLEET_CMAKE, "-DVERSION=" + std::string(FLEET_VERSION_NUMBER),
                     "-DOUT_DIR=" + tmp_.path(), "-DTREES=" + marketplace(), "-P",
                     std::string(FLEET_SOURCE_DIR) + "/cmake/ClaudePlugin.cmake"});
    REQUIRE_MESSAGE(packed.exit_code == 0, packed.err);
    ::mkdir((tmp_ / "unpacked").c_str(), 0755);
    REQUIRE(run_process({"/bin/tar", "-xzf", tmp_ / (name + ".tar.gz"), "-C", tmp_ / "unpacked"})
                .exit_code == 0);
    return tmp_ / ("unpacked/" + name);
  }

  // A PATH of one directory holding links to `tools` (from kSystemPath) and nothing else.
  std::string only_on_path(const std::vector<std::string>& tools) const {
    const std::string dir = tmp_ / "path-only";
    ::mkdir(dir.c_str(), 0755);
    for (const std::string& tool : tools) {
      std::string target;
      for (const char* bin : {"/usr/bin/", "/bin/"}) {
        if (target.empty() && ::access((bin + tool).c_str(), X_OK) == 0) target = bin + tool;
      }
      REQUIRE_MESSAGE(!target.empty(), tool << " is not in " << kSystemPath);
      REQUIRE(::symlink(target.c_str(), (dir + "/" + tool).c_str()) == 0);
    }
    return dir;
  }
  const std::string& project() const { return project_; }
  const std::string& claude() const { return claude_; }
  std::string store() const { return state_ + "/session_provenance.jsonl"; }
  std::vector<std::string> calls() const { return split_lines(read_file(calls_)); }
  void script(const std::string& json) const { api_->script(json); }

  RunResult fleet_hooks(const std::vector<std::string>& args, const std::string& home,
                        const std::string& path) const {
    std::vector<std::string> argv = {prefix_ + "/bin/fleet-hooks"};
    argv.insert(argv.end(), args.begin(), args.end());
    Env env = {{"HOME", home}, {"PATH", path}};
    if (!config_dir_.empty()) env.emplace_back("CLAUDE_CONFIG_DIR", config_dir_);
    return run_process(argv, {"", env, ""});
  }

  Env claude_env(const std::string& home, const std::string& path) const {
    Env env = api_->client_env();
    env.insert(env.end(), {{"HOME", home}, {"PATH", path}, {"FLEET_HOOKS_STATE_DIR", state_}});
    if (!config_dir_.empty()) env.emplace_back("CLAUDE_CONFIG_DIR", config_dir_);
    return env;
  }

  // From now on Claude Code and fleet-hooks run with CLAUDE_CONFIG_DIR=`dir`.
  void use_config_dir(const std::string& dir) { config_dir_ = dir; }

  // One L3 run of `claude -p` in the project, by a person with `home` and `path`.
  ClaudeRun l3(const std::string& session_id, const std::string& prompt, const std::string& kitchen,
               const std::string& home, const std::string& path,
               const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> argv = {
        claude_,           "-p",          prompt,      "--session-id", session_id,
        "--output-format", "stream-json", "--verbose", "--mcp-config", tmp_ / "mcp.json",
        "--allowedTools",  tool_};
    argv.insert(argv.end(), extra.begin(), extra.end());
    Env env = claude_env(home, path);
    env.emplace_back("FLEET_HOOKS_KITCHEN_ID", kitchen);
    return run_claude(argv, {"", env, project_});
  }

  std::string dispatch_turn(const std::string& input_json) const {
    return fleet::test::dispatch_turn(input_json, tool_);
  }

  // What Claude Code sent back to the model as tool results so far.
  std::string tool_results() const { return api_->tool_results(); }

  // The owner dispatches a worker and resumes it; returns the worker's session id.
  std::string owner_dispatches_and_resumes(const std::string& home, const std::string& path,
                                           const std::vector<std::string>& extra = {}) {
    const std::size_t before = calls().size();
    script(
        R"({"rules":[{"match":"L3-DISPATCH","turns":[)" +
        dispatch_turn(
            R"({"prompt":"L2-WORK build","recipe_name":"implement","step_name":"build"})") +
        "," +
        dispatch_turn(
            R"({"prompt":"L2-WORK continue","recipe_name":"implement","resume_session_id":"{{last_session_id}}"})") +
        R"(,{"text":"done"}]},{"match":"L2-WORK","turns":[{"text":"worker done"}]}]})");
    const ClaudeRun run = l3(kOwner, "L3-DISPATCH build", "kitchen-1", home, path, extra);
    CHECK(run.denials() == 0);
    const auto all = calls();
    REQUIRE(all.size() == before + 2);
    const rapidjson::Document first = fleet::test::json_document(all[before]);
    const rapidjson::Document second = fleet::test::json_document(all[before + 1]);
    const std::string worker = first["result"]["session_id"].GetString();
    CHECK(std::string(second["result"]["session_id"].GetString()) == worker);
    return worker;
  }

  // A stranger (another L3, another kitchen) tries to resume `worker`.
  ClaudeRun stranger_resumes(const std::string& worker, const std::string& home,
                             const std::string& path, const std::vector<std::string>& extra = {}) {
    script(R"({"rules":[{"match":"L3-STRANGER","turns":[)" +
           dispatch_turn(
               R"({"prompt":"L2-WORK steal","recipe_name":"implement","resume_session_id":")" +
               worker + R"("})") +
           R"(,{"text":"gave up"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
    // A new session each time (Claude Code refuses an id whose transcript exists).
    std::string id = kStranger;
    id.back() = static_cast<char>('0' + strangers_++);
    return l3(id, "L3-STRANGER resume", "kitchen-2", home, path, extra);
  }

 private:
  TempDir tmp_;
  std::string claude_;
  std::string prefix_ = tmp_ / "prefix";
  std::string project_ = tmp_ / "project";
  std::string state_ = tmp_ / "state";
  std::string calls_ = tmp_ / "calls.jsonl";
  std::unique_ptr<MockMessagesApi> api_;
  std::string tool_;  // the dispatch tool as Claude Code names it
  int strangers_ = 0;
  std::string config_dir_;  // CLAUDE_CONFIG_DIR, when not empty
};

}  // namespace

TEST_CASE(
    "e2e: committed project settings - a machine without the suite blocks - one with it guards") {
  Team team;
  const std::string owner_home = team.home("owner");
  // The owner installs the suite in a prefix and wires the project the portable way.
  const RunResult install =
      team.fleet_hooks({"install", "--project", team.project()}, owner_home, team.suite_path());
  REQUIRE_MESSAGE(install.exit_code == 0, install.err);
  CHECK(read_file(team.project() + "/.claude/settings.json").find(team.plugin()) ==
        std::string::npos);

  // A teammate's machine: another HOME, a PATH without the suite. The resume is blocked,
  // not run, and the model is told why.
  const std::string teammate = team.home("teammate");
  ClaudeRun blocked =
      team.stranger_resumes("0d07e5d0-0000-4000-8000-00000000abcd", teammate, kSystemPath);
  CHECK(blocked.denials() == 1);
  CHECK(team.calls().empty());
  CHECK(team.tool_results().find("resume-guard is not installed on this machine") !=
        std::string::npos);

  // With the suite on PATH: the owner's resume runs, a stranger's is denied by the guard.
  const std::string worker = team.owner_dispatches_and_resumes(teammate, team.suite_path());
  ClaudeRun denied = team.stranger_resumes(worker, teammate, team.suite_path());
  CHECK(denied.denials() == 1);
  CHECK(team.calls().size() == 2);
  CHECK(team.tool_results().find("Refused to resume session '" + worker) != std::string::npos);
}

TEST_CASE("e2e: the plugin through --plugin-dir - recorded by its PostToolUse hook - guarded") {
  Team team(/*dispatcher_records=*/false);
  const std::string home = team.home("owner");
  const std::vector<std::string> plugin = {"--plugin-dir", team.plugin()};
  // No settings, no suite on PATH: only the plugin's own binaries.
  const std::string worker = team.owner_dispatches_and_resumes(home, kSystemPath, plugin);
  const auto owner = fleet::lookup_session(team.store(), worker);
  REQUIRE(owner.status == fleet::StoreLookup::Status::found);
  CHECK(owner.record.caller_session_id == kOwner);  // written by the plugin's writer hook
  CHECK(owner.record.recipe_name == "implement");
  ClaudeRun denied = team.stranger_resumes(worker, team.home("stranger"), kSystemPath, plugin);
  CHECK(denied.denials() == 1);
  CHECK(team.calls().size() == 2);
  CHECK(team.tool_results().find("Refused to resume session '" + worker) != std::string::npos);
  // Without the plugin nothing guards: the same resume runs (the plugin did the denying).
  ClaudeRun unguarded = team.stranger_resumes(worker, team.home("stranger"), kSystemPath);
  CHECK(unguarded.denials() == 0);
}

TEST_CASE("e2e: the plugin through a local marketplace, installed offline for a user") {
  Team team(/*dispatcher_records=*/false);
  const std::string home = team.home("marketplace");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plugin", "marketplace", "add", team.marketplace()},
        std::vector<std::string>{"plugin", "install", "fleet-hooks@fleet-hooks"}}) {
    std::vector<std::string> argv = {team.claude()};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult r = run_process(argv, {"", team.claude_env(home, kSystemPath), ""});
    REQUIRE_MESSAGE(r.exit_code == 0, (r.out + r.err));
  }
  // fleet-hooks check follows enabledPlugins to the installed copy.
  const RunResult check =
      team.fleet_hooks({"check", "--project", team.project()}, home, kSystemPath);
  CHECK_MESSAGE(check.exit_code == 0, check.out);

  const std::string worker = team.owner_dispatches_and_resumes(home, kSystemPath);
  CHECK(fleet::lookup_session(team.store(), worker).record.caller_session_id == kOwner);
  ClaudeRun denied = team.stranger_resumes(worker, home, kSystemPath);
  CHECK(denied.denials() == 1);
  CHECK(team.calls().size() == 2);
}

TEST_CASE(
    "e2e: the packaged plugin installed offline denies a stranger with nothing else on PATH") {
  Team team(/*dispatcher_records=*/false);
  const std::string home = team.home("packaged");
  // "Nothing else": PATH is one directory holding only what this run needs besides Claude Code
  // (started by its absolute path): node, because the MCP dispatcher fixture is a node script
  // (the fleet's own tool, not the suite; it starts launch-wrapper and the worker's claude by
  // absolute paths), and uname, which the plugin's bin/ selector asks for the machine. No
  // suite binary, no build directory, not even a shell's usual tools: Claude Code (2.1.328)
  // finds its shell for hook commands by an absolute path, and the hooks need nothing else.
  // Without uname the selector blocks every dispatch; without node the dispatcher is absent.
  const std::string path = team.only_on_path({"node", "uname"});
  fleet::test::require_suite_absent(path);
  const std::string marketplace = team.packaged_marketplace();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plugin", "marketplace", "add", marketplace},
        std::vector<std::string>{"plugin", "install", "fleet-hooks@fleet-hooks"}}) {
    std::vector<std::string> argv = {team.claude()};
    argv.insert(argv.end(), args.begin(), args.end());
    const RunResult r = run_process(argv, {"", team.claude_env(home, path), ""});
    REQUIRE_MESSAGE(r.exit_code == 0, (r.out + r.err));
  }
  // The plugin checks itself: the copy Claude Code installed (`claude plugin list --json`
  // names it: installPath) holds fleet-hooks, whose check follows enabledPlugins to it.
  const std::string installed =
      home + "/.claude/plugins/cache/fleet-hooks/fleet-hooks/" + FLEET_VERSION_NUMBER;
  const RunResult check =
      run_process({installed + "/bin/fleet-hooks", "check", "--project", team.project()},
                  {"", {{"HOME", home}, {"PATH", path}}, ""});
  CHECK_MESSAGE(check.exit_code == 0, (check.out + check.err));
  CHECK(check.out.find("ok: resume-guard guards dispatch_food_truck") != std::string::npos);

  const std::string worker = team.owner_dispatches_and_resumes(home, path);
  CHECK(fleet::lookup_session(team.store(), worker).record.caller_session_id == kOwner);
  ClaudeRun denied = team.stranger_resumes(worker, home, path);
  CHECK(denied.denials() == 1);
  CHECK(team.calls().size() == 2);
  CHECK(team.tool_results().find("Refused to resume session '" + worker) != std::string::npos);
}

TEST_CASE("e2e: another dispatch tool name - install --tool spawn_worker guards it") {
  // Its dispatcher passes no _meta: with it, a launch of a call no guard saw (spawn_worker,
  // unguarded at first) is refused, as it must be (no caller is certain), and the unguarded
  // stranger's resume this case shows first would not run a worker.
  Team team(/*dispatcher_records=*/true, "spawn_worker", /*pass_meta=*/false);
  const std::string home = team.home("owner");
  // Wired for dispatch_food_truck only, a stranger's spawn_worker resume is not guarded.
  REQUIRE(team.fleet_hooks({"install", "--project", team.project()}, home, team.suite_path())
              .exit_code == 0);
  RunResult check = team.fleet_hooks(
      {"check", "--project", team.project(), "--tool", "spawn_worker"}, home, team.suite_path());
  CHECK(check.exit_code == 1);
  CHECK(check.out.find("error guard-missing: no correctly configured PreToolUse hook runs "
                       "resume-guard for spawn_worker") != std::string::npos);
  const std::string worker = team.owner_dispatches_and_resumes(home, team.suite_path());
  CHECK(team.stranger_resumes(worker, home, team.suite_path()).denials() == 0);
  CHECK(team.calls().size() == 3);

  REQUIRE(team.fleet_hooks({"install", "--project", team.project(), "--tool", "spawn_worker"}, home,
                           team.suite_path())
              .exit_code == 0);
  check = team.fleet_hooks({"check", "--project", team.project(), "--tool", "spawn_worker"}, home,
                           team.suite_path());
  CHECK_MESSAGE(check.exit_code == 0, check.out);
  ClaudeRun denied = team.stranger_resumes(worker, home, team.suite_path());
  CHECK(denied.denials() == 1);
  CHECK(team.calls().size() == 3);
  CHECK(team.tool_results().find("Refused to resume session '" + worker) != std::string::npos);
  // The owner still resumes it.
  team.script(R"({"rules":[{"match":"L3-AGAIN","turns":[)" +
              team.dispatch_turn(
                  R"({"prompt":"L2-WORK more","recipe_name":"implement","resume_session_id":")" +
                  worker + R"("})") +
              R"(,{"text":"ok"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
  CHECK(team.l3("c0ffee00-0000-4000-8000-0000000000a9", "L3-AGAIN", "kitchen-1", home,
                team.suite_path())
            .denials() == 0);
  CHECK(team.calls().size() == 4);
}

TEST_CASE("e2e: --scope user under $CLAUDE_CONFIG_DIR - the settings Claude Code reads guard") {
  Team team;
  const std::string home = team.home("config-dir");
  const std::string config = home + "/.config/claude";
  team.use_config_dir(config);
  // The user's settings where Claude Code reads them; no project settings at all.
  const RunResult install = team.fleet_hooks({"install", "--scope", "user"}, home, kSystemPath);
  REQUIRE_MESSAGE(install.exit_code == 0, install.err);
  CHECK(::access((config + "/settings.json").c_str(), F_OK) == 0);
  CHECK(::access((home + "/.claude/settings.json").c_str(), F_OK) != 0);
  CHECK(::access((team.project() + "/.claude").c_str(), F_OK) != 0);
  const RunResult check =
      team.fleet_hooks({"check", "--project", team.project()}, home, kSystemPath);
  CHECK_MESSAGE(check.exit_code == 0, check.out);

  const std::string worker = team.owner_dispatches_and_resumes(home, kSystemPath);
  ClaudeRun denied = team.stranger_resumes(worker, home, kSystemPath);
  CHECK(denied.denials() == 1);
  CHECK(team.calls().size() == 2);
  CHECK(team.tool_results().find("Refused to resume session '" + worker) != std::string::npos);
}
