#pragma once
// The completion watch of a CLI that reports a finished turn on its stdout rather than in its
// session file (Qwen Code 0.24.4: `-o stream-json` ends a turn with {"type":"result",
// "result":<the answer>}; its session file has no such record). The agent's stdout is shown
// to it as it passes through; a complete line that is the CLI's completion record holding
// the marker (completion_marker.h) is the completion. Only this run's output is read, so a
// resumed session's earlier answers never count.
// Failing: lines that are not JSON, or longer than the limit, are skipped.

#include <cstddef>
#include <utility>

#include "agent/agent_profile.h"
#include "base/stream_lines.h"
#include "launch/completion_marker.h"
#include "launch/completion_watch.h"
#include "launch/options.h"

namespace fleet {

// Whether a launch's completion watch reads the agent's stdout: its CLI reports a finished turn
// there (AgentProfile::completion_on_stdout) and no --session-log names a file to read instead.
bool completes_on_stdout(const CompletionOptions& completion, const AgentProfile& agent);

class StdoutCompletion final : public CompletionWatch {
 public:
  explicit StdoutCompletion(MarkerRule rule) : rule_(std::move(rule)) {}

  // The next bytes of the agent's stdout.
  void feed(const char* data, std::size_t size);

  int fd() const override { return -1; }
  int wait_ms() const override { return -1; }
  bool check() override { return seen_; }

 private:
  MarkerRule rule_;
  // A result event carries the whole answer: lines up to 16 MiB are read.
  StreamLines lines_{16 << 20};
  bool seen_ = false;
};

}  // namespace fleet
