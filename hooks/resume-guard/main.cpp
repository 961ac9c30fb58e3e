// resume-guard: PreToolUse (Gemini: BeforeTool) hook that refuses a resume_session_id that is not a
// worker session owned by the caller or its kitchen. Reads the hook input on stdin; exits 0 and
// decides only through what it prints (a command line it cannot parse exits 1, never 2); each
// deny and advisory also goes to the guard log beside the store (see doc/resume-guard.md).

#include <unistd.h>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "agents/agent_option.h"
#include "agents/agent_texts.h"
#include "base/cli.h"
#include "base/exit_status.h"
#include "guard/dispatch_handover.h"
#include "guard/guard_log.h"
#include "guard/resume_guard.h"
#include "hook/hook_protocol.h"
#include "version.h"

int main(int argc, char** argv) {
  CLI::App app{"", "resume-guard"};
  fleet::GuardOptions options;
  fleet::cli::add_state_dir_option(app, options.state_dir, "Directory of session_provenance.jsonl");
  app.add_option("--kitchen-id", options.kitchen_id,
                 "Current kitchen (default: $FLEET_HOOKS_KITCHEN_ID, $AUTOSKILLIT_CAMPAIGN_ID)");
  app.add_option("--tool", options.tools,
                 "Another dispatch tool name to guard, bare or as mcp__<server>__NAME (repeatable)")
      ->allow_extra_args(false)
      ->option_text("NAME");
  app.add_flag("--strict", options.strict,
               "Deny when the store is missing or unreadable, the session is unrecorded, or the "
               "input is malformed (default: advise and let the call through)");
  fleet::add_agent_option(app, options.agent);
  app.set_version_flag("--version", std::string("resume-guard ") + fleet::kVersion);
  fleet::cli::Settings cli;
  cli.usage_exit = fleet::exit_status::hook_warns;  // never hook_blocks: a hook must not block
  cli.describe = [](CLI::App& help) {
    help.description(
        fleet::hook_event_text(&fleet::AgentCli::pre_tool_event) +
        " hook for the dispatch tool: denies a resume_session_id that is malformed, the "
        "caller's own session, an orchestrator session, or a worker owned by another caller and "
        "kitchen. Reads the hook input JSON on stdin; exits 0 (1 for a command line it cannot "
        "parse, never 2).");
  };
  if (const auto parsed = fleet::cli::parse(app, argc, argv, cli); parsed.exit_status) {
    return *parsed.exit_status;
  }

  fleet::GuardDecision decision;
  std::optional<std::string> out;
  std::optional<std::string> handover_log;
  std::optional<std::string> guard_log;
  try {
    const fleet::HookInput hook(fleet::read_bounded(STDIN_FILENO, fleet::kMaxHookInputBytes),
                                *options.agent);
    const fleet::ResumeRequest request = fleet::read_resume_request(hook, options.tools);
    decision = fleet::decide_resume(request, options);
    guard_log = fleet::log_guard_decision(hook, request, decision, options);
    const fleet::CallerHandover handover = fleet::hand_over_caller(
        request, decision, fleet::judged_state_dir(options, request), *options.agent);
    handover_log = handover.log;
    out = fleet::guard_answer(decision, hook, handover.token, *options.agent);
  } catch (const std::exception& e) {
    decision.log = std::string("resume-guard: internal error: ") + e.what() + "; no decision made";
    out = decision.output(*options.agent);
  }
  if (out) std::fwrite(out->data(), 1, out->size(), stdout);
  if (decision.log) std::fprintf(stderr, "%s\n", decision.log->c_str());
  if (guard_log) std::fprintf(stderr, "%s\n", guard_log->c_str());
  if (handover_log) std::fprintf(stderr, "%s\n", handover_log->c_str());
  return fleet::exit_status::ok;
}
