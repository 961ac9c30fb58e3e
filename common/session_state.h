#pragma once
// The lifecycle of a keyed session (sessions/<key>.json): active, resume_pending after a
// drain that timed out, suspended after too many of those in a row. A restart that times out
// keeps the session id so the next launch resumes it, unless the session is stuck.

#include <optional>
#include <string>

#include "files.h"

namespace fleet {

struct SessionState {
  std::string session_key;
  std::string session_id;
  std::string state = "active";  // active | resume_pending | suspended
  std::string resume_reason;     // shutdown_timeout | restart_timeout | ""
  std::string last_resume_marked_at;
  int restart_failure_count = 0;

  bool operator==(const SessionState&) const = default;
};

std::string session_state_json(const SessionState& state);
// nullopt with `problem` set when the text is not a valid state record.
std::optional<SessionState> parse_session_state(std::string_view text, std::string& problem);

// What the next launch does with the recorded state.
struct LaunchPlan {
  enum class Kind { fresh, resume, fresh_after_suspension };
  Kind kind = Kind::fresh;
  std::string resume_id;      // with resume
  std::string resume_reason;  // with resume
};
LaunchPlan plan_launch(const std::optional<SessionState>& recorded);

// A drain for `reason` timed out: one more restart failure; suspended at `max_restarts`.
void mark_drain_timeout(SessionState& state, const std::string& reason, int max_restarts,
                        const std::string& now);

// The run ended with exit 0 or a seen completion: active, nothing pending, counter cleared.
void mark_success(SessionState& state);

// The sentence FLEET_RESUME_NOTE carries for `reason`.
std::string resume_note(const std::string& reason, const std::string& session_id);

class SessionStore {
 public:
  // `state_dir`/sessions/<key>.json. Throws Error when `key` is not a valid id.
  SessionStore(const std::string& state_dir, const std::string& key);
  UniqueFd lock() const;
  // nullopt when missing; Error when unreadable or corrupt.
  std::optional<SessionState> read() const;
  void write(const SessionState& state) const;  // atomic, fsync'd: it must survive a crash
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string lock_path_;
};

}  // namespace fleet
