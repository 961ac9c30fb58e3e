#include "base/word_list.h"

namespace fleet {

std::string word_list(std::span<const std::string> words, std::string_view separator,
                      std::string_view last_separator) {
  std::string list;
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) list += i + 1 == words.size() ? last_separator : separator;
    list += words[i];
  }
  return list;
}

}  // namespace fleet
