#pragma once
// `--stdout final` over a launch's attempts: each attempt's stdout is kept (stdout_spool.h),
// the next attempt's replaces it, and once the launch has ended the latest attempt's goes to
// the wrapper's stdout (doc/launch-wrapper.md, "Final stdout: for launchers that parse the
// result at the end").

#include <cstddef>
#include <optional>
#include <string>

#include "launch/options.h"
#include "launch/stdout_spool.h"
#include "launch/summary.h"

namespace fleet {

class FinalAttemptStdout {
 public:
  // Keeps nothing unless `options` ask for --stdout final; problems go to `notice`.
  FinalAttemptStdout(const LaunchOptions& options, LaunchNotice notice);

  // Attempt `number` starts: its stdout is kept from now on, the previous attempt's dropped.
  void start(unsigned number);
  // Whether the current attempt's stdout is kept (else it is passed through).
  bool keeping() const { return spool_.has_value(); }
  void keep(const char* data, std::size_t size);
  // The launcher's end of our stdout closed: the attempt's stdout so far goes to the output
  // spool at `path` (`fd`), where the rest follows.
  void hand_over(int fd, const std::string& path);
  // Once the launch has ended: writes the latest attempt's stdout to ours (once) and says
  // what it wrote; nullopt without --stdout final.
  std::optional<FinalStdout> deliver();

 private:
  bool final_mode_;
  std::size_t limit_;
  LaunchNotice notice_;
  std::optional<StdoutSpool> spool_;
  unsigned attempt_ = 0;
  std::string moved_to_;  // the output spool it went to instead, when stdout closed
};

}  // namespace fleet
