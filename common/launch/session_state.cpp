#include "launch/session_state.h"

#include <cerrno>
#include <csignal>

#include <rapidjson/document.h>

#include "base/error.h"
#include "base/ids.h"
#include "base/json.h"
#include "launch/command_line.h"

namespace fleet {

std::string session_state_json(const SessionState& state) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("session_key", json_string(state.session_key, alloc), alloc);
  doc.AddMember("session_id", json_string(state.session_id, alloc), alloc);
  doc.AddMember("state", json_string(to_string(state.state), alloc), alloc);
  doc.AddMember("resume_reason", json_string(to_string(state.resume_reason), alloc), alloc);
  doc.AddMember("last_resume_marked_at", json_string(state.last_resume_marked_at, alloc), alloc);
  doc.AddMember("restart_failure_count", state.restart_failure_count, alloc);
  return to_json(doc) + "\n";
}

Result<SessionState> parse_session_state(std::string_view text) {
  using Parsed = Result<SessionState>;
  const Result<rapidjson::Document> parsed = parse_json_object(text);
  if (!parsed) return Parsed::failure(parsed.problem());
  const rapidjson::Document& doc = *parsed;
  SessionState state;
  std::string status, reason;
  const struct {
    const char* key;
    std::string& out;
  } fields[] = {{"session_key", state.session_key},
                {"session_id", state.session_id},
                {"state", status},
                {"resume_reason", reason},
                {"last_resume_marked_at", state.last_resume_marked_at}};
  for (const auto& [key, out] : fields) {
    const auto value = string_member(doc, key);
    if (!value) {
      return Parsed::failure(std::string(key) + " is missing or not a string");
    }
    out = std::string(*value);
  }
  const rapidjson::Value* count = member(doc, "restart_failure_count");
  if (count == nullptr || !count->IsInt() || count->GetInt() < 0) {
    return Parsed::failure("restart_failure_count is missing or not a non-negative integer");
  }
  state.restart_failure_count = count->GetInt();
  const auto parsed_status = from_string<SessionStatus>(status);
  if (!parsed_status) {
    return Parsed::failure("state '" + status + "' is not active, resume_pending or suspended");
  }
  state.state = *parsed_status;
  const auto parsed_reason = from_string<ResumeReason>(reason);
  if (!parsed_reason) {
    return Parsed::failure("resume_reason '" + reason +
                           "' is not shutdown_timeout, restart_timeout or empty");
  }
  state.resume_reason = *parsed_reason;
  if (!state.session_id.empty() && !is_valid_id(state.session_id)) {
    return Parsed::failure(*id_problem("session_id", state.session_id));
  }
  return state;
}

SessionLaunch plan_session_launch(const std::optional<SessionState>& recorded,
                                  const std::string& key, const std::vector<std::string>& command,
                                  const std::string& resume_note_arg, const AgentProfile& agent) {
  SessionLaunch launch;
  launch.command = command;
  if (!recorded) return launch;
  const bool ours = is_agent_command(command, agent);
  if (recorded->state == SessionStatus::suspended) {
    launch.kind = SessionLaunch::Kind::fresh_after_suspension;
    if (ours) launch.command = without_resume(command, agent);
    launch.notice = "session " + key + " is suspended after " +
                    std::to_string(recorded->restart_failure_count) +
                    " interrupted restarts; starting a fresh session instead of resuming " +
                    recorded->session_id;
  } else if (recorded->state == SessionStatus::resume_pending && !recorded->session_id.empty()) {
    const std::string& id = recorded->session_id;
    const std::string reason(to_string(recorded->resume_reason));
    const std::string note = resume_note(recorded->resume_reason, id);
    launch.kind = SessionLaunch::Kind::resume;
    launch.resume_id = id;
    launch.environment = {"FLEET_RESUME_REASON=" + reason, "FLEET_RESUME_NOTE=" + note,
                          "FLEET_RESUME_SESSION_ID=" + id};
    launch.notice = "session " + key + " resumes " + id + " (" + reason + ")";
    if (!ours) {
      *launch.notice += "; '" + command.front() + "' is not " + std::string(agent.display_name) +
                        "'s command, so it is left as it is: it gets the id in "
                        "FLEET_RESUME_SESSION_ID";
      return launch;
    }
    launch.command = command;
    if (!agent.session_id.assign_option.empty())
      launch.command = without_option(command, agent.session_id.assign_option);
    if (!resume_note_arg.empty())
      launch.command = with_option(launch.command, resume_note_arg, note);
    launch.command = with_resume(launch.command, agent, id);
  }
  return launch;
}

SessionState state_at_launch(const std::optional<SessionState>& recorded, const std::string& key,
                             SessionLaunch::Kind kind, const std::string& session_id) {
  SessionState state = kind == SessionLaunch::Kind::fresh_after_suspension
                           ? SessionState{}
                           : recorded.value_or(SessionState{});
  state.session_key = key;
  if (kind == SessionLaunch::Kind::resume) return state;
  state.session_id = session_id;
  state.state = SessionStatus::active;
  state.resume_reason = ResumeReason::none;
  return state;
}

namespace {

ResumeReason drain_reason(int drain_signal) {
  return drain_signal == SIGUSR1 ? ResumeReason::restart_timeout : ResumeReason::shutdown_timeout;
}

}  // namespace

void mark_drain_timeout(SessionState& state, int drain_signal, int max_restarts,
                        const std::string& now) {
  ++state.restart_failure_count;
  state.resume_reason = drain_reason(drain_signal);
  state.last_resume_marked_at = now;
  state.state = state.restart_failure_count >= max_restarts ? SessionStatus::suspended
                                                            : SessionStatus::resume_pending;
}

std::string drain_timeout_notice(const std::string& key, int drain_signal) {
  return "the agent did not finish within the drain; session " + key + " is marked for resume (" +
         std::string(to_string(drain_reason(drain_signal))) + ")";
}

void mark_success(SessionState& state) {
  state.state = SessionStatus::active;
  state.resume_reason = ResumeReason::none;
  state.restart_failure_count = 0;
}

std::string resume_note(ResumeReason reason, const std::string& session_id) {
  const std::string why =
      reason == ResumeReason::shutdown_timeout  ? "it was shut down before it could finish its turn"
      : reason == ResumeReason::restart_timeout ? "it was restarted before it could finish its turn"
                                                : "its previous run was interrupted";
  return "This session (" + session_id + ") is being resumed because " + why +
         ". Check what was already done before continuing, and do not repeat completed steps.";
}

SessionStore::SessionStore(const std::string& state_dir, const std::string& key) {
  if (const auto problem = id_problem("session key", key)) throw Error(*problem);
  path_ = state_dir + "/sessions/" + key + ".json";
  lock_path_ = state_dir + "/sessions/" + key + ".lock";
}

UniqueFd SessionStore::lock() const {
  return lock_file(lock_path_);
}

std::optional<SessionState> SessionStore::read() const {
  const std::optional<std::string> text = read_regular_file_if_exists(path_, 1 << 20);
  if (!text) return std::nullopt;
  auto state = parse_session_state(*text);
  if (!state) throw Error(path_ + ": " + state.problem() + "; fix or remove it");
  return std::move(*state);
}

void SessionStore::write(const SessionState& state) const {
  replace_file_atomically(path_, session_state_json(state));
}

}  // namespace fleet
