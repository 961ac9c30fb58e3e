#pragma once
// Complete lines out of a byte stream that arrives in pieces (an agent's stdout as it passes
// through): each piece is added to the line it continues, and every line completed by a '\n'
// is handed over whole, without the '\n'. A line longer than the limit is not kept: it is
// handed over empty once it ends, so a reader still counts it as a line.
// Failing: nothing here fails; a line that never ends is never handed over.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace fleet {

class StreamLines {
 public:
  explicit StreamLines(std::size_t max_line) : max_line_(max_line) {}

  // Hands each line that `data` completes to `visit`, in order, until `visit` returns false
  // (the rest of `data` is then dropped).
  void feed(std::string_view data, const std::function<bool(std::string_view line)>& visit);

 private:
  std::size_t max_line_;
  std::string partial_;
  bool skipping_ = false;  // the current line grew too long: dropped up to its end
};

}  // namespace fleet
