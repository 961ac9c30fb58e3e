#include "regex/js_regex_syntax.h"

#include <string>
#include <utility>

#include "regex/js_regex_class.h"
#include "regex/js_regex_cursor.h"

namespace fleet::js_regex {
namespace {

constexpr std::uint64_t kNumberCap = std::uint64_t{1} << 53;  // as JavaScript numbers saturate

// The grammar's disjunctions, alternatives, terms, groups and quantifiers; what stands for
// characters is js_regex_class.h.
class Parser : Cursor {
 public:
  explicit Parser(std::string_view pattern) : Cursor(pattern) { count_groups(); }

  Parsed parse() {
    Parsed parsed;
    parsed.root = disjunction(0);
    if (!invalid && at_end()) {
      parsed.status = too_deep_ || unsupported_ ? Status::unsupported : Status::ok;
    } else {
      parsed.status = too_deep_ ? Status::unsupported : Status::invalid;
    }
    return parsed;
  }

 private:
  // Capture groups anywhere in the pattern decide whether \N is a backreference, and named
  // groups whether \k is one.
  void count_groups() {
    bool in_class = false;
    for (std::size_t i = 0; i < units.size(); ++i) {
      const std::uint32_t c = units[i];
      if (c == '\\') {
        ++i;
      } else if (in_class) {
        in_class = c != ']';
      } else if (c == '[') {
        in_class = true;
      } else if (c == '(') {
        if (i + 1 >= units.size() || units[i + 1] != '?') {
          ++groups_;
        } else if (i + 2 < units.size() && units[i + 2] == '<' && i + 3 < units.size() &&
                   units[i + 3] != '=' && units[i + 3] != '!') {
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
    while (!invalid && peek() == '|' && has(0)) {
      ++at;
      node.children.push_back(alternative(depth));
    }
    if (node.children.size() == 1) return std::move(node.children.front());
    return node;
  }

  Node alternative(int depth) {
    Node node;
    node.kind = Node::sequence;
    while (!invalid && !too_deep_ && !at_end() && peek() != '|' && peek() != ')') {
      bool quantifiable = true;
      Node atom;
      if (!term(atom, quantifiable, depth)) break;
      if (!quantifier(atom, quantifiable)) break;
      node.children.push_back(std::move(atom));
    }
    return node;
  }

  // {n}, {n,}, {n,m} at the cursor (not consumed unless `consume`). False when it is not one.
  bool braced(std::uint64_t& min, std::uint64_t& max, bool consume) {
    std::size_t j = at + 1;
    auto number = [&](std::uint64_t& value) {
      const std::size_t start = j;
      value = 0;
      while (j < units.size() && is_digit(units[j])) {
        value = value >= kNumberCap ? kNumberCap : value * 10 + (units[j] - '0');
        ++j;
      }
      return j > start;
    };
    if (peek() != '{' || !number(min)) return false;
    max = min;
    if (j < units.size() && units[j] == ',') {
      ++j;
      if (!number(max)) max = kInfinite;
    }
    if (j >= units.size() || units[j] != '}') return false;
    if (consume) at = j + 1;
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
      ++at;
    } else if (!braced(min, max, true)) {
      return true;
    }
    if (!quantifiable) return fail();  // "nothing to repeat"
    if (max != kInfinite && min > max) return fail();
    if (peek() == '?' && has(0)) ++at;  // lazy: the same strings match
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
        ++at;
        atom.kind = Node::bol;
        quantifiable = false;
        return true;
      case '$':
        ++at;
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
        ++at;
        atom = unit_node('{');
        return true;
      }
      case '.': {
        ++at;
        CharSet set;
        set.set();
        set.reset('\n');
        set.reset('\r');
        atom = chars_node(set);
        return true;
      }
      case '[':
        if (std::optional<Node> cls = character_class(*this, named_)) {
          atom = std::move(*cls);
          return true;
        }
        return false;
      case '(':
        return group(atom, quantifiable, depth);
      case '\\':
        if (peek(1) == 'b' || peek(1) == 'B') {
          atom.kind = peek(1) == 'b' ? Node::word_boundary : Node::not_word_boundary;
          at += 2;
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
  Node literal() { return unit_node(units[at++]); }

  bool group(Node& atom, bool& quantifiable, int depth) {
    if (depth + 1 > kMaxDepth) {
      too_deep_ = true;
      return false;
    }
    ++at;
    if (peek() == '?') {
      const std::uint32_t kind = peek(1);
      if (kind == ':') {
        at += 2;
      } else if (kind == '=' || kind == '!') {
        at += 2;
        unsupported_ = true;  // lookahead (quantifiable in the annex)
      } else if (kind == '<' && (peek(2) == '=' || peek(2) == '!')) {
        at += 3;
        unsupported_ = true;  // lookbehind
        quantifiable = false;
      } else if (kind == '<') {
        ++at;  // onto '<'
        const std::size_t start = at + 1;
        if (!group_name()) return fail();
        const std::vector<std::uint32_t> name(units.begin() + static_cast<std::ptrdiff_t>(start),
                                              units.begin() + static_cast<std::ptrdiff_t>(at - 1));
        for (const auto& seen : names_) {
          if (seen == name) unsupported_ = true;  // a duplicate name: valid only in newer runtimes
        }
        names_.push_back(name);
      } else if (kind == 'i' || kind == 'm' || kind == 's' || kind == '-') {
        unsupported_ = true;  // inline modifiers: newer than what every runtime accepts
        while (!at_end() && peek() != ':' && peek() != ')') ++at;
        if (peek() != ':') return fail();
        ++at;
      } else {
        return fail();
      }
    }
    atom = disjunction(depth + 1);
    if (invalid || too_deep_) return false;
    if (peek() != ')' || at_end()) return fail();
    ++at;
    return true;
  }

  // <name> after "(?" or "\k"; at is on '<'.
  bool group_name() {
    if (peek() != '<') return false;
    ++at;
    const std::size_t start = at;
    while (!at_end() && (is_word(peek()) || peek() == '$' || peek() >= 0x80)) {
      ++at;
    }
    if (at == start || is_digit(units[start]) || peek() != '>' || at_end()) return false;
    ++at;
    return true;
  }

  bool atom_escape(Node& atom) {
    ++at;                         // the backslash
    if (at_end()) return fail();  // "\ at end of pattern"
    const std::uint32_t c = peek();
    if (is_class_escape(c)) {
      ++at;
      atom = chars_node(class_escape_set(c));
      return true;
    }
    if (c >= '1' && c <= '9') {
      std::uint64_t number = 0;
      std::size_t j = at;
      while (j < units.size() && is_digit(units[j])) {
        number = number >= kNumberCap ? kNumberCap : number * 10 + (units[j] - '0');
        ++j;
      }
      if (number <= groups_) {
        at = j;
        unsupported_ = true;  // a backreference
        atom = chars_node(CharSet{});
        return true;
      }
      if (c == '8' || c == '9') {  // the annex: an identity escape
        ++at;
        atom = unit_node(c);
        return true;
      }
    }
    if (c == 'k' && named_) {
      ++at;
      if (!group_name()) return fail();
      unsupported_ = true;  // a named backreference
      atom = chars_node(CharSet{});
      return true;
    }
    if (const std::optional<std::uint32_t> unit = character_escape(*this, false)) {
      atom = unit_node(*unit);
      return true;
    }
    atom = literal();  // an identity escape
    return true;
  }

  unsigned groups_ = 0;
  bool named_ = false;
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
