#pragma once
// Learning the session id of a CLI that picks its own (Codex) from the agent's stdout as it
// passes through: the first complete JSON line whose "type" is the profile's event names it
// (`codex exec --json` prints {"type":"thread.started","thread_id":"<id>"} first); and when the
// session's start hooks have run: a line after the turn's start ({"type":"turn.started"}).
// Failing: lines that are not JSON, or too long to be the event, are skipped.

#include <cstddef>
#include <string>

#include "agent/agent_profile.h"
#include "base/stream_lines.h"

namespace fleet {

class SessionIdCapture {
 public:
  explicit SessionIdCapture(const SessionIdForm& form) : form_(form) {}

  // Reads the next bytes of stdout. True when they completed the line that names the id (once).
  bool feed(const char* data, std::size_t size);

  // The id, "" until it was seen.
  const std::string& id() const { return id_; }

  // A complete line came after the turn's start: the session's start hooks have run.
  bool start_hooks_done() const { return hooks_done_; }

 private:
  bool read_line(std::string_view line);

  SessionIdForm form_;
  // Longer lines are not the event that names the session (it is a few dozen bytes).
  StreamLines lines_{64 * 1024};
  std::string id_;
  bool turn_started_ = false;
  bool hooks_done_ = false;
};

}  // namespace fleet
