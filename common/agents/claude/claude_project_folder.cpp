#include "agents/claude/claude_project_folder.h"

#include <cstdint>
#include <optional>

namespace fleet {
namespace {

constexpr std::size_t kLongestName = 200;
constexpr char16_t kReplacement = 0xFFFD;

void append_utf16(std::u16string& out, char32_t code_point) {
  if (code_point < 0x10000) {
    out.push_back(static_cast<char16_t>(code_point));
    return;
  }
  code_point -= 0x10000;
  out.push_back(static_cast<char16_t>(0xD800 + (code_point >> 10)));
  out.push_back(static_cast<char16_t>(0xDC00 + (code_point & 0x3FF)));
}

// A UTF-8 sequence that starts with `lead`: how many bytes follow, the bits the lead
// carries, and the range its first continuation byte must be in (no overlong form, no
// surrogate, nothing above U+10FFFF). `more` 0 for an ASCII byte; nullopt for no sequence.
struct Sequence {
  std::size_t more = 0;
  char32_t bits = 0;
  unsigned char lower = 0x80, upper = 0xBF;
};
std::optional<Sequence> sequence_of(unsigned char lead) {
  if (lead < 0x80) return Sequence{0, lead};
  if (lead >= 0xC2 && lead <= 0xDF) return Sequence{1, char32_t(lead & 0x1F)};
  if (lead >= 0xE0 && lead <= 0xEF) {
    return Sequence{2, char32_t(lead & 0x0F),
                    static_cast<unsigned char>(lead == 0xE0 ? 0xA0 : 0x80),
                    static_cast<unsigned char>(lead == 0xED ? 0x9F : 0xBF)};
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    return Sequence{3, char32_t(lead & 0x07),
                    static_cast<unsigned char>(lead == 0xF0 ? 0x90 : 0x80),
                    static_cast<unsigned char>(lead == 0xF4 ? 0x8F : 0xBF)};
  }
  return std::nullopt;
}

// The UTF-16 code units of the UTF-8 text, as JavaScript holds a string; an invalid sequence
// is one U+FFFD for its longest valid beginning (the WHATWG decoder's rule, which Node and
// Bun follow).
std::u16string utf16_units(std::string_view text) {
  std::u16string units;
  units.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::optional<Sequence> sequence = sequence_of(static_cast<unsigned char>(text[i]));
    if (!sequence) {
      units.push_back(kReplacement);
      ++i;
      continue;
    }
    std::size_t used = 1;
    for (; used <= sequence->more && i + used < text.size(); ++used) {
      const auto next = static_cast<unsigned char>(text[i + used]);
      if (next < sequence->lower || next > sequence->upper) break;
      sequence->bits = (sequence->bits << 6) | (next & 0x3F);
      sequence->lower = 0x80;
      sequence->upper = 0xBF;
    }
    if (used <= sequence->more) {
      units.push_back(kReplacement);  // the byte that broke it starts the next sequence
    } else {
      append_utf16(units, sequence->bits);
    }
    i += used;
  }
  return units;
}

bool ascii_alphanumeric(char16_t unit) {
  return (unit >= u'0' && unit <= u'9') || (unit >= u'A' && unit <= u'Z') ||
         (unit >= u'a' && unit <= u'z');
}

// |h| for the hash h of the code units (h = h * 31 + unit, kept to 32 bits, signed).
std::uint32_t hash_magnitude(const std::u16string& units) {
  std::uint32_t hash = 0;  // unsigned: wraps as JavaScript's `| 0` does
  for (const char16_t unit : units) hash = hash * 31u + unit;
  return (hash & 0x80000000u) != 0 ? 0u - hash : hash;  // the two's complement magnitude
}

std::string base36(std::uint32_t value) {
  std::string digits;
  do {
    digits.insert(digits.begin(), "0123456789abcdefghijklmnopqrstuvwxyz"[value % 36]);
    value /= 36;
  } while (value != 0);
  return digits;
}

}  // namespace

std::string claude_project_folder(std::string_view cwd) {
  const std::u16string units = utf16_units(cwd);
  std::string name;
  name.reserve(units.size());
  for (const char16_t unit : units) name.push_back(ascii_alphanumeric(unit) ? char(unit) : '-');
  if (name.size() <= kLongestName) return name;
  return name.substr(0, kLongestName) + "-" + base36(hash_magnitude(units));
}

}  // namespace fleet
