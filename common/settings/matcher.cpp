#include "settings/matcher.h"

#include "regex/js_regex.h"

namespace fleet {
namespace {

bool is_plain_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '|' || c == ',' || c == ' ';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

}  // namespace

bool matcher_is_plain(std::string_view matcher) {
  for (char c : matcher) {
    if (!is_plain_char(c)) return false;
  }
  return true;
}

bool matcher_matches(std::string_view matcher, std::string_view tool_name) {
  if (trim(matcher).empty() || trim(matcher) == "*") return true;
  if (matcher_is_plain(matcher)) {
    while (!matcher.empty()) {
      const std::size_t cut = matcher.find_first_of("|,");
      if (trim(matcher.substr(0, cut)) == tool_name) return true;
      if (cut == std::string_view::npos) break;
      matcher.remove_prefix(cut + 1);
    }
    return false;
  }
  return regex_search(matcher, tool_name) == RegexSearch::match;
}

MatcherReading read_matcher(std::string_view matcher) {
  if (trim(matcher).empty() || trim(matcher) == "*" || matcher_is_plain(matcher)) {
    return MatcherReading::exact;
  }
  switch (regex_search(matcher, "")) {
    case RegexSearch::invalid:
      return MatcherReading::invalid;
    case RegexSearch::unsupported:
      return MatcherReading::unsupported;
    default:
      return MatcherReading::exact;
  }
}

}  // namespace fleet
