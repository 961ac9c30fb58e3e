#pragma once
// Test support: run a real executable the way a user or Claude Code does (stdin, environment,
// working directory) and capture what it prints and how it exits.

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fleet::test {

struct RunOptions {
  std::string stdin_data;
  std::vector<std::pair<std::string, std::string>> env;  // set in the child
  std::string cwd;                                       // "" keeps the current one
};

struct RunResult {
  int exit_code = -1;   // -1 when killed by a signal
  int term_signal = 0;  // the signal that killed it, 0 when it exited
  std::string out;
  std::string err;
};

// Is the environment entry ("NAME=value") a variable the suite reads (CLAUDE_*,
// FLEET_HOOKS_*, AUTOSKILLIT_*)?
bool is_suite_variable(const char* entry);

// Runs argv[0] with argv. The child's environment is this process's minus every variable
// the suite reads (CLAUDE_*, FLEET_HOOKS_*, AUTOSKILLIT_*), with `options.env` set (replacing
// variables of the same name).
RunResult run_process(const std::vector<std::string>& argv, const RunOptions& options = {});

// `argv` as an agent CLI named `cli` (claude, qwen, gemini, …) runs its MCP server: under a
// process of that name that stays its parent (a stand-in: `timeout` linked as
// `dir`/stand-in/`cli`), with `variables` set for `argv` only, as a CLI sets its caller variable
// for the servers it starts and not in its own environment.
std::vector<std::string> under_agent_cli(
    const std::string& dir, const std::string& cli,
    const std::vector<std::pair<std::string, std::string>>& variables,
    const std::vector<std::string>& argv);

// Runs argv under `env -i` with only `env` ("NAME=value" entries) in its environment: nothing
// is inherited, as on a fresh account or a clean CI step.
RunResult run_with_only_env(const std::vector<std::string>& env, std::vector<std::string> argv,
                            const RunOptions& options = {});

// A process running in the background whose stdout and stderr are collected as it runs.
class BackgroundProcess {
 public:
  explicit BackgroundProcess(const std::vector<std::string>& argv, const RunOptions& options = {});
  ~BackgroundProcess();  // kills it (SIGKILL) if still running
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;

  int pid() const { return pid_; }
  // Reads output until stdout contains `text` or `timeout_ms` passes; true when it does.
  bool wait_for_output(const std::string& text, int timeout_ms = 20000);
  // Waits for the process to exit (collecting output); false on timeout.
  bool wait(int timeout_ms = 30000);
  void signal(int sig) const;
  const RunResult& result() const { return result_; }

 private:
  void pump(int timeout_ms);

  int pid_ = -1;
  int out_ = -1;
  int err_ = -1;
  bool exited_ = false;
  RunResult result_;
};

// Starts argv in the background with stdin/stdout/stderr on /dev/null; returns its pid.
int spawn_detached(const std::vector<std::string>& argv,
                   const std::vector<std::pair<std::string, std::string>>& env = {});

// Forks `children` processes that run at the same time; child c runs argv_of(c, i) for i = 0
// .. runs_each - 1, one after another, and exits 0 when every run exited 0 (1 otherwise).
// Returns the children's pids (wait for them with wait_exit).
std::vector<int> fork_runners(
    int children, int runs_each,
    const std::function<std::vector<std::string>(int child, int run)>& argv_of);

// Waits for the child `pid` (through EINTR): its exit code, 128+N when signal N killed it, -1
// when it cannot be waited for.
int wait_exit(int pid);

}  // namespace fleet::test
