#pragma once
// `--stdout final`: an attempt's stdout kept in a bounded temporary file instead of being
// passed through, so that only the final attempt's reaches the wrapper's stdout, once the
// launch has ended (doc/launch-wrapper.md, "Final stdout: for launchers that parse the
// result at the end").

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "base/files.h"

namespace fleet {

// What deliver() wrote.
struct SpoolDelivery {
  std::uint64_t bytes = 0;             // written to the descriptor
  std::uint64_t dropped = 0;           // received but not written
  bool truncated = false;              // more was received than the limit keeps
  std::optional<std::string> problem;  // why the output is incomplete, when it is
};

class StdoutSpool {
 public:
  // An unlinked file in $TMPDIR (else /tmp), mode 0600, that keeps the last `limit` bytes
  // appended (limit > 0). Throws Error when no such file can be made.
  explicit StdoutSpool(std::size_t limit);

  // Keeps `data`; the oldest bytes beyond the limit are dropped. A failed write (a full
  // disk) ends the spooling: deliver() says so.
  void append(const char* data, std::size_t size);

  // Writes what is kept to `fd`: all of it, or when bytes were dropped, from the first line
  // kept whole (the whole tail when it holds no line end). Waits while `fd` is full.
  SpoolDelivery deliver(int fd) const;

  std::uint64_t received() const { return received_; }

 private:
  // Copies the kept bytes [from, to) (counted from the oldest kept byte) to `fd`, adding
  // what it wrote to `written`. Throws Error.
  void copy(std::uint64_t from, std::uint64_t to, int fd, std::uint64_t& written) const;
  // Where the first line kept whole starts (0 when nothing was dropped or no line ends).
  std::uint64_t first_whole_line() const;
  std::uint64_t kept() const;
  std::uint64_t oldest_position() const;  // file offset of the oldest kept byte

  UniqueFd file_;
  std::size_t limit_;
  std::uint64_t received_ = 0;  // appended in all
  std::uint64_t stored_ = 0;    // of those, written to the file (all until a write fails)
  std::optional<std::string> problem_;
};

}  // namespace fleet
