#pragma once
// launch-wrapper's command line: its options with their help text, the `stop` and `status`
// subcommands, and the conversion of what was parsed into LaunchOptions.

#include <chrono>
#include <string>

#include <CLI/CLI.hpp>

#include "agents/agents.h"
#include "base/cli.h"
#include "launch/options.h"

namespace fleet {

class LaunchWrapperCommandLine {
 public:
  // Defines every option and subcommand on `app`.
  explicit LaunchWrapperCommandLine(CLI::App& app);

  // The usage lines, the exit statuses for --help, and the usage error status (125).
  static cli::Settings settings();

  bool stop_requested() const { return stop_->parsed(); }
  bool status_requested() const { return status_->parsed(); }
  // With stop or status: the member, its --state-dir and --grace.
  const std::string& member() const { return member_; }
  const std::string& state_dir() const { return state_dir_; }
  std::chrono::milliseconds grace() const;

  // The launch's options, with `command` (what follows the options) and `parent` (the
  // wrapper's parent when it started).
  LaunchOptions launch_options(const std::vector<std::string>& command, pid_t parent) const;

 private:
  // The options and subcommands, group by group, in the order --help lists them.
  void add_launch_options(CLI::App& app);
  void add_retry_options(CLI::App& app);
  void add_provenance_options(CLI::App& app);
  void add_completion_options(CLI::App& app);
  void add_session_options(CLI::App& app);
  void add_output_options(CLI::App& app);
  void add_subcommands(CLI::App& app);
  void add_member_options(CLI::App& sub);

  LaunchOptions options_;
  const AgentCli* agent_ = nullptr;  // add_agent_option points it at the default
  double grace_seconds_ = 5;
  double drain_seconds_ = 5;
  int poll_ms_ = 500;
  bool no_inotify_ = false;
  std::string containment_ = "auto";
  std::string announce_ = "agent";
  std::string on_output_closed_ = "spool";
  std::string stdout_ = "live";
  std::string member_;
  std::string state_dir_;
  CLI::App* stop_ = nullptr;
  CLI::App* status_ = nullptr;
};

}  // namespace fleet
