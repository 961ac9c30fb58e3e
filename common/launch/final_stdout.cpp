#include "launch/final_stdout.h"

#include <unistd.h>

namespace fleet {

FinalAttemptStdout::FinalAttemptStdout(const LaunchOptions& options, LaunchNotice notice)
    : final_mode_(options.stdout_mode == StdoutMode::final_attempt),
      limit_(options.stdout_limit),
      notice_(std::move(notice)) {}

void FinalAttemptStdout::start(unsigned number) {
  if (!final_mode_) return;
  spool_.emplace(limit_);  // the previous attempt's is dropped
  attempt_ = number;
  moved_to_.clear();
}

void FinalAttemptStdout::keep(const char* data, std::size_t size) {
  spool_->append(data, size);
}

void FinalAttemptStdout::hand_over(int fd, const std::string& path) {
  if (!spool_) return;
  const SpoolDelivery moved = spool_->deliver(fd);
  if (moved.problem) notice_("the stdout kept so far is incomplete: " + *moved.problem);
  moved_to_ = path;  // the spool stays: the relay may still write to it
}

std::optional<FinalStdout> FinalAttemptStdout::deliver() {
  if (!final_mode_) return std::nullopt;
  FinalStdout result;
  result.attempt = attempt_;
  if (!moved_to_.empty()) {
    result.delivery.problem =
        "the launcher's end of stdout closed; the final attempt's stdout went to " + moved_to_;
  } else if (spool_) {
    result.delivery = spool_->deliver(STDOUT_FILENO);
    if (result.delivery.problem) notice_(*result.delivery.problem);
  }
  spool_.reset();
  moved_to_.clear();
  return result;
}

}  // namespace fleet
