// provenance-writer: appends session ownership records to session_provenance.jsonl, from
// the command line (record) or as a PostToolUse hook on the dispatch tool (hook).

#include <unistd.h>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "agents/agent_option.h"
#include "agents/agent_texts.h"
#include "agents/agents.h"
#include "agents/caller_options.h"
#include "base/cli.h"
#include "base/exit_status.h"
#include "hook/hook_protocol.h"
#include "hook/provenance_hook.h"
#include "hook/session_start_hook.h"
#include "store/provenance_store.h"
#include "version.h"

namespace {

constexpr std::string_view kStoreDirectory = "Directory of session_provenance.jsonl";

CLI::App* add_record(CLI::App& app, fleet::RecordRequest& o) {
  CLI::App* cmd = app.add_subcommand("record", "Append one ownership record");
  cmd->add_option("--session-id", o.record.session_id, "The launched session")->required();
  fleet::add_caller_options(*cmd, o.record.caller_session_id, o.call,
                            "The session that launched it");
  cmd->add_option("--kitchen-id", o.record.kitchen_id,
                  "Kitchen (default: $FLEET_HOOKS_KITCHEN_ID, $AUTOSKILLIT_CAMPAIGN_ID)");
  cmd->add_option("--dispatch-id", o.record.dispatch_id, "Dispatch id");
  cmd->add_option("--recipe-name", o.record.recipe_name,
                  "Recipe (empty marks an L3 orchestrator session)");
  cmd->add_option("--step-name", o.record.step_name, "Step");
  cmd->add_option("--agent", o.record.agent_cli,
                  "The agent CLI the launched session runs in (recorded as agent_cli)")
      ->check(fleet::agent_cli_name_check())
      ->option_text(fleet::agent_cli_names("|"));
  fleet::cli::add_state_dir_option(*cmd, o.state_dir, kStoreDirectory,
                                   fleet::cli::StateDirDefault::guard_judged);
  cmd->add_flag("--fsync", o.append.fsync, "fdatasync the store after the append");
  return cmd;
}

CLI::App* add_hook(CLI::App& app, fleet::ProvenanceHookOptions& o) {
  o.known_agents = fleet::agent_clis();
  CLI::App* cmd = app.add_subcommand(
      "hook", fleet::hook_event_text(&fleet::AgentCli::post_tool_event) +
                  " hook: record the session a dispatch tool call launched (exits 0; "
                  "1 for a command line it cannot parse)");
  fleet::cli::add_state_dir_option(*cmd, o.state_dir, kStoreDirectory);
  cmd->add_option("--kitchen-id", o.kitchen_id,
                  "Kitchen when the call names none (default: $FLEET_HOOKS_KITCHEN_ID, "
                  "$AUTOSKILLIT_CAMPAIGN_ID)");
  cmd->add_option("--tool", o.tools, "Another dispatch tool name (repeatable)")
      ->allow_extra_args(false)
      ->option_text("NAME");
  cmd->add_flag("--fsync", o.append.fsync, "fdatasync the store after the append");
  fleet::add_agent_option(*cmd, o.agent);
  return cmd;
}

CLI::App* add_session_start(CLI::App& app, fleet::SessionStartHookOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "session-start",
      "The start hook of a CLI that picks its own session id (" + fleet::start_hooks_text() +
          "): record the worker launch-wrapper started, named in $FLEET_HOOKS_PENDING_LAUNCH, "
          "under the session id the CLI chose (exits 0; 1 for a command line it cannot parse)");
  cmd->add_flag("--fsync", o.append.fsync, "fdatasync the store after the append");
  fleet::add_agent_option(*cmd, o.agent);
  return cmd;
}

// A hook's line for stderr, if any; a hook exits 0 whatever it records.
int hook_exit(const std::optional<std::string>& log) {
  if (log) std::fprintf(stderr, "%s\n", log->c_str());
  return fleet::exit_status::ok;
}

int record(const fleet::RecordRequest& request) {
  using Status = fleet::RecordOutcome::Status;
  const fleet::RecordOutcome outcome = fleet::append_requested_record(
      request, {.clis = fleet::agent_clis(), .profiles = fleet::agent_profiles()});
  if (outcome.message) std::fprintf(stderr, "provenance-writer: %s\n", outcome.message->c_str());
  if (outcome.status == Status::refused) return fleet::exit_status::usage;
  return outcome.status == Status::failed ? fleet::exit_status::failure : fleet::exit_status::ok;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Records who launched which agent session (" + fleet::agent_cli_display_names(", ") +
                   ") in the provenance store that resume-guard reads.",
               "provenance-writer"};
  app.set_version_flag("--version", std::string("provenance-writer ") + fleet::kVersion);
  app.require_subcommand(1);
  fleet::RecordRequest record_options;
  add_record(app, record_options);
  fleet::ProvenanceHookOptions hook_options;
  const CLI::App* cmd_hook = add_hook(app, hook_options);
  fleet::SessionStartHookOptions start_options;
  const CLI::App* cmd_start = add_session_start(app, start_options);
  fleet::cli::Settings cli;
  cli.usage_exit = fleet::exit_status::usage;
  // A hook's usage error warns and never blocks (exit_status::usage would be hook_blocks).
  cli.subcommand_usage_exit = {{"hook", fleet::exit_status::hook_warns},
                               {"session-start", fleet::exit_status::hook_warns}};
  if (const auto parsed = fleet::cli::parse(app, argc, argv, cli); parsed.exit_status)
    return *parsed.exit_status;
  if (cmd_hook->parsed()) {
    return hook_exit(fleet::run_provenance_hook(
        fleet::read_bounded(STDIN_FILENO, fleet::kMaxHookInputBytes), hook_options));
  }
  if (cmd_start->parsed()) {
    return hook_exit(fleet::run_session_start_hook(
        fleet::read_bounded(STDIN_FILENO, fleet::kMaxHookInputBytes), start_options));
  }
  return record(record_options);
}
