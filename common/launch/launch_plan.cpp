#include "launch/launch_plan.h"

#include "base/error.h"
#include "base/ids.h"
#include "launch/command_line.h"

namespace fleet {
namespace {

void assign_session_id(LaunchPlan& plan, const SessionIdSource& new_session_id) {
  plan.session_id = new_session_id();
  plan.command =
      with_option(without_option(plan.command, "--session-id"), "--session-id", plan.session_id);
}

}  // namespace

LaunchPlan plan_launch(const std::vector<std::string>& command, const SessionOptions& session,
                       const std::optional<SessionState>& recorded,
                       const SessionIdSource& new_session_id) {
  LaunchPlan plan;
  plan.command = command;
  plan.resume_id = option_value(command, "--resume", "-r").value_or("");
  plan.session_id = session.session_id;
  if (plan.session_id.empty()) plan.session_id = option_value(command, "--session-id").value_or("");
  if (plan.session_id.empty()) plan.session_id = plan.resume_id;
  if (!session.session_key.empty()) {
    const SessionLaunch keyed =
        plan_session_launch(recorded, session.session_key, command, session.resume_note_arg);
    plan.command = keyed.command;
    plan.environment = keyed.environment;
    plan.notice = keyed.notice;
    switch (keyed.kind) {
      case SessionLaunch::Kind::resume:
        plan.resume_id = plan.session_id = keyed.resume_id;
        break;
      case SessionLaunch::Kind::fresh_after_suspension:
        plan.resume_id.clear();
        assign_session_id(plan, new_session_id);
        break;
      case SessionLaunch::Kind::fresh:
        break;
    }
    if (session.assign_session_id && plan.session_id.empty())
      assign_session_id(plan, new_session_id);
    plan.session_state =
        state_at_launch(recorded, session.session_key, keyed.kind, plan.session_id);
  }
  if (session.assign_session_id && plan.session_id.empty()) assign_session_id(plan, new_session_id);
  return plan;
}

bool resumes_session(const std::vector<std::string>& command) {
  return option_value(command, "--resume", "-r").has_value() ||
         without_resume(command).size() != command.size();
}

LaunchPlan fresh_session_plan(const LaunchPlan& stale, bool assign_session_id_too,
                              const SessionIdSource& new_session_id) {
  LaunchPlan plan = stale;
  plan.command = without_resume(stale.command);
  plan.resume_id.clear();
  plan.session_id.clear();
  plan.notice.reset();
  if (assign_session_id_too) assign_session_id(plan, new_session_id);
  return plan;
}

void check_plan(const LaunchOptions& options, const LaunchPlan& plan, const std::string& caller,
                const std::function<ProvenanceRecord()>& record) {
  if (options.provenance.record) {
    if (caller.empty()) {
      throw Error(
          "--record-provenance needs the caller: pass --caller-session-id, or run "
          "where CLAUDE_CODE_SESSION_ID is set");
    }
    if (plan.session_id.empty()) {
      throw Error(
          "--record-provenance needs the session id: pass --session-id or "
          "--assign-session-id");
    }
    if (const auto problem = record_problem(record())) throw Error(*problem);
  }
  if (!options.completion.marker.empty() && options.completion.session_log.empty() &&
      plan.session_id.empty()) {
    throw Error(
        "--completion-marker needs the transcript: pass --session-log, --session-id or "
        "--assign-session-id");
  }
  if (!plan.session_id.empty()) {
    if (const auto problem = id_problem("session id", plan.session_id)) throw Error(*problem);
  }
}

}  // namespace fleet
