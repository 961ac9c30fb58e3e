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

// \xHH (`digits` 2) or \uHHHH (4) at the cursor (on 'x' or 'u'); nullopt (nothing consumed)
// when the digits are not all there.
std::optional<std::uint32_t> hex_escape(Cursor& cursor, std::size_t digits) {
  for (std::size_t k = 1; k <= digits; ++k) {
    if (!is_hex(cursor.peek(k))) return std::nullopt;
  }
  std::uint32_t unit = 0;
  for (std::size_t k = 1; k <= digits; ++k) unit = unit * 16 + hex_value(cursor.peek(k));
  cursor.at += digits + 1;
  return unit;
}

ClassAtom unit_atom(std::uint32_t unit) {
  return {.is_set = false, .set = {}, .unit = unit};
}

// The class atom at the cursor; nullopt when the pattern is invalid (marked on the cursor).
std::optional<ClassAtom> class_atom(Cursor& cursor, bool named_groups) {
  if (cursor.peek() != '\\') return unit_atom(cursor.units[cursor.at++]);
  ++cursor.at;
  if (cursor.at_end()) {
    cursor.fail();
    return std::nullopt;
  }
  const std::uint32_t c = cursor.peek();
  if (is_class_escape(c)) {
    ++cursor.at;
    return ClassAtom{.is_set = true, .set = class_escape_set(c), .unit = 0};
  }
  if (c == 'b' || c == '-') {
    ++cursor.at;
    return unit_atom(c == 'b' ? 0x08 : '-');
  }
  if (c == 'k' && named_groups) {
    cursor.fail();
    return std::nullopt;
  }
  if (c == '8' || c == '9') {
    ++cursor.at;
    return unit_atom(c);
  }
  if (const std::optional<std::uint32_t> unit = character_escape(cursor, true))
    return unit_atom(*unit);
  return unit_atom(cursor.units[cursor.at++]);  // an identity escape
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

std::optional<std::uint32_t> character_escape(Cursor& cursor, bool in_class) {
  const std::uint32_t c = cursor.peek();
  if (const std::optional<std::uint32_t> control = control_escape(c)) {
    ++cursor.at;
    return control;
  }
  if (c >= '0' && c <= '7') return legacy_octal(cursor);
  if (c == 'c') {
    const std::uint32_t next = cursor.peek(1);
    if (is_letter(next) || (in_class && (is_digit(next) || next == '_'))) {
      cursor.at += 2;
      return next % 32;
    }
    return '\\';  // the annex: "\c" not followed by a letter is a backslash, then "c"
  }
  if (c == 'x' || c == 'u') {
    if (const std::optional<std::uint32_t> unit = hex_escape(cursor, c == 'x' ? 2 : 4)) return unit;
    ++cursor.at;
    return c;  // the annex: an identity escape
  }
  return std::nullopt;
}

std::optional<Node> character_class(Cursor& cursor, bool named_groups) {
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
    if (cursor.at_end()) {
      cursor.fail();  // "unterminated character class"
      return std::nullopt;
    }
    if (cursor.peek() == ']') {
      ++cursor.at;
      break;
    }
    const std::optional<ClassAtom> first = class_atom(cursor, named_groups);
    if (!first) return std::nullopt;
    if (cursor.peek() == '-' && cursor.has(1) && cursor.peek(1) != ']') {
      ++cursor.at;
      const std::optional<ClassAtom> last = class_atom(cursor, named_groups);
      if (!last) return std::nullopt;
      if (first->is_set || last->is_set) {  // the annex: [\d-z] is \d, '-' and 'z'
        add(*first);
        add(*last);
        set.set('-');
        continue;
      }
      if (first->unit > last->unit) {
        cursor.fail();  // "range out of order"
        return std::nullopt;
      }
      for (std::uint32_t u = first->unit; u <= last->unit && u < 256; ++u) set.set(u);
      continue;
    }
    add(*first);
  }
  if (negate) set.flip();
  return chars_node(set);
}

}  // namespace fleet::js_regex
