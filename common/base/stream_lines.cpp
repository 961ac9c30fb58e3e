#include "base/stream_lines.h"

namespace fleet {

void StreamLines::feed(std::string_view data,
                       const std::function<bool(std::string_view line)>& visit) {
  while (!data.empty()) {
    const std::size_t newline = data.find('\n');
    if (!skipping_) partial_.append(data.substr(0, newline));
    if (partial_.size() > max_line_) {
      partial_.clear();
      skipping_ = true;
    }
    if (newline == std::string_view::npos) return;
    data.remove_prefix(newline + 1);
    const bool more = visit(skipping_ ? std::string_view() : std::string_view(partial_));
    partial_.clear();
    skipping_ = false;
    if (!more) return;
  }
}

}  // namespace fleet
