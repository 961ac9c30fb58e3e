#pragma once
// What the supervision of an agent asks of its completion watch, wherever that watch reads:
// the agent's session file (transcript_watch.h) or its stdout (stdout_completion.h).

namespace fleet {

class CompletionWatch {
 public:
  virtual ~CompletionWatch() = default;

  // The descriptor to poll for news of the watched file (-1: none).
  virtual int fd() const = 0;
  // How long the caller may wait before calling check() again: -1 when only fd() or the
  // agent's output can bring news.
  virtual int wait_ms() const = 0;
  // Reads what is new. True once a completion was seen; stays true.
  virtual bool check() = 0;
};

}  // namespace fleet
