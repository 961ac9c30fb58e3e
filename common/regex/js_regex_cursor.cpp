#include "regex/js_regex_cursor.h"

namespace fleet::js_regex {
namespace {

std::vector<std::uint32_t> code_units(std::string_view text) {
  std::vector<std::uint32_t> units;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    std::uint32_t code = length == 1 ? lead : lead & (0x7Fu >> length);
    std::size_t used = 1;
    while (used < length && i + used < text.size() &&
           (static_cast<unsigned char>(text[i + used]) & 0xC0) == 0x80) {
      code = (code << 6) | (static_cast<unsigned char>(text[i + used]) & 0x3F);
      ++used;
    }
    if (used != length || lead >= 0xF8 || (lead >= 0x80 && lead < 0xC0)) code = lead, used = 1;
    if (code > 0xFFFF) {
      units.push_back(0xD800 + ((code - 0x10000) >> 10));
      units.push_back(0xDC00 + ((code - 0x10000) & 0x3FF));
    } else {
      units.push_back(code);
    }
    i += used;
  }
  return units;
}

}  // namespace

Cursor::Cursor(std::string_view pattern) : units(code_units(pattern)) {}

}  // namespace fleet::js_regex
