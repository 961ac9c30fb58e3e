#pragma once
// A JavaScript regular expression's pattern as its parser reads it: UTF-16 code units, as
// JavaScript reads a pattern (a byte that is not UTF-8 stands for itself), and the parser's
// place in them; the character predicates the grammar names. Private to common/regex/.
// Failing: never throws; a pattern found invalid is marked (fail) and stays so.

#include <cstdint>
#include <string_view>
#include <vector>

namespace fleet::js_regex {

inline bool is_digit(std::uint32_t c) {
  return c >= '0' && c <= '9';
}
inline bool is_hex(std::uint32_t c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
inline bool is_letter(std::uint32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// The value of a hex digit.
inline std::uint32_t hex_value(std::uint32_t c) {
  return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

struct Cursor {
  explicit Cursor(std::string_view pattern);

  bool at_end() const { return at >= units.size(); }
  // The code unit `ahead` of the place; 0 past the end.
  std::uint32_t peek(std::size_t ahead = 0) const {
    return at + ahead < units.size() ? units[at + ahead] : 0;
  }
  bool has(std::size_t ahead) const { return at + ahead < units.size(); }
  // Marks the pattern invalid; false, for the caller to return.
  bool fail() {
    invalid = true;
    return false;
  }

  std::vector<std::uint32_t> units;
  std::size_t at = 0;
  bool invalid = false;
};

}  // namespace fleet::js_regex
