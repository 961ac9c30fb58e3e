// launch-wrapper: the wrapper a dispatcher puts around every agent launch
// (launch-wrapper [options] -- claude -p …), plus `stop` and `status` for a member's agent.

#include <unistd.h>
#include <chrono>
#include <cstdio>

#include "cli11.h"

#include "agent_control.h"
#include "cli.h"
#include "error.h"
#include "exit_status.h"
#include "launch_registry.h"
#include "launch_wrapper.h"
#include "paths.h"
#include "standard_fds.h"
#include "version.h"

namespace {

std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
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
  fleet::LaunchOptions options;
  options.parent = parent;
  double grace_seconds = 5;
  const std::string state_dir_help =
      "State directory (default: $FLEET_HOOKS_STATE_DIR, $AUTOSKILLIT_STATE_DIR, or "
      "<project>/.autoskillit/temp[/<campaign>])";
  app.add_option("--member", options.member,
                 "Fleet member name: keeps launch/<member>.json and stops the member's previous "
                 "agent first");
  app.add_option("--state-dir", options.state_dir, state_dir_help);
  app.add_option("--announce-prefix", options.announce_prefix,
                 "Prefix of the first stdout line (default FLEET_PID:)");
  app.add_option("--grace", grace_seconds,
                 "Seconds between TERM and KILL when stopping a process group (default 5)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--leave-children", options.leave_children,
               "Do not stop processes left in the agent's group after it exits");
  app.add_option("--retries", options.retries,
                 "Retries after a stale-session or retryable failure (default 0)")
      ->check(CLI::Range(0, 100));
  app.add_option("--backoff", options.backoff_seconds,
                 "Base seconds of the exponential backoff between retryable attempts (default 1)")
      ->check(CLI::NonNegativeNumber);
  app.add_flag("--quiet", options.quiet, "No JSON summary line on stderr at the end");
  app.add_flag("--record-provenance", options.record_provenance,
               "Append the launched session's ownership record before the agent runs");
  app.add_flag("--assign-session-id", options.assign_session_id,
               "Generate a UUIDv4 and add --session-id <uuid> to the command");
  app.add_option("--session-id", options.session_id,
                 "The launched session's id (default: the command's --session-id)");
  app.add_option("--caller-session-id", options.caller_session_id,
                 "The launching session (default: $CLAUDE_CODE_SESSION_ID)");
  app.add_option("--kitchen-id", options.kitchen_id,
                 "Kitchen (default: $FLEET_HOOKS_KITCHEN_ID, $AUTOSKILLIT_CAMPAIGN_ID)");
  app.add_option("--dispatch-id", options.dispatch_id, "Dispatch id for the record");
  app.add_option("--recipe-name", options.recipe_name, "Recipe for the record");
  app.add_option("--step-name", options.step_name, "Step for the record");
  app.add_flag("--fsync", options.fsync, "fdatasync the provenance store after the append");
  double drain_seconds = 5;
  int poll_ms = 500;
  bool no_inotify = false;
  app.add_option("--completion-marker", options.completion_marker,
                 "Stop the agent after its transcript shows this marker in an assistant text "
                 "block (on a line of its own); exit 0 then");
  app.add_option(
      "--session-log", options.session_log,
      "Transcript to watch (default: ~/.claude/projects/<munged cwd>/<session id>.jsonl, "
      "under $CLAUDE_CONFIG_DIR when set)");
  app.add_option("--record-type", options.record_type,
                 "Transcript record type that may carry the marker (default assistant)");
  app.add_flag("--marker-anywhere", options.marker_anywhere,
               "Accept the marker anywhere in a text block, not only on a line of its own");
  app.add_option("--poll-ms", poll_ms, "Poll interval when inotify is unavailable (default 500)")
      ->check(CLI::Range(10, 60000));
  app.add_flag("--no-inotify", no_inotify, "Poll the transcript instead of using inotify");
  app.add_option("--drain", drain_seconds,
                 "Seconds the agent gets to exit by itself after completion, or after TERM/USR1 "
                 "with --session-key (default 5)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--summary-file", options.summary_file, "Also write the JSON summary line here");
  app.add_option("--session-key", options.session_key,
                 "Keep sessions/<key>.json: resume the session next time when a drain timed out");
  app.add_option("--max-restarts", options.max_restarts,
                 "Interrupted restarts in a row after which the session is suspended (default 3)")
      ->check(CLI::Range(1, 1000));
  app.add_option("--resume-note-arg", options.resume_note_arg,
                 "Pass the resume note to the agent as this option's value too (e.g. "
                 "--append-system-prompt)");
  std::string containment = "auto";
  app.add_option("--containment", containment,
                 "How the launch's processes are found when they leave the agent's group: "
                 "auto (a cgroup v2 where one can be created, and a token in the "
                 "environment), cgroup (required), token (environment only)")
      ->check(CLI::IsMember({"auto", "cgroup", "token"}));
  std::string announce = "agent";
  app.add_option("--announce", announce,
                 "Which pid FLEET_PID names: agent (each attempt's agent, one line per "
                 "attempt) or wrapper (this wrapper's pid, once; valid across retries)")
      ->check(CLI::IsMember({"agent", "wrapper"}));
  std::string on_output_closed = "spool";
  app.add_option("--on-output-closed", on_output_closed,
                 "When the launcher's end of stdout/stderr closes mid-run: spool (the agent "
                 "runs on, its output goes to <state dir>/output/) or stop (stop it at once)")
      ->check(CLI::IsMember({"spool", "stop"}));

  std::string member;
  std::string state_dir;
  CLI::App* stop = app.add_subcommand("stop", "Stop the member's recorded agent (verified first)");
  stop->add_option("--member", member, "Fleet member name")->required();
  stop->add_option("--state-dir", state_dir, state_dir_help);
  stop->add_option("--grace", grace_seconds, "Seconds between TERM and KILL (default 5)")
      ->check(CLI::NonNegativeNumber);
  CLI::App* status = app.add_subcommand(
      "status", "Print the member's record and whether it is alive (exit 0 alive, 1 not)");
  status->add_option("--member", member, "Fleet member name")->required();
  status->add_option("--state-dir", state_dir, state_dir_help);

  fleet::cli::Settings cli;
  cli.usage_exit = fleet::exit_status::wrapper_failure;
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
      "  127     the command was not found\n"
      "  126     the command could not be executed\n"
      "  125     launch-wrapper itself failed (usage error, invalid member, unwritable state, a\n"
      "          previous agent that could not be stopped)\n"
      "stop exits 0, or 1 when the group is still alive after SIGKILL; status exits 0 when the\n"
      "agent is alive, 1 when it is not.";
  const fleet::cli::Parsed parsed = fleet::cli::parse(app, argc, argv, cli);
  if (parsed.exit_status) return *parsed.exit_status;
  options.command = parsed.command;

  try {
    if (stop->parsed() || status->parsed()) {
      const fleet::LaunchRegistry registry(
          fleet::absolute_path(fleet::resolve_state_dir(state_dir, "")), member);
      if (status->parsed()) {
        bool alive = false;
        const std::string json = fleet::member_status_json(registry, member, alive);
        std::fwrite(json.data(), 1, json.size(), stdout);
        return alive ? 0 : 1;
      }
      const fleet::UniqueFd lock = registry.lock_if_known();
      const fleet::AgentStop result = fleet::stop_recorded_agent(registry, to_ms(grace_seconds));
      std::printf("%s: %s\n", fleet::outcome_name(result.outcome), result.message.c_str());
      return result.outcome == fleet::AgentStop::Outcome::failed ? 1 : 0;
    }
    options.grace = to_ms(grace_seconds);
    options.drain = to_ms(drain_seconds);
    options.poll_interval = std::chrono::milliseconds(poll_ms);
    options.use_inotify = !no_inotify;
    fleet::parse_containment_mode(containment, options.containment);
    options.stop_on_output_closed = on_output_closed == "stop";
    options.announce =
        announce == "wrapper" ? fleet::AnnounceMode::wrapper : fleet::AnnounceMode::agent;
    return fleet::run_launch(options);
  } catch (const fleet::Error& e) {
    std::fprintf(stderr, "launch-wrapper: %s\n", e.what());
    return fleet::exit_status::wrapper_failure;
  }
}
