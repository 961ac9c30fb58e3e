// fleet-hooks log: the guard log, oldest entry first — every deny and advisory resume-guard
// gave (common/guard/guard_log.h), read across its rotation (common/store/rotating_jsonl.h),
// and with --follow the entries as they come.

#include <csignal>
#include <cstdio>

#include "base/cli.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "base/timestamp.h"
#include "guard/guard_log.h"
#include "store/rotating_jsonl.h"
#include "subcommand.h"

namespace fleet_hooks {
namespace {

struct LogOptions {
  std::string state_dir, project, since;
  bool json = false;
  bool follow = false;
};

volatile std::sig_atomic_t stop_following = 0;

void on_stop_signal(int) {
  stop_following = 1;
}

// SIGINT and SIGTERM end --follow after the entries read so far (no SA_RESTART: the wait
// between reads ends at once).
void stop_on_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  for (const int sig : {SIGINT, SIGTERM}) ::sigaction(sig, &action, nullptr);
}

void note(const std::string& line) {
  std::fprintf(stderr, "fleet-hooks log: %s\n", line.c_str());
}

// The state directory --state-dir or --project names, else the current project's; or the
// usage error.
StateDirArgument log_state_dir(const LogOptions& o) {
  if (o.project.empty()) return state_dir_argument("log", o.state_dir);
  const ProjectArgument project = project_argument("log", o.project, false);
  if (project.exit_status) return {"", project.exit_status};
  return {fleet::absolute_path(fleet::state_dir_for_project("", project.dir)), std::nullopt};
}

// --since as microseconds: a duration back from now, or a timestamp; or the usage error.
std::optional<int> read_since(const std::string& since, fleet::GuardLogView& view) {
  if (since.empty()) return std::nullopt;
  if (const auto seconds = fleet::parse_duration_seconds(since)) {
    view.since_micros = fleet::utc_micros_now() - *seconds * 1000000;
  } else if (const auto micros = fleet::parse_timestamp_micros(since)) {
    view.since_micros = *micros;
  } else {
    note(
        "--since takes an ISO-8601 time (2026-05-06T13:30:00Z, 2026-05-06) or a duration (30s, "
        "10m, 2h, 3d), not '" +
        since + "'");
    return fleet::exit_status::usage;
  }
  return std::nullopt;
}

int run_log(const LogOptions& o) {
  const StateDirArgument state = log_state_dir(o);
  if (state.exit_status) return *state.exit_status;
  fleet::GuardLogView view;
  view.json = o.json;
  if (const auto usage = read_since(o.since, view)) return *usage;
  if (o.state_dir.empty() && o.project.empty()) {
    if (const auto project = fleet::project_taken_from_current_directory(""))
      note("no project given: took the current directory " + *project + " for the project");
  }
  const std::string path = fleet::guard_log_path(state.dir);
  fleet::GuardLogCounts counts;
  const auto show = [&](std::string_view line) {
    if (const auto text = fleet::view_guard_log_line(line, view, counts)) {
      print(*text);
      std::fflush(stdout);
    }
  };
  fleet::RotatingJsonlTail tail(path);
  tail.read_new(show);
  if (!tail.found()) {
    note("no guard log yet: " + path +
         " does not exist (resume-guard writes it at its first "
         "deny or advisory)" +
         (o.follow ? "; waiting for it" : ""));
  }
  if (o.follow) {
    stop_on_signals();
    tail.follow(show, stop_following, 200);
  }
  if (counts.skipped > 0)
    note("skipped " + std::to_string(counts.skipped) + " unreadable line(s) in " + path);
  return fleet::exit_status::ok;
}

}  // namespace

Subcommand add_log(CLI::App& program) {
  auto o = std::make_shared<LogOptions>();
  CLI::App* sub = program.add_subcommand(
      "log",
      "Show the guard log (guard_log.jsonl beside the provenance store, and its rotated "
      "guard_log.jsonl.1): every deny and advisory of resume-guard, oldest first, also those the "
      "agent CLI showed nobody");
  fleet::cli::set_usage(*sub,
                        "fleet-hooks log [--state-dir DIR | --project DIR] [--since TIME] "
                        "[--follow] [--json]");
  auto* state_dir = fleet::cli::add_state_dir_option(*sub, o->state_dir);
  sub->add_option("--project", o->project,
                  "Project whose state directory holds the log (default: the current project)")
      ->excludes(state_dir);
  sub->add_option("--since", o->since,
                  "Only entries at or after TIME: an ISO-8601 time (2026-05-06T13:30:00Z, "
                  "2026-05-06) or a duration back from now (30s, 10m, 2h, 3d)")
      ->option_text("TIME");
  sub->add_flag("--follow", o->follow,
                "Keep printing entries as they are appended (across rotations) until "
                "interrupted (SIGINT, SIGTERM)");
  sub->add_flag("--json", o->json, "Print the log's JSON lines as they are");
  return {sub, [o] { return run_log(*o); }};
}

}  // namespace fleet_hooks
