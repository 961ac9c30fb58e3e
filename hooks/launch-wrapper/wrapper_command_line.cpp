#include "wrapper_command_line.h"

#include <limits>

#include "agents/agent_option.h"
#include "agents/agent_texts.h"
#include "agents/caller_options.h"
#include "base/exit_status.h"

namespace fleet {
namespace {

std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

}  // namespace

LaunchWrapperCommandLine::LaunchWrapperCommandLine(CLI::App& app) {
  add_launch_options(app);
  add_retry_options(app);
  add_provenance_options(app);
  add_completion_options(app);
  add_session_options(app);
  add_output_options(app);
  add_subcommands(app);
}

// The agent CLI, the member, its state and how its agent is stopped.
void LaunchWrapperCommandLine::add_launch_options(CLI::App& app) {
  LaunchOptions& o = options_;
  add_agent_option(app, agent_)
      ->description(
          "The agent CLI the command runs: its session id, resume and session file forms and "
          "its error texts are used (default: " +
          std::string(default_agent_cli().name) + ")");
  app.add_option("--member", o.member,
                 "Fleet member name: keeps launch/<member>.json and stops the member's previous "
                 "agent first");
  cli::add_state_dir_option(app, o.state_dir, "State directory",
                            cli::StateDirDefault::guard_judged);
  app.add_option("--announce-prefix", o.announce_prefix,
                 "Prefix of the first stdout line (default FLEET_PID:)");
  app.add_option("--grace", grace_seconds_,
                 "Seconds between TERM and KILL when stopping a process group (default 5)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--leave-children", o.leave_children,
               "Do not stop processes left in the agent's group after it exits");
}

// Retries, their backoff and the summary line on stderr.
void LaunchWrapperCommandLine::add_retry_options(CLI::App& app) {
  LaunchOptions& o = options_;
  app.add_option("--retries", o.retry.retries,
                 "Retries after a stale-session or retryable failure (default 0)")
      ->check(CLI::Range(0, 100));
  app.add_option("--backoff", o.retry.backoff_seconds,
                 "Base seconds of the exponential backoff between retryable attempts (default 1)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--quiet", o.quiet, "No JSON summary line on stderr at the end");
}

// The launched session's id and its ownership record.
void LaunchWrapperCommandLine::add_provenance_options(CLI::App& app) {
  LaunchOptions& o = options_;
  app.add_flag("--record-provenance", o.provenance.record,
               "Append the launched session's ownership record before the agent runs");
  app.add_flag("--assign-session-id", o.session.assign_session_id,
               "Generate a UUIDv4 and add --session-id <uuid> to the command (the CLIs that "
               "pick their own ids, " +
                   self_naming_clis_text() +
                   ", have theirs captured from their JSON output on stdout instead)");
  app.add_option("--session-id", o.session.session_id,
                 "The launched session's id (default: the command's --session-id)");
  add_caller_options(app, o.provenance.caller_session_id, o.provenance.call,
                     "The launching session");
  app.add_option("--kitchen-id", o.provenance.kitchen_id,
                 "Kitchen (default: $FLEET_HOOKS_KITCHEN_ID, $AUTOSKILLIT_CAMPAIGN_ID)");
  app.add_option("--dispatch-id", o.provenance.dispatch_id, "Dispatch id for the record");
  app.add_option("--recipe-name", o.provenance.recipe_name, "Recipe for the record");
  app.add_option("--step-name", o.provenance.step_name, "Step for the record");
  app.add_flag("--fsync", o.provenance.fsync, "fdatasync the provenance store after the append");
}

// The completion marker, the transcript that carries it, the drain and the summary file.
void LaunchWrapperCommandLine::add_completion_options(CLI::App& app) {
  LaunchOptions& o = options_;
  app.add_option("--completion-marker", o.completion.marker,
                 "Stop the agent after its transcript shows this marker in an assistant text "
                 "block (on a line of its own); exit 0 then");
  app.add_option("--session-log", o.completion.session_log,
                 "Transcript to watch (default: where the agent CLI records its turns, " +
                     session_files_text() + "; doc/agents.md)");
  app.add_option("--record-type", o.completion.record_type,
                 "Transcript record type that may carry the marker (default: the agent CLI's, " +
                     record_types_text() + ")");
  app.add_flag("--marker-anywhere", o.completion.marker_anywhere,
               "Accept the marker anywhere in a text block, not only on a line of its own");
  app.add_option("--poll-ms", poll_ms_, "Poll interval when inotify is unavailable (default 500)")
      ->check(CLI::Range(10, 60000));
  app.add_flag("--no-inotify", no_inotify_, "Poll the transcript instead of using inotify");
  app.add_option("--drain", drain_seconds_,
                 "Seconds the agent gets to exit by itself after completion, or after TERM/USR1 "
                 "with --session-key (default 5)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--summary-file", o.summary_file, "Also write the JSON summary line here");
}

// The keyed session kept across launches.
void LaunchWrapperCommandLine::add_session_options(CLI::App& app) {
  LaunchOptions& o = options_;
  app.add_option("--session-key", o.session.session_key,
                 "Keep sessions/<key>.json: resume the session next time when a drain timed out");
  app.add_option("--max-restarts", o.session.max_restarts,
                 "Interrupted restarts in a row after which the session is suspended (default 3)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--resume-note-arg", o.session.resume_note_arg,
                 "Pass the resume note to the agent as this option's value too (e.g. "
                 "--append-system-prompt)");
}

// Containment, the announce line and where the agent's output goes.
void LaunchWrapperCommandLine::add_output_options(CLI::App& app) {
  LaunchOptions& o = options_;
  app.add_option("--containment", containment_,
                 "How the launch's processes are found when they leave the agent's group: "
                 "auto (a cgroup v2 where one can be created, and a token in the "
                 "environment), cgroup (required), token (environment only)")
      ->check(CLI::IsMember(all_names<ContainmentMode>()));
  app.add_option("--announce", announce_,
                 "Which pid FLEET_PID names: agent (each attempt's agent, one line per "
                 "attempt) or wrapper (this wrapper's pid, once; valid across retries)")
      ->check(CLI::IsMember(all_names<AnnounceMode>()));
  app.add_option("--on-output-closed", on_output_closed_,
                 "When the launcher's end of stdout/stderr closes mid-run: spool (the agent "
                 "runs on, its output goes to <state dir>/output/) or stop (stop it at once)")
      ->check(CLI::IsMember({"spool", "stop"}));
  app.add_option("--stdout", stdout_,
                 "Which of the agent's stdout the wrapper's stdout gets: live (every attempt's, "
                 "as it arrives) or final (only the final attempt's, when the launch ends: for "
                 "launchers that parse the whole stream at the end, such as apra-fleet)")
      ->check(CLI::IsMember(all_names<StdoutMode>()));
  app.add_option("--stdout-limit", o.stdout_limit,
                 "With --stdout final: how much of an attempt's stdout is kept, its last bytes "
                 "(default 64MiB; suffixes k, M, G, KiB, MiB, GiB)")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(1024.0, std::numeric_limits<double>::max()));
}

// `stop` and `status`.
void LaunchWrapperCommandLine::add_subcommands(CLI::App& app) {
  stop_ = app.add_subcommand("stop", "Stop the member's recorded agent (verified first)");
  add_member_options(*stop_);
  stop_->add_option("--grace", grace_seconds_, "Seconds between TERM and KILL (default 5)")
      ->check(CLI::NonNegativeNumber);
  status_ = app.add_subcommand(
      "status", "Print the member's record and whether it is alive (exit 0 alive, 1 not)");
  add_member_options(*status_);
}

// What names the member of `stop` and `status`.
void LaunchWrapperCommandLine::add_member_options(CLI::App& sub) {
  sub.add_option("--member", member_, "Fleet member name")->required();
  cli::add_state_dir_option(sub, state_dir_);
}

cli::Settings LaunchWrapperCommandLine::settings() {
  cli::Settings cli;
  cli.usage_exit = exit_status::wrapper_failure;
  cli.command_follows = true;
  cli.usage =
      "launch-wrapper [OPTIONS] [--] COMMAND [ARGS...]\n"
      "       launch-wrapper stop --member NAME [--state-dir DIR] [--grace SECONDS]\n"
      "       launch-wrapper status --member NAME [--state-dir DIR]\n"
      "Options end at COMMAND, the first word that is not an option (or the word after --).";
  cli.footer =
      "Exit status:\n"
      "  0       the agent exited 0, or its completion marker was seen\n"
      "  N       the agent's own exit status (after the last attempt)\n"
      "  128+N   signal N ended the agent\n"
      "  127     the command was not found (nothing is started or announced)\n"
      "  126     the command could not be executed\n"
      "  125     launch-wrapper itself failed (usage error, invalid member, unwritable state, a\n"
      "          previous agent that could not be stopped)\n"
      "stop exits 0, or 1 when the group is still alive after SIGKILL; status exits 0 when the\n"
      "agent is alive, 1 when it is not.";
  return cli;
}

std::chrono::milliseconds LaunchWrapperCommandLine::grace() const {
  return to_ms(grace_seconds_);
}

LaunchOptions LaunchWrapperCommandLine::launch_options(const std::vector<std::string>& command,
                                                       pid_t parent) const {
  LaunchOptions options = options_;
  options.agent = find_agent_profile(agent_->name);
  options.provenance.caller_clis = agent_clis();
  options.provenance.caller_profiles = agent_profiles();
  options.command = command;
  options.parent = parent;
  options.grace = to_ms(grace_seconds_);
  options.drain = to_ms(drain_seconds_);
  options.completion.poll_interval = std::chrono::milliseconds(poll_ms_);
  options.completion.use_inotify = !no_inotify_;
  options.containment =
      from_string<ContainmentMode>(containment_).value_or(ContainmentMode::automatic);
  options.stop_on_output_closed = on_output_closed_ == "stop";
  options.announce = from_string<AnnounceMode>(announce_).value_or(AnnounceMode::agent);
  options.stdout_mode = from_string<StdoutMode>(stdout_).value_or(StdoutMode::live);
  return options;
}

}  // namespace fleet
