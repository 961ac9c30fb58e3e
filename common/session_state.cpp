#include "session_state.h"

#include <cerrno>

#include <rapidjson/document.h>

#include "error.h"
#include "ids.h"
#include "json.h"

namespace fleet {

std::string session_state_json(const SessionState& state) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("session_key", json_string(state.session_key, alloc), alloc);
  doc.AddMember("session_id", json_string(state.session_id, alloc), alloc);
  doc.AddMember("state", json_string(state.state, alloc), alloc);
  doc.AddMember("resume_reason", json_string(state.resume_reason, alloc), alloc);
  doc.AddMember("last_resume_marked_at", json_string(state.last_resume_marked_at, alloc), alloc);
  doc.AddMember("restart_failure_count", state.restart_failure_count, alloc);
  return to_json(doc) + "\n";
}

std::optional<SessionState> parse_session_state(std::string_view text, std::string& problem) {
  rapidjson::Document doc;
  if (!parse_json(text, doc)) {
    problem = "not valid JSON (" + parse_error_sentence(doc, text) + ")";
    return std::nullopt;
  }
  if (!doc.IsObject()) {
    problem = "not a JSON object";
    return std::nullopt;
  }
  SessionState state;
  const struct {
    const char* key;
    std::string& out;
  } fields[] = {{"session_key", state.session_key},
                {"session_id", state.session_id},
                {"state", state.state},
                {"resume_reason", state.resume_reason},
                {"last_resume_marked_at", state.last_resume_marked_at}};
  for (const auto& [key, out] : fields) {
    const auto value = string_member(doc, key);
    if (!value) {
      problem = std::string(key) + " is missing or not a string";
      return std::nullopt;
    }
    out = std::string(*value);
  }
  const rapidjson::Value* count = member(doc, "restart_failure_count");
  if (count == nullptr || !count->IsInt() || count->GetInt() < 0) {
    problem = "restart_failure_count is missing or not a non-negative integer";
    return std::nullopt;
  }
  state.restart_failure_count = count->GetInt();
  if (state.state != "active" && state.state != "resume_pending" && state.state != "suspended") {
    problem = "state '" + state.state + "' is not active, resume_pending or suspended";
    return std::nullopt;
  }
  if (!state.session_id.empty() && !is_valid_id(state.session_id)) {
    problem = *id_problem("session_id", state.session_id);
    return std::nullopt;
  }
  return state;
}

LaunchPlan plan_launch(const std::optional<SessionState>& recorded) {
  LaunchPlan plan;
  if (!recorded) return plan;
  if (recorded->state == "suspended") {
    plan.kind = LaunchPlan::Kind::fresh_after_suspension;
  } else if (recorded->state == "resume_pending" && !recorded->session_id.empty()) {
    plan.kind = LaunchPlan::Kind::resume;
    plan.resume_id = recorded->session_id;
    plan.resume_reason = recorded->resume_reason;
  }
  return plan;
}

void mark_drain_timeout(SessionState& state, const std::string& reason, int max_restarts,
                        const std::string& now) {
  ++state.restart_failure_count;
  state.resume_reason = reason;
  state.last_resume_marked_at = now;
  state.state = state.restart_failure_count >= max_restarts ? "suspended" : "resume_pending";
}

void mark_success(SessionState& state) {
  state.state = "active";
  state.resume_reason.clear();
  state.restart_failure_count = 0;
}

std::string resume_note(const std::string& reason, const std::string& session_id) {
  const std::string why =
      reason == "shutdown_timeout"  ? "it was shut down before it could finish its turn"
      : reason == "restart_timeout" ? "it was restarted before it could finish its turn"
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
  std::string error;
  auto state = parse_session_state(*text, error);
  if (!state) throw Error(path_ + ": " + error + "; fix or remove it");
  return state;
}

void SessionStore::write(const SessionState& state) const {
  replace_file_atomically(path_, session_state_json(state));
}

}  // namespace fleet
