#include "regex/js_regex_syntax.h"

#include <string>

namespace fleet::js_regex {
namespace {

constexpr std::uint64_t kNumberCap = std::uint64_t{1} << 53;  // as JavaScript numbers saturate

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

bool is_digit(std::uint32_t c) {
  return c >= '0' && c <= '9';
}
bool is_hex(std::uint32_t c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_letter(std::uint32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
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

bool is_class_escape(std::uint32_t c) {
  return c == 'd' || c == 'D' || c == 'w' || c == 'W' || c == 's' || c == 'S';
}

// One class atom: a code unit, or a set (\d, \w, \s and their negations).
struct ClassAtom {
  bool is_set = false;
  CharSet set;
  std::uint32_t unit = 0;
};

// The pattern as JavaScript sees it: UTF-16 code units (a byte that is not UTF-8 stands for
// itself).
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

std::uint32_t hex_value(std::uint32_t c) {
  return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

class Parser {
 public:
  explicit Parser(std::string_view pattern) : p_(code_units(pattern)) { count_groups(); }

  Parsed parse() {
    Parsed parsed;
    parsed.root = disjunction(0);
    if (!invalid_ && at_end()) {
      parsed.status = too_deep_ || unsupported_ ? Status::unsupported : Status::ok;
    } else {
      parsed.status = too_deep_ ? Status::unsupported : Status::invalid;
    }
    return parsed;
  }

 private:
  bool at_end() const { return i_ >= p_.size(); }
  std::uint32_t peek(std::size_t ahead = 0) const {
    return i_ + ahead < p_.size() ? p_[i_ + ahead] : 0;
  }
  bool has(std::size_t ahead) const { return i_ + ahead < p_.size(); }
  bool fail() {
    invalid_ = true;
    return false;
  }

  // Capture groups anywhere in the pattern decide whether \N is a backreference, and named
  // groups whether \k is one.
  void count_groups() {
    bool in_class = false;
    for (std::size_t i = 0; i < p_.size(); ++i) {
      const std::uint32_t c = p_[i];
      if (c == '\\') {
        ++i;
      } else if (in_class) {
        in_class = c != ']';
      } else if (c == '[') {
        in_class = true;
      } else if (c == '(') {
        if (i + 1 >= p_.size() || p_[i + 1] != '?') {
          ++groups_;
        } else if (i + 2 < p_.size() && p_[i + 2] == '<' && i + 3 < p_.size() && p_[i + 3] != '=' &&
                   p_[i + 3] != '!') {
          ++groups_;
          named_ = true;
        }
      }
    }
  }

  Node disjunction(int depth) {
    Node node;
    node.kind = Node::alternation;
    node.children.push_back(alternative(depth));
    while (!invalid_ && peek() == '|' && has(0)) {
      ++i_;
      node.children.push_back(alternative(depth));
    }
    if (node.children.size() == 1) return std::move(node.children.front());
    return node;
  }

  Node alternative(int depth) {
    Node node;
    node.kind = Node::sequence;
    while (!invalid_ && !too_deep_ && !at_end() && peek() != '|' && peek() != ')') {
      bool quantifiable = true;
      Node atom;
      if (!term(atom, quantifiable, depth)) break;
      if (!quantifier(atom, quantifiable)) break;
      node.children.push_back(std::move(atom));
    }
    return node;
  }

  // {n}, {n,}, {n,m} at i_ (not consumed unless `consume`). False when it is not one.
  bool braced(std::uint64_t& min, std::uint64_t& max, bool consume) {
    std::size_t j = i_ + 1;
    auto number = [&](std::uint64_t& value) {
      const std::size_t start = j;
      value = 0;
      while (j < p_.size() && is_digit(p_[j])) {
        value = value >= kNumberCap ? kNumberCap : value * 10 + (p_[j] - '0');
        ++j;
      }
      return j > start;
    };
    if (peek() != '{' || !number(min)) return false;
    max = min;
    if (j < p_.size() && p_[j] == ',') {
      ++j;
      if (!number(max)) max = kInfinite;
    }
    if (j >= p_.size() || p_[j] != '}') return false;
    if (consume) i_ = j + 1;
    return true;
  }

  bool quantifier(Node& atom, bool quantifiable) {
    std::uint64_t min = 0;
    std::uint64_t max = 0;
    const std::uint32_t c = peek();
    if (at_end()) return true;
    if (c == '*' || c == '+' || c == '?') {
      min = c == '+' ? 1 : 0;
      max = c == '?' ? 1 : kInfinite;
      ++i_;
    } else if (!braced(min, max, true)) {
      return true;
    }
    if (!quantifiable) return fail();  // "nothing to repeat"
    if (max != kInfinite && min > max) return fail();
    if (peek() == '?' && has(0)) ++i_;  // lazy: the same strings match
    Node repeat;
    repeat.kind = Node::repeat;
    repeat.min = min;
    repeat.max = max;
    repeat.children.push_back(std::move(atom));
    atom = std::move(repeat);
    return true;
  }

  bool term(Node& atom, bool& quantifiable, int depth) {
    const std::uint32_t c = peek();
    switch (c) {
      case '^':
        ++i_;
        atom.kind = Node::bol;
        quantifiable = false;
        return true;
      case '$':
        ++i_;
        atom.kind = Node::eol;
        quantifiable = false;
        return true;
      case '*':
      case '+':
      case '?':
        return fail();
      case '{': {
        std::uint64_t min = 0;
        std::uint64_t max = 0;
        if (braced(min, max, false)) return fail();
        ++i_;
        atom = unit_node('{');
        return true;
      }
      case '.': {
        ++i_;
        CharSet set;
        set.set();
        set.reset('\n');
        set.reset('\r');
        atom = chars_node(set);
        return true;
      }
      case '[':
        return character_class(atom);
      case '(':
        return group(atom, quantifiable, depth);
      case '\\':
        if (peek(1) == 'b' || peek(1) == 'B') {
          atom.kind = peek(1) == 'b' ? Node::word_boundary : Node::not_word_boundary;
          i_ += 2;
          quantifiable = false;
          return true;
        }
        return atom_escape(atom);
      default:
        atom = literal();
        return true;
    }
  }

  // A source character (a UTF-16 code unit: an astral character is two atoms, as in a
  // non-unicode RegExp, and a quantifier binds to the second).
  Node literal() { return unit_node(p_[i_++]); }

  bool group(Node& atom, bool& quantifiable, int depth) {
    if (depth + 1 > kMaxDepth) {
      too_deep_ = true;
      return false;
    }
    ++i_;
    if (peek() == '?') {
      const std::uint32_t kind = peek(1);
      if (kind == ':') {
        i_ += 2;
      } else if (kind == '=' || kind == '!') {
        i_ += 2;
        unsupported_ = true;  // lookahead (quantifiable in the annex)
      } else if (kind == '<' && (peek(2) == '=' || peek(2) == '!')) {
        i_ += 3;
        unsupported_ = true;  // lookbehind
        quantifiable = false;
      } else if (kind == '<') {
        ++i_;  // onto '<'
        const std::size_t start = i_ + 1;
        if (!group_name()) return fail();
        const std::vector<std::uint32_t> name(p_.begin() + static_cast<std::ptrdiff_t>(start),
                                              p_.begin() + static_cast<std::ptrdiff_t>(i_ - 1));
        for (const auto& seen : names_) {
          if (seen == name) unsupported_ = true;  // a duplicate name: valid only in newer runtimes
        }
        names_.push_back(name);
      } else if (kind == 'i' || kind == 'm' || kind == 's' || kind == '-') {
        unsupported_ = true;  // inline modifiers: newer than what every runtime accepts
        while (!at_end() && peek() != ':' && peek() != ')') ++i_;
        if (peek() != ':') return fail();
        ++i_;
      } else {
        return fail();
      }
    }
    atom = disjunction(depth + 1);
    if (invalid_ || too_deep_) return false;
    if (peek() != ')' || at_end()) return fail();
    ++i_;
    return true;
  }

  // <name> after "(?" or "\k"; i_ is on '<'.
  bool group_name() {
    if (peek() != '<') return false;
    ++i_;
    const std::size_t start = i_;
    while (!at_end() && (is_word(peek()) || peek() == '$' || peek() >= 0x80)) {
      ++i_;
    }
    if (i_ == start || is_digit(p_[start]) || peek() != '>' || at_end()) return false;
    ++i_;
    return true;
  }

  // Escapes shared by atoms and classes, i_ on the character after '\'. Returns false when the
  // escape is not one of them.
  bool character_escape(std::uint32_t& unit, bool in_class) {
    const std::uint32_t c = peek();
    switch (c) {
      case 'f':
        unit = 0x0C;
        break;
      case 'n':
        unit = 0x0A;
        break;
      case 'r':
        unit = 0x0D;
        break;
      case 't':
        unit = 0x09;
        break;
      case 'v':
        unit = 0x0B;
        break;
      case 'c':
        if (is_letter(peek(1)) || (in_class && (is_digit(peek(1)) || peek(1) == '_'))) {
          unit = peek(1) % 32;
          i_ += 2;
          return true;
        }
        unit = '\\';  // the annex: "\c" not followed by a letter is a backslash, then "c"
        return true;
      case 'x':
        if (is_hex(peek(1)) && is_hex(peek(2))) {
          unit = hex_value(peek(1)) * 16 + hex_value(peek(2));
          i_ += 3;
          return true;
        }
        unit = 'x';
        break;
      case 'u':
        if (is_hex(peek(1)) && is_hex(peek(2)) && is_hex(peek(3)) && is_hex(peek(4))) {
          unit = 0;
          for (std::size_t k = 1; k <= 4; ++k) unit = unit * 16 + hex_value(peek(k));
          i_ += 5;
          return true;
        }
        unit = 'u';
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {  // legacy octal: up to three digits, at most 0377
        unit = 0;
        const int most = c <= '3' ? 3 : 2;
        for (int n = 0; n < most && peek() >= '0' && peek() <= '7' && has(0); ++n) {
          unit = unit * 8 + (peek() - '0');
          ++i_;
        }
        return true;
      }
      default:
        return false;
    }
    ++i_;
    return true;
  }

  bool atom_escape(Node& atom) {
    ++i_;                         // the backslash
    if (at_end()) return fail();  // "\ at end of pattern"
    const std::uint32_t c = peek();
    if (is_class_escape(c)) {
      ++i_;
      atom = chars_node(class_escape_set(c));
      return true;
    }
    if (c >= '1' && c <= '9') {
      std::uint64_t number = 0;
      std::size_t j = i_;
      while (j < p_.size() && is_digit(p_[j])) {
        number = number >= kNumberCap ? kNumberCap : number * 10 + (p_[j] - '0');
        ++j;
      }
      if (number <= groups_) {
        i_ = j;
        unsupported_ = true;  // a backreference
        atom = chars_node(CharSet{});
        return true;
      }
      if (c == '8' || c == '9') {  // the annex: an identity escape
        ++i_;
        atom = unit_node(c);
        return true;
      }
    }
    if (c == 'k' && named_) {
      ++i_;
      if (!group_name()) return fail();
      unsupported_ = true;  // a named backreference
      atom = chars_node(CharSet{});
      return true;
    }
    std::uint32_t unit = 0;
    if (character_escape(unit, false)) {
      atom = unit_node(unit);
      return true;
    }
    atom = literal();  // an identity escape
    return true;
  }

  bool class_atom(ClassAtom& out) {
    out.is_set = false;
    if (peek() != '\\') {
      out.unit = p_[i_++];
      return true;
    }
    ++i_;
    if (at_end()) return fail();
    const std::uint32_t c = peek();
    if (is_class_escape(c)) {
      ++i_;
      out.is_set = true;
      out.set = class_escape_set(c);
      return true;
    }
    if (c == 'b' || c == '-') {
      out.unit = c == 'b' ? 0x08 : '-';
      ++i_;
      return true;
    }
    if (c == 'k' && named_) return fail();
    if (c == '8' || c == '9') {
      out.unit = c;
      ++i_;
      return true;
    }
    if (character_escape(out.unit, true)) return true;
    out.unit = p_[i_++];  // an identity escape
    return true;
  }

  bool character_class(Node& atom) {
    ++i_;  // '['
    const bool negate = peek() == '^' && has(0);
    if (negate) ++i_;
    CharSet set;
    auto add = [&](const ClassAtom& a) {
      if (a.is_set) {
        set |= a.set;
      } else if (a.unit < 256) {
        set.set(a.unit);
      }
    };
    while (true) {
      if (at_end()) return fail();  // "unterminated character class"
      if (peek() == ']') {
        ++i_;
        break;
      }
      ClassAtom first;
      if (!class_atom(first)) return false;
      if (peek() == '-' && has(1) && peek(1) != ']') {
        ++i_;
        ClassAtom last;
        if (!class_atom(last)) return false;
        if (first.is_set || last.is_set) {  // the annex: [\d-z] is \d, '-' and 'z'
          add(first);
          add(last);
          set.set('-');
          continue;
        }
        if (first.unit > last.unit) return fail();  // "range out of order"
        for (std::uint32_t u = first.unit; u <= last.unit && u < 256; ++u) set.set(u);
        continue;
      }
      add(first);
    }
    if (negate) set.flip();
    atom = chars_node(set);
    return true;
  }

 private:
  std::vector<std::uint32_t> p_;
  std::size_t i_ = 0;
  unsigned groups_ = 0;
  bool named_ = false;
  bool invalid_ = false;
  bool unsupported_ = false;
  bool too_deep_ = false;
  std::vector<std::vector<std::uint32_t>> names_;
};

}  // namespace

bool is_word(std::uint32_t c) {
  return is_letter(c) || is_digit(c) || c == '_';
}

Parsed parse(std::string_view pattern) {
  return Parser(pattern).parse();
}

}  // namespace fleet::js_regex
