#include "regex/js_regex_class.h"

#include <optional>

namespace fleet::js_regex {
namespace {

// One class atom: a code unit, or a set (\d, \w, \s and their negations).
struct ClassAtom {
  bool is_set = false;
  CharSet set;
  std::uint32_t unit = 0;
};

// \f \n \r \t \v.
std::optional<std::uint32_t> control_escape(std::uint32_t c) {
  switch (c) {
    case 'f':
      return 0x0C;
    case 'n':
      return 0x0A;
    case 'r':
      return 0x0D;
    case 't':
      return 0x09;
    case 'v':
      return 0x0B;
    default:
      return std::nullopt;
  }
}

// The annex's legacy octal escape at the cursor (a digit 0-7): up to three digits, at most 0377.
std::uint32_t legacy_octal(Cursor& cursor) {
  std::uint32_t unit = 0;
  const int most = cursor.peek() <= '3' ? 3 : 2;
  for (int n = 0; n < most && cursor.peek() >= '0' && cursor.peek() <= '7' && cursor.has(0); ++n) {
    unit = unit * 8 + (cursor.peek() - '0');
    ++cursor.at;
  }
  return unit;
}

// \xHH (`digits` 2) or \uHHHH (4) at the cursor (on 'x' or 'u'); false when the digits are not
// all there.
bool hex_escape(Cursor& cursor, std::size_t digits, std::uint32_t& unit) {
  for (std::size_t k = 1; k <= digits; ++k) {
    if (!is_hex(cursor.peek(k))) return false;
  }
  unit = 0;
  for (std::size_t k = 1; k <= digits; ++k) unit = unit * 16 + hex_value(cursor.peek(k));
  cursor.at += digits + 1;
  return true;
}

bool class_atom(Cursor& cursor, ClassAtom& out, bool named_groups) {
  out.is_set = false;
  if (cursor.peek() != '\\') {
    out.unit = cursor.units[cursor.at++];
    return true;
  }
  ++cursor.at;
  if (cursor.at_end()) return cursor.fail();
  const std::uint32_t c = cursor.peek();
  if (is_class_escape(c)) {
    ++cursor.at;
    out.is_set = true;
    out.set = class_escape_set(c);
    return true;
  }
  if (c == 'b' || c == '-') {
    out.unit = c == 'b' ? 0x08 : '-';
    ++cursor.at;
    return true;
  }
  if (c == 'k' && named_groups) return cursor.fail();
  if (c == '8' || c == '9') {
    out.unit = c;
    ++cursor.at;
    return true;
  }
  if (character_escape(cursor, out.unit, true)) return true;
  out.unit = cursor.units[cursor.at++];  // an identity escape
  return true;
}

}  // namespace

Node chars_node(const CharSet& set) {
  Node node;
  node.kind = Node::chars;
  node.set = set;
  return node;
}

Node unit_node(std::uint32_t code_unit) {
  CharSet set;
  if (code_unit < 256) set.set(code_unit);
  return chars_node(set);
}

bool is_class_escape(std::uint32_t c) {
  return c == 'd' || c == 'D' || c == 'w' || c == 'W' || c == 's' || c == 'S';
}

CharSet class_escape_set(std::uint32_t c) {
  CharSet set;
  for (std::uint32_t u = 0; u < 256; ++u) {
    const bool space = u == ' ' || (u >= 0x09 && u <= 0x0D) || u == 0xA0;
    const bool member = (c == 'd' || c == 'D')   ? is_digit(u)
                        : (c == 'w' || c == 'W') ? is_word(u)
                                                 : space;
    set.set(u, member);
  }
  if (c == 'D' || c == 'W' || c == 'S') set.flip();
  return set;
}

bool character_escape(Cursor& cursor, std::uint32_t& unit, bool in_class) {
  const std::uint32_t c = cursor.peek();
  if (const std::optional<std::uint32_t> control = control_escape(c)) {
    unit = *control;
    ++cursor.at;
    return true;
  }
  if (c >= '0' && c <= '7') {
    unit = legacy_octal(cursor);
    return true;
  }
  if (c == 'c') {
    const std::uint32_t next = cursor.peek(1);
    if (is_letter(next) || (in_class && (is_digit(next) || next == '_'))) {
      unit = next % 32;
      cursor.at += 2;
      return true;
    }
    unit = '\\';  // the annex: "\c" not followed by a letter is a backslash, then "c"
    return true;
  }
  if (c == 'x' || c == 'u') {
    if (hex_escape(cursor, c == 'x' ? 2 : 4, unit)) return true;
    unit = c;  // the annex: an identity escape
    ++cursor.at;
    return true;
  }
  return false;
}

bool character_class(Cursor& cursor, Node& atom, bool named_groups) {
  ++cursor.at;  // '['
  const bool negate = cursor.peek() == '^' && cursor.has(0);
  if (negate) ++cursor.at;
  CharSet set;
  auto add = [&](const ClassAtom& a) {
    if (a.is_set) {
      set |= a.set;
    } else if (a.unit < 256) {
      set.set(a.unit);
    }
  };
  while (true) {
    if (cursor.at_end()) return cursor.fail();  // "unterminated character class"
    if (cursor.peek() == ']') {
      ++cursor.at;
      break;
    }
    ClassAtom first;
    if (!class_atom(cursor, first, named_groups)) return false;
    if (cursor.peek() == '-' && cursor.has(1) && cursor.peek(1) != ']') {
      ++cursor.at;
      ClassAtom last;
      if (!class_atom(cursor, last, named_groups)) return false;
      if (first.is_set || last.is_set) {  // the annex: [\d-z] is \d, '-' and 'z'
        add(first);
        add(last);
        set.set('-');
        continue;
      }
      if (first.unit > last.unit) return cursor.fail();  // "range out of order"
      for (std::uint32_t u = first.unit; u <= last.unit && u < 256; ++u) set.set(u);
      continue;
    }
    add(first);
  }
  if (negate) set.flip();
  atom = chars_node(set);
  return true;
}

}  // namespace fleet::js_regex
