#pragma once
// A list of words as a sentence says it: "a, b or c". The one join behind every text that
// names several things (the agent CLIs, the dispatch tools a plugin guards).
// Failing: nothing; an empty list is "".

#include <algorithm>
#include <span>
#include <string>
#include <string_view>

namespace fleet {

// `words` joined by `separator`, the last two by `last_separator`: ("a", "b", "c"), ", ",
// " or " gives "a, b or c".
std::string word_list(std::span<const std::string> words, std::string_view separator,
                      std::string_view last_separator);

// Whether `word` is one of `words`.
inline bool contains(std::span<const std::string> words, std::string_view word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

}  // namespace fleet
