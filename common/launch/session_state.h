#pragma once
// The lifecycle of a keyed session (sessions/<key>.json), all of it: a launch records it
// active; a drain (TERM or USR1 to the wrapper) that times out marks it resume_pending, or
// suspended after too many of those in a row; the next launch then resumes the recorded
// session with a note saying why (or, when suspended, starts a fresh one); a run that ends
// well makes it active again (doc/launch-wrapper.md, "Resume-pending instead of a silent reset").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_profile.h"
#include "base/enum_names.h"
#include "base/files.h"
#include "base/result.h"

namespace fleet {

enum class SessionStatus { active, resume_pending, suspended };
template <>
struct EnumNames<SessionStatus> {
  static constexpr std::array<std::string_view, 3> names{"active", "resume_pending", "suspended"};
};

// Why a session is to be resumed: the drain that timed out was a shutdown (TERM) or a
// restart (USR1).
enum class ResumeReason { none, shutdown_timeout, restart_timeout };
template <>
struct EnumNames<ResumeReason> {
  static constexpr std::array<std::string_view, 3> names{"", "shutdown_timeout", "restart_timeout"};
};

struct SessionState {
  std::string session_key;
  std::string session_id;
  SessionStatus state = SessionStatus::active;
  ResumeReason resume_reason = ResumeReason::none;
  std::string last_resume_marked_at;
  int restart_failure_count = 0;

  bool operator==(const SessionState&) const = default;
};

std::string session_state_json(const SessionState& state);
// The state the text records, or why it is not a valid state record.
Result<SessionState> parse_session_state(std::string_view text);

// What a launch with the key does, decided from the recorded state (pure).
struct SessionLaunch {
  enum class Kind {
    fresh,                   // nothing pending: the command runs as given
    resume,                  // resume_pending: the recorded session is resumed, with a note
    fresh_after_suspension,  // suspended: a fresh session with a new id
  };
  Kind kind = Kind::fresh;
  std::vector<std::string> command;      // the command line to run
  std::string resume_id;                 // with resume: the session resumed
  std::vector<std::string> environment;  // with resume: FLEET_RESUME_REASON, _NOTE, _SESSION_ID
  std::optional<std::string> notice;     // a line for a person, when there is one
};
// With resume: `command` resuming the id in the profile's form (command_line.h: without its
// id option and other resumes, "--resume <id>" after the program name, or Codex's "exec
// resume <id>"), with "<resume_note_arg> <note>" after the program name. A command that is
// not the profile's CLI is never rewritten: it gets FLEET_RESUME_SESSION_ID in its
// environment to resume the session itself.
SessionLaunch plan_session_launch(const std::optional<SessionState>& recorded,
                                  const std::string& key, const std::vector<std::string>& command,
                                  const std::string& resume_note_arg, const AgentProfile& agent);

// The state recorded when the launch starts, naming `session_id` (the launch's session).
SessionState state_at_launch(const std::optional<SessionState>& recorded, const std::string& key,
                             SessionLaunch::Kind kind, const std::string& session_id);

// A drain started by `drain_signal` (SIGTERM: shutdown, SIGUSR1: restart) timed out: one
// more restart failure; suspended at `max_restarts`, else resume_pending.
void mark_drain_timeout(SessionState& state, int drain_signal, int max_restarts,
                        const std::string& now);
// The line for stderr when that happens.
std::string drain_timeout_notice(const std::string& key, int drain_signal);

// The run ended with exit 0 or a seen completion: active, nothing pending, counter cleared.
void mark_success(SessionState& state);

// The sentence FLEET_RESUME_NOTE carries for `reason`.
std::string resume_note(ResumeReason reason, const std::string& session_id);

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
