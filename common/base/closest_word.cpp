#include "base/closest_word.h"

#include <algorithm>

namespace fleet {
namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
// neighbouring characters each count 1.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string_view without_dashes(std::string_view word) {
  while (word.starts_with('-')) word.remove_prefix(1);
  return word;
}

}  // namespace

std::optional<std::string> closest_word(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  const std::string_view bare = without_dashes(word);
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const auto& candidate : candidates) {
    const std::string_view other = without_dashes(candidate);
    std::size_t distance = edit_distance(bare, other);
    if (distance * 3 > std::max(bare.size(), other.size())) distance = 3;
    if (bare.size() >= 3 && other.starts_with(bare) &&
        word.starts_with('-') == candidate.starts_with('-')) {
      distance = std::min<std::size_t>(distance, 2);
    }
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace fleet
