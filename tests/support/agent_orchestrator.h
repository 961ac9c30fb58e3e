#pragma once
// Test support for the end-to-end tests of the agent CLIs (Codex, Gemini, Copilot, Qwen Code,
// OpenCode) as L3 orchestrators: the real CLI that tests/e2e/setup.sh installed, run headless in a
// private home against the scripted model API (tests/e2e/fixtures/mock_api.mjs, which speaks each
// CLI's wire), with the stdio MCP dispatcher (examples/dispatcher/dispatcher.mjs) as the server
// "kitchen"; the workers it launches through launch-wrapper are Claude Code sessions.

#include <memory>
#include <string>
#include <vector>

#include "agent_configs.h"
#include "claude_cli.h"
#include "process.h"
#include "temp_dir.h"

namespace fleet::test {

// What one agent CLI needs from the tests: its name for --agent and setup.sh, and what it tells
// the model when a hook (or OpenCode's plugin) blocks a call.
struct AgentCliProfile {
  std::string name;            // "codex", "gemini", "copilot", "qwen" or "opencode"
  std::string blocked_prefix;  // the text the model gets for a denied call, before the reason
};
const AgentCliProfile& agent_profile(const std::string& name);

// Where the MCP dispatcher (examples/dispatcher/dispatcher.mjs) of an L3 runs its Claude Code
// workers.
struct DispatcherPaths {
  std::string home;    // HOME
  std::string path;    // PATH, the suite on it
  std::string bin;     // holds launch-wrapper
  std::string claude;  // the Claude Code CLI
  std::string state;   // the state directory
  std::string calls;   // the JSON-lines file of the calls it ran
  // Each worker recorded by `launch-wrapper --record-provenance` with no caller passed (the
  // guard's caller handover), instead of by the L3's post-tool hook.
  bool record_at_launch = false;
  std::string tool = "";   // its tool (FLEET_DISPATCH_TOOL); "" : dispatch_food_truck
  bool worktrees = false;  // FleetOptions::worktrees
  // FleetOptions::detached: the launcher that runs launch-wrapper outside the L3's process
  // tree (tests/e2e/fixtures/detached_launch.sh); "" : launch-wrapper itself.
  std::string detached_launcher = "";
};
// The dispatcher's environment: `api` for its Claude Code workers (kitchen-1) and `paths`; no
// record of its own (the L3's post-tool hook records the worker) unless paths.record_at_launch.
EnvList mcp_dispatcher_env(const MockMessagesApi& api, const DispatcherPaths& paths);
// The member `key` of the object `object` ("input" or "result") in a dispatcher's call line: a
// string as it is, another value as JSON ("0" for an exit code), "" when absent; REQUIREs the
// object.
std::string call_field(const std::string& call_line, const char* object, const char* key);

// One headless run of the CLI as an L3 orchestrator.
struct AgentRun {
  RunResult process;
  // The session the CLI reported (Codex: thread.started; Gemini: -o json; Copilot: the
  // sessionId of its --output-format json "result" line).
  std::string session_id;
};

// How an AgentFleet is set up beyond its CLI.
struct FleetOptions {
  // The dispatcher records each worker through `launch-wrapper --record-provenance` with no
  // caller, and the workers are a script standing in for Claude Code that writes the store's
  // line of its own session, as it starts, to seen(<its id>).
  bool record_at_launch = false;
  // The dispatcher's tool; install wires it with --tool when it is not dispatch_food_truck.
  std::string tool = "dispatch_food_truck";
  // Qwen Code: folder trust turned on in the user's settings.
  bool folder_trust = false;
  // Variables the L3's CLI inherits, as from another CLI it was started under (a Claude Code
  // session's shell: CLAUDE_CODE_SESSION_ID).
  std::vector<std::pair<std::string, std::string>> inherited = {};
  // The project is a git repository, and the dispatcher starts each fresh worker in a worktree
  // of its own (FLEET_DISPATCH_WORKTREES=1) and names no state directory: the launch records
  // where the guard judged the call.
  bool worktrees = false;
  // The dispatcher runs launch-wrapper detached from the L3's process tree (as a dispatcher
  // service that CLIs reach over a socket does): no handover by ancestry reaches the launch,
  // only what the call itself carries (--mcp-call) can name its caller.
  bool detached = false;
  // The CLI's MCP server "kitchen" is no dispatcher of its own but a bridge to the dispatcher
  // service listening on this Unix socket (tests/e2e/fixtures/dispatcher_service.mjs), which
  // another L3 started (dispatcher_service); "" : the example dispatcher itself.
  std::string service_socket = "";
};

class AgentFleet {
 public:
  // Sets up a private home, project, state directory and the suite on PATH, the CLI configured
  // for the mock API and the dispatcher, no hooks wired yet; skips (fails where CI is set)
  // when setup.sh could not install the CLI or Claude Code. `fixtures_dir` holds the mock and
  // the dispatcher, `cache_dir` is setup.sh's cache; `options` says the rest.
  AgentFleet(const std::string& agent, const std::string& fixtures_dir,
             const std::string& cache_dir, const FleetOptions& options);
  AgentFleet(const std::string& agent, const std::string& fixtures_dir,
             const std::string& cache_dir, bool record_at_launch = false)
      : AgentFleet(agent, fixtures_dir, cache_dir,
                   FleetOptions{.record_at_launch = record_at_launch}) {}
  ~AgentFleet();

  // Wires the hooks into the project as a user does: `fleet-hooks install --agent <cli>`
  // (.codex/hooks.json, the "hooks" key of .gemini/settings.json, OpenCode's plugin, …; with
  // --tool for FleetOptions::tool); REQUIREs exit 0.
  void install() const;
  // `fleet-hooks check --agent <cli>` on the project, as a user runs it.
  RunResult check() const;
  // `fleet-hooks <args> --project <project>` as a user runs it (no --agent added).
  RunResult fleet_hooks(const std::vector<std::string>& args) const;
  // Trusts the project and its hooks: Codex, `fleet-hooks install --agent codex --trust` (the
  // project and the suite's hooks in $CODEX_HOME/config.toml); Gemini, the folder in
  // ~/.gemini/trustedFolders.json; Copilot, the folder in ~/.copilot/config.json, as
  // Copilot's own trust prompt writes it; Qwen Code, the folder in ~/.qwen/trustedFolders.json.
  void trust() const;
  // From now on the CLI and the suite's programs run with the PATH the tests started with, which
  // holds no suite (REQUIREd).
  void take_suite_off_path();

  // The mock API's script (mock_api.mjs's format); dispatch_turn gives a turn calling the
  // dispatch tool with `input_json` the way this CLI's model calls it.
  void script(const std::string& json) const;
  std::string dispatch_turn(const std::string& input_json) const;

  // One headless run with `prompt` in `kitchen` (FLEET_HOOKS_KITCHEN_ID), `extra` options
  // added to the command line; session_id is empty when the CLI reported none.
  AgentRun l3(const std::string& prompt, const std::string& kitchen,
              const std::vector<std::string>& extra = {}) const;
  // The command line of such a run (l3).
  std::vector<std::string> l3_command(const std::string& prompt,
                                      const std::vector<std::string>& extra = {}) const;
  // The session a run's stdout `out` reports (AgentRun::session_id).
  std::string session_in(const std::string& out) const;
  // `argv` started in the background as l3 runs the CLI: in the project, with the CLI's
  // environment in `kitchen` (an `opencode serve`, or an L3 that must outlive another's run).
  std::unique_ptr<BackgroundProcess> background(const std::vector<std::string>& argv,
                                                const std::string& kitchen) const;
  // The shell command that starts this fleet's dispatcher as a service on the Unix socket
  // `socket` (tests/e2e/fixtures/dispatcher_service.mjs serve, each connection served by the
  // example dispatcher with this fleet's dispatcher environment), for an L3's shell tool; the
  // service runs until `socket`.stop exists.
  std::string dispatcher_service(const std::string& socket) const;
  // `launch-wrapper ARGS` in `cwd` with the CLI's environment (kitchen-1), with
  // --state-dir and a --summary-file of its own; returns the run and that summary.
  std::pair<RunResult, std::string> launch(const std::vector<std::string>& args,
                                           const std::string& cwd) const;

  // An L3 (run with `extra` options) dispatches a worker and resumes it in the same session:
  // both calls run, and the worker is recorded by the L3's after-tool hook as the L3's. Then a
  // stranger — another L3 session in another kitchen — tries to resume that worker: the guard
  // denies it, the CLI tells its model so, and the dispatcher never runs. REQUIREs / CHECKs
  // each step; returns the owner's session id.
  std::string check_guarded(const std::vector<std::string>& extra = {}) const;

  // Another L3, in kitchen-2, tries to resume `worker` (owned by the L3 session `owner`):
  // CHECKs that the guard denies it, the model is told why, and the dispatcher, which ran
  // `calls` tool calls so far, runs none.
  void check_stranger_denied(const std::string& worker, const std::string& owner,
                             std::size_t calls) const;

  // Writes a record of `worker` dispatched by `caller` in `kitchen` (provenance-writer record).
  void record(const std::string& worker, const std::string& caller,
              const std::string& kitchen) const;

  // The tool calls the dispatcher ran, as {"input", "result"} JSON lines.
  std::vector<std::string> calls() const;
  std::string store() const { return state_ + "/session_provenance.jsonl"; }
  // With record_at_launch: where worker `session` wrote its record as it started.
  std::string seen(const std::string& session) const { return state_ + "/seen-" + session; }
  // The text of every tool result the CLI sent back to the model so far, a request a line.
  std::string tool_results() const { return api_->tool_results(); }
  const AgentCliProfile& profile() const { return profile_; }
  const std::string& project() const { return project_; }
  const std::string& state() const { return state_; }
  // The CLI's executable.
  const std::string& cli() const { return cli_; }
  // The environment the suite's programs run with here (HOME, PATH, CODEX_HOME, state dir).
  std::vector<std::pair<std::string, std::string>> suite_env() const;

 private:
  void configure_codex() const;
  void configure_gemini() const;
  std::string copilot_mcp_config() const;
  std::vector<std::pair<std::string, std::string>> dispatcher_env() const;
  // The script the CLI runs as its MCP server "kitchen" (FleetOptions::service_socket).
  std::string mcp_server() const;
  // The environment of one headless run (l3).
  EnvList cli_env(const std::string& kitchen) const;

  const AgentCliProfile& profile_;
  FleetOptions options_;
  std::string fixtures_;
  std::string cache_dir_;
  TempDir tmp_;
  std::string cli_;
  std::string claude_;
  std::string home_ = tmp_ / "home";
  std::string codex_home_ = tmp_ / "codex-home";
  std::string project_ = tmp_ / "project";
  std::string bin_ = tmp_ / "bin";
  std::string state_ = tmp_ / "state";
  std::string calls_ = tmp_ / "calls.jsonl";
  std::string path_;
  std::unique_ptr<MockMessagesApi> api_;
  mutable int launches_ = 0;
};

}  // namespace fleet::test
