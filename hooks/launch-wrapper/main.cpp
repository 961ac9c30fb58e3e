// launch-wrapper: the wrapper a dispatcher puts around every agent launch
// (launch-wrapper [options] -- claude -p …), plus `stop` and `status` for a member's agent.

#include <unistd.h>
#include <csignal>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "base/cli.h"
#include "base/error.h"
#include "base/exit_status.h"
#include "launch/agent_control.h"
#include "launch/run.h"
#include "process/standard_fds.h"
#include "version.h"
#include "wrapper_command_line.h"

namespace {

// One write(2), no stdio buffer: a line leaves whole and in order with the agent's output the
// wrapper relays to the same descriptor.
void write_stderr(const std::string& text) {
  (void)!::write(STDERR_FILENO, text.data(), text.size());
}

// Once the launch is over (the agent has exited, or never started): while it ran, the
// launch ignored SIGPIPE itself and gave the agent the disposition it found; now a launcher
// that closed its end of stderr must not turn the exit status into death by SIGPIPE.
void ignore_sigpipe() {
  std::signal(SIGPIPE, SIG_IGN);
}

// What the launch says while it runs: "launch-wrapper: <line>" on stderr.
void notice(const std::string& line) {
  write_stderr("launch-wrapper: " + line + "\n");
}

int run_stop(const fleet::LaunchWrapperCommandLine& line) {
  const fleet::AgentStop result = fleet::stop_member_agent(
      fleet::member_registry(line.state_dir(), line.member()), line.grace());
  const std::string outcome(fleet::to_string(result.outcome));
  std::printf("%s: %s\n", outcome.c_str(), result.message.c_str());
  return result.outcome == fleet::AgentStop::Outcome::failed ? fleet::exit_status::failure
                                                             : fleet::exit_status::ok;
}

int run_status(const fleet::LaunchWrapperCommandLine& line) {
  const fleet::MemberStatus status =
      fleet::member_status(fleet::member_registry(line.state_dir(), line.member()));
  std::fwrite(status.json.data(), 1, status.json.size(), stdout);
  return status.state == fleet::MemberState::alive ? fleet::exit_status::ok
                                                   : fleet::exit_status::failure;
}

}  // namespace

int main(int argc, char** argv) {
  // Before anything else: the parent that started the wrapper (a retry is only for it), and
  // 0-2 occupied so that nothing the wrapper opens takes their numbers.
  const pid_t parent = ::getppid();
  fleet::occupy_standard_fds();
  CLI::App app{
      "Runs an agent command in its own process group: announces FLEET_PID:<pid> as the first "
      "line of stdout, records the pid for the member, stops the member's previous agent after "
      "verifying it, forwards signals, and retries only when the failure calls for it.",
      "launch-wrapper"};
  app.set_version_flag("--version", std::string("launch-wrapper ") + fleet::kVersion);
  const fleet::LaunchWrapperCommandLine line(app);
  const fleet::cli::Parsed parsed =
      fleet::cli::parse(app, argc, argv, fleet::LaunchWrapperCommandLine::settings());
  if (parsed.exit_status) return *parsed.exit_status;
  try {
    if (line.stop_requested()) return run_stop(line);
    if (line.status_requested()) return run_status(line);
    const fleet::LaunchOptions options = line.launch_options(parsed.command, parent);
    const fleet::LaunchOutcome outcome = fleet::run_launch(options, notice);
    ignore_sigpipe();
    if (!options.quiet) write_stderr(outcome.summary);
    if (outcome.summary_file_problem) notice(*outcome.summary_file_problem);
    return outcome.exit_status;
  } catch (const fleet::Error& e) {
    ignore_sigpipe();
    notice(e.what());
    return fleet::exit_status::wrapper_failure;
  }
}
