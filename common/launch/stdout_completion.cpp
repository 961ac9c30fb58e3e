#include "launch/stdout_completion.h"

namespace fleet {

bool completes_on_stdout(const CompletionOptions& completion, const AgentProfile& agent) {
  return completion.session_log.empty() && !agent.completion_on_stdout.option.empty();
}

void StdoutCompletion::feed(const char* data, std::size_t size) {
  if (seen_) return;
  lines_.feed({data, size}, [this](std::string_view line) {
    seen_ = record_has_marker(line, rule_);
    return !seen_;
  });
}

}  // namespace fleet
