#include "launch/plan.h"

#include <sys/stat.h>

#include <algorithm>

#include "base/error.h"
#include "base/ids.h"
#include "base/paths.h"
#include "launch/command_line.h"
#include "launch/stdout_completion.h"
#include "process/launch_caller.h"

namespace fleet {
namespace {

constexpr std::string_view kSessionIdVariable = "FLEET_SESSION_ID=";

// A new id for a launch that has none: on the command line when the CLI takes one and the
// command is its own, else in FLEET_SESSION_ID only (said in a notice); a CLI that picks its
// own id has it captured instead.
void assign_session_id(LaunchPlan& plan, const SessionIdSource& new_session_id,
                       const AgentProfile& agent) {
  const std::string_view option = agent.session_id.assign_option;
  if (option.empty()) return;
  plan.session_id = new_session_id();
  if (is_agent_command(plan.command, agent)) {
    plan.command = with_option(without_option(plan.command, option), option, plan.session_id);
    return;
  }
  const std::string line = "'" + plan.command.front() + "' is not " +
                           std::string(agent.display_name) +
                           "'s command, so it is left as it is: the assigned session id " +
                           plan.session_id + " is in FLEET_SESSION_ID for it to pass on";
  plan.notice = plan.notice ? *plan.notice + "; " + line : line;
}

// Whether `command` has `flag`: a word ("--json"), or an option and its value ("--format json",
// also "--format=json").
bool has_flag(const std::vector<std::string>& command, std::string_view flag) {
  const std::size_t space = flag.find(' ');
  if (space == std::string_view::npos) return std::ranges::find(command, flag) != command.end();
  return option_value(command, flag.substr(0, space)) == flag.substr(space + 1);
}

// A CLI that picks its own id says it on stdout only with its flag (`codex exec --json`):
// its own command without the flag cannot have its id captured, which is said.
void mark_capture(LaunchPlan& plan, const AgentProfile& agent) {
  const SessionIdForm& form = agent.session_id;
  plan.capture_session_id = plan.session_id.empty() && !form.stdout_event.empty();
  if (!plan.capture_session_id || !is_agent_command(plan.command, agent) ||
      has_flag(plan.command, form.stdout_flag))
    return;
  const std::string line = std::string(agent.display_name) + " prints its session id only with " +
                           std::string(form.stdout_flag) +
                           ": without it the id is not captured (the keyed session, the "
                           "completion watch and a late record need it); add " +
                           std::string(form.stdout_flag) + " to the command";
  plan.notice = plan.notice ? *plan.notice + "; " + line : line;
}

// FLEET_SESSION_ID for the agent's environment, replacing any earlier one.
void export_session_id(LaunchPlan& plan) {
  std::erase_if(plan.environment,
                [](const std::string& entry) { return entry.starts_with(kSessionIdVariable); });
  if (!plan.session_id.empty())
    plan.environment.push_back(std::string(kSessionIdVariable) + plan.session_id);
}

void apply_recorded_state(LaunchPlan& plan, const std::vector<std::string>& command,
                          const SessionOptions& session,
                          const std::optional<SessionState>& recorded,
                          const SessionIdSource& new_session_id, const AgentProfile& agent) {
  const SessionLaunch keyed =
      plan_session_launch(recorded, session.session_key, command, session.resume_note_arg, agent);
  plan.command = keyed.command;
  plan.environment = keyed.environment;
  plan.notice = keyed.notice;
  switch (keyed.kind) {
    case SessionLaunch::Kind::resume:
      plan.resume_id = plan.session_id = keyed.resume_id;
      break;
    case SessionLaunch::Kind::fresh_after_suspension:
      plan.resume_id.clear();
      plan.session_id.clear();
      assign_session_id(plan, new_session_id, agent);
      break;
    case SessionLaunch::Kind::fresh:
      break;
  }
  if (session.assign_session_id && plan.session_id.empty())
    assign_session_id(plan, new_session_id, agent);
  plan.session_state = state_at_launch(recorded, session.session_key, keyed.kind, plan.session_id);
}

// The completion watch needs what it reads: the session file (named by --session-log or found
// from the session id), or, for a CLI that reports a finished turn on its stdout, its own
// command printing that report.
void check_completion_source(const LaunchOptions& options, const LaunchPlan& plan) {
  const AgentProfile& agent = *options.agent;
  if (!completes_on_stdout(options.completion, agent)) {
    if (options.completion.session_log.empty() && plan.session_id.empty() &&
        !plan.capture_session_id) {
      throw Error(
          "--completion-marker needs the transcript: pass --session-log, --session-id or "
          "--assign-session-id");
    }
    return;
  }
  const StdoutCompletionForm& form = agent.completion_on_stdout;
  if (!is_agent_command(plan.command, agent) ||
      option_value(plan.command, form.option, form.short_option) == form.value)
    return;
  const std::string wanted = std::string(form.option) + " " + std::string(form.value);
  throw Error("--completion-marker: " + std::string(agent.display_name) +
              " reports a finished turn only on its stdout, with " + wanted +
              " (its session file records none), so the marker could never be seen: add " + wanted +
              " to the command, or pass --session-log FILE to watch a file instead");
}

// Why the session the agent's command names cannot be verified by the launch, nullopt when
// it can: a resume by anything but a full id where the CLI resolves prefixes, names or the
// latest session (ResumeForm::full_id_only), or an assigned id whose session exists where
// assigning it resumes it (SessionIdForm::assign_resumes_existing).
std::optional<std::string> unverifiable_session(const LaunchPlan& plan, const AgentProfile& agent) {
  const std::string cli(agent.display_name);
  const std::string word(agent.resume.word);
  if (agent.resume.full_id_only && plan.resumes) {
    const auto id = resumed_session_id(plan.command, agent);
    if (!id) {
      return "the command resumes a session it does not name (" + word +
             " without an id, or the latest session): the launch cannot tell which session " + cli +
             " resumes; name it: " + word + " <its full id>";
    }
    if (!is_uuid(*id)) {
      return "the command resumes '" + *id + "', which is not a full session id: " + cli +
             " also resumes by an id's prefix or a session's name, which the launch cannot "
             "verify; name the session by its full id (" +
             word + " <uuid>)";
    }
  }
  if (!agent.session_id.assign_resumes_existing || agent.session_file == nullptr ||
      !plan.resume_id.empty() || plan.session_id.empty())
    return std::nullopt;
  const std::string file = agent.session_file(plan.session_id, current_directory());
  struct stat st {};
  if (file.empty() || ::stat(file.c_str(), &st) != 0) return std::nullopt;
  return std::string(agent.session_id.assign_option) + " " + plan.session_id +
         " names a session that exists (" + file + "), which " + cli +
         " would resume while the launch records a new one; resume it with " + word + " " +
         plan.session_id + ", or give a new id";
}

}  // namespace

LaunchPlan plan_launch(const std::vector<std::string>& command, const SessionOptions& session,
                       const std::optional<SessionState>& recorded,
                       const SessionIdSource& new_session_id, const AgentProfile& agent) {
  LaunchPlan plan;
  plan.command = command;
  plan.resume_id = resumed_session_id(command, agent).value_or("");
  plan.session_id = session.session_id;
  const std::string_view id_option = agent.session_id.assign_option;
  if (plan.session_id.empty() && !id_option.empty())
    plan.session_id = option_value(command, id_option).value_or("");
  if (plan.session_id.empty()) plan.session_id = plan.resume_id;
  if (!session.session_key.empty())
    apply_recorded_state(plan, command, session, recorded, new_session_id, agent);
  if (session.assign_session_id && plan.session_id.empty())
    assign_session_id(plan, new_session_id, agent);
  plan.resumes = !plan.resume_id.empty() ||
                 (is_agent_command(plan.command, agent) && resumes_session(plan.command, agent));
  mark_capture(plan, agent);
  export_session_id(plan);
  return plan;
}

LaunchPlan fresh_session_plan(const LaunchPlan& stale, bool assign_session_id_too,
                              const SessionIdSource& new_session_id, const AgentProfile& agent) {
  LaunchPlan plan = stale;
  plan.command = without_resume(stale.command, agent);
  plan.resume_id.clear();
  plan.resumes = false;
  plan.session_id.clear();
  plan.notice.reset();
  if (assign_session_id_too) assign_session_id(plan, new_session_id, agent);
  mark_capture(plan, agent);
  export_session_id(plan);
  return plan;
}

void check_plan(const LaunchOptions& options, const LaunchPlan& plan, const std::string& caller,
                const std::function<ProvenanceRecord(const std::string&)>& record,
                const std::string& caller_problem) {
  const AgentProfile& agent = *options.agent;
  if (const RefusedOption* refused = refused_option(plan.command, agent);
      refused && is_agent_command(plan.command, agent)) {
    throw Error("the command's " + std::string(refused->option) + " " + std::string(refused->why) +
                ": launch-wrapper does not launch it; run the session here (leave " +
                std::string(refused->option) + " out), or start it without launch-wrapper");
  }
  if (is_agent_command(plan.command, agent)) {
    if (const auto why = unverifiable_session(plan, agent)) throw Error(*why + "; nothing was run");
  }
  if (agent.session_id.assign_option.empty() && !options.session.session_id.empty() &&
      plan.resume_id.empty()) {
    throw Error("--session-id " + options.session.session_id + " cannot name a new " +
                std::string(agent.display_name) +
                " session: it picks its own id (captured from its JSON output on stdout); leave "
                "--session-id out, or resume the session with the command");
  }
  if (options.provenance.record) {
    if (caller.empty()) {
      throw Error(
          uncertain_caller("--record-provenance", caller_problem, "nothing was run or recorded"));
    }
    if (plan.session_id.empty() && !plan.capture_session_id) {
      throw Error(
          "--record-provenance needs the session id: pass --session-id or "
          "--assign-session-id");
    }
    // A captured id is checked once it is known; the record's other fields now.
    const std::string id = plan.session_id.empty() ? "captured" : plan.session_id;
    if (const auto problem = record_problem(record(id))) throw Error(*problem);
  }
  if (!options.completion.marker.empty()) check_completion_source(options, plan);
  if (!plan.session_id.empty()) {
    if (const auto problem = id_problem("session id", plan.session_id)) throw Error(*problem);
  }
}

}  // namespace fleet
