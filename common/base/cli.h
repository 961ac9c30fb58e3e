#pragma once
// The command lines of the suite's programs, parsed by CLI11 and answered the same way in
// all four: a usage error is one line on stderr that starts with the program (and
// subcommand) name and names the word that is wrong, with the closest known option or
// subcommand when one is close (`--stict` → `did you mean --strict?`); a missing or unknown
// subcommand also lists the subcommands; --help shows placeholders a person reads (`--grace
// SECONDS`, `--scope project|local|user`) instead of CLI11's type annotations; and a usage
// error exits with the status each program documents (a hook must never exit 2, which would
// block the tool call).
// Failing: a usage error is an expected outcome, returned in Parsed::exit_status after its
// line is printed (the one place in common/ that prints: CLI11's --help and usage report);
// nothing here throws.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/exit_status.h"

namespace fleet::cli {

struct Settings {
  int usage_exit = exit_status::usage;  // exit status of a usage error
  // Subcommands whose usage errors exit differently (e.g. a hook subcommand: 1).
  std::vector<std::pair<std::string, int>> subcommand_usage_exit;
  std::string usage;   // usage lines of the top-level --help ("" generates one)
  std::string footer;  // shown at the end of the top-level --help (e.g. the exit statuses)
  // Options end at the first word that is not an option (as with timeout(1) or env(1)); that
  // word and everything after it is the command. A leading "--" is accepted and dropped.
  bool command_follows = false;
  // Sets what only --help shows and a run does not need (a description built from the agent
  // rows): called just before --help or --version is printed, never on a run, so that a hook
  // builds nothing at start-up that its call does not use.
  std::function<void(CLI::App&)> describe;
};

struct Parsed {
  // Set when the program is done: --help or --version was printed (0), or a usage error was
  // reported on stderr (its exit status).
  std::optional<int> exit_status;
  std::vector<std::string> command;  // with Settings::command_follows
};

// The usage line --help shows for `app` (a subcommand): its manual's synopsis, where the
// generated one cannot say it (options that exclude each other, written as alternatives).
void set_usage(CLI::App& app, const std::string& usage);

// Where a state directory is when --state-dir is not given: as base/paths.h resolves it, or,
// for a launch that records its caller (process/launch_caller.h, launch_state_dir), first the
// one resume-guard judged that caller's dispatch call with, then the project's.
enum class StateDirDefault { resolved, guard_judged };

// Adds --state-dir DIR to `app`, into `state_dir`, with the help every program gives it:
// `what` the directory is, then where it is when the option is not given (`fallback`).
CLI::Option* add_state_dir_option(CLI::App& app, std::string& state_dir,
                                  std::string_view what = "State directory",
                                  StateDirDefault fallback = StateDirDefault::resolved);

// Parses argv into `app` (whose options and subcommands are defined) and reports as above.
Parsed parse(CLI::App& app, int argc, const char* const* argv, const Settings& settings);

}  // namespace fleet::cli
