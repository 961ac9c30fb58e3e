// provenance-writer: appends session ownership records to session_provenance.jsonl, from
// the command line (record) or as a PostToolUse hook on the dispatch tool (hook).

#include <unistd.h>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "agents/agent_option.h"
#include "base/cli.h"
#include "base/error.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "hook/hook_protocol.h"
#include "hook/provenance_hook.h"
#include "hook/session_start_hook.h"
#include "store/provenance_store.h"
#include "version.h"

int main(int argc, char** argv) {
  CLI::App app{
      "Records who launched which agent session (Claude Code, Codex, Gemini CLI) in the "
      "provenance store that resume-guard reads.",
      "provenance-writer"};
  app.set_version_flag("--version", std::string("provenance-writer ") + fleet::kVersion);
  app.require_subcommand(1);

  std::string state_dir;
  fleet::AppendOptions append;
  fleet::ProvenanceRecord record;
  const std::string state_dir_help =
      "Directory of session_provenance.jsonl (default: $FLEET_HOOKS_STATE_DIR, "
      "$AUTOSKILLIT_STATE_DIR, or <project>/.autoskillit/temp[/<campaign>])";

  CLI::App* cmd_record = app.add_subcommand("record", "Append one ownership record");
  cmd_record->add_option("--session-id", record.session_id, "The launched session")->required();
  cmd_record->add_option("--caller-session-id", record.caller_session_id,
                         "The session that launched it (default: $CLAUDE_CODE_SESSION_ID)");
  cmd_record->add_option("--kitchen-id", record.kitchen_id,
                         "Kitchen (default: $FLEET_HOOKS_KITCHEN_ID, $AUTOSKILLIT_CAMPAIGN_ID)");
  cmd_record->add_option("--dispatch-id", record.dispatch_id, "Dispatch id");
  cmd_record->add_option("--recipe-name", record.recipe_name,
                         "Recipe (empty marks an L3 orchestrator session)");
  cmd_record->add_option("--step-name", record.step_name, "Step");
  cmd_record
      ->add_option("--agent", record.agent_cli,
                   "The agent CLI the launched session runs in (recorded as agent_cli)")
      ->check([](const std::string& name) {
        return fleet::find_agent_cli(name) != nullptr
                   ? std::string()
                   : name + " not in {" + fleet::agent_cli_names(",") + "}";
      })
      ->option_text(fleet::agent_cli_names("|"));
  cmd_record->add_option("--state-dir", state_dir, state_dir_help);
  cmd_record->add_flag("--fsync", append.fsync, "fdatasync the store after the append");

  fleet::ProvenanceHookOptions hook_options;
  hook_options.known_agents = fleet::agent_clis();
  CLI::App* cmd_hook =
      app.add_subcommand("hook",
                         "PostToolUse (Gemini: AfterTool) hook: record the session a dispatch "
                         "tool call launched "
                         "(exits 0; 1 for a command line it cannot parse)");
  cmd_hook->add_option("--state-dir", hook_options.state_dir, state_dir_help);
  cmd_hook->add_option("--kitchen-id", hook_options.kitchen_id,
                       "Kitchen when the call names none (default: $FLEET_HOOKS_KITCHEN_ID, "
                       "$AUTOSKILLIT_CAMPAIGN_ID)");
  cmd_hook->add_option("--tool", hook_options.tools, "Another dispatch tool name (repeatable)")
      ->allow_extra_args(false)
      ->option_text("NAME");
  cmd_hook->add_flag("--fsync", hook_options.append.fsync, "fdatasync the store after the append");
  fleet::add_agent_option(*cmd_hook, hook_options.agent);

  fleet::SessionStartHookOptions start_options;
  CLI::App* cmd_start = app.add_subcommand(
      "session-start",
      "SessionStart hook (Codex): record the worker launch-wrapper started, named in "
      "$FLEET_HOOKS_PENDING_LAUNCH, under the session id the CLI chose (exits 0; 1 for a "
      "command line it cannot parse)");
  cmd_start->add_flag("--fsync", start_options.append.fsync,
                      "fdatasync the store after the append");
  fleet::add_agent_option(*cmd_start, start_options.agent);

  fleet::cli::Settings cli;
  cli.usage_exit = fleet::exit_status::usage;
  // A hook's usage error warns and never blocks (exit_status::usage would be hook_blocks).
  cli.subcommand_usage_exit = {{"hook", fleet::exit_status::hook_warns},
                               {"session-start", fleet::exit_status::hook_warns}};
  if (const auto parsed = fleet::cli::parse(app, argc, argv, cli); parsed.exit_status) {
    return *parsed.exit_status;
  }

  if (cmd_hook->parsed()) {
    const auto input = fleet::read_bounded(STDIN_FILENO, fleet::kMaxHookInputBytes);
    if (const auto log = fleet::run_provenance_hook(input, hook_options))
      std::fprintf(stderr, "%s\n", log->c_str());
    return fleet::exit_status::ok;
  }
  if (cmd_start->parsed()) {
    const auto input = fleet::read_bounded(STDIN_FILENO, fleet::kMaxHookInputBytes);
    if (const auto log = fleet::run_session_start_hook(input, start_options))
      std::fprintf(stderr, "%s\n", log->c_str());
    return fleet::exit_status::ok;
  }

  record = fleet::build_record(std::move(record), fleet::CallerDefault::environment);
  if (record.caller_session_id.empty()) {
    std::fprintf(stderr,
                 "provenance-writer: no caller: pass --caller-session-id, or run it where "
                 "CLAUDE_CODE_SESSION_ID is set (a Claude Code session or an MCP server it "
                 "started)\n");
    return fleet::exit_status::usage;
  }
  if (const auto problem = fleet::record_problem(record)) {
    std::fprintf(stderr, "provenance-writer: %s; nothing written\n", problem->c_str());
    return fleet::exit_status::usage;
  }
  try {
    const fleet::AppendedRecord appended = fleet::append_record(
        fleet::provenance_store_path(fleet::resolve_state_dir(state_dir, "")), record, append);
    if (appended.index_warning)
      std::fprintf(stderr, "provenance-writer: warning: %s\n", appended.index_warning->c_str());
  } catch (const fleet::Error& e) {
    std::fprintf(stderr, "provenance-writer: %s; nothing written\n", e.what());
    return fleet::exit_status::failure;
  }
  return fleet::exit_status::ok;
}
