#pragma once
// The syntax of a JavaScript regular expression as Claude Code compiles a hook matcher (`new
// RegExp(m)`, no flags: the ECMAScript grammar with its web-compatibility annex), parsed into
// a tree over bytes that js_regex.cpp compiles to an automaton. The pattern is read as
// JavaScript reads it, in UTF-16 code units (a code unit above 0xFF matches no byte).
// Nesting deeper than kMaxDepth groups is reported, never recursed into.
// Failing: never throws; an invalid or unsupported pattern is the parse's status.
// Private to common/regex/: the rest of the code includes js_regex.h.

#include <bitset>
#include <cstdint>
#include <string_view>
#include <vector>

namespace fleet::js_regex {

using CharSet = std::bitset<256>;

inline constexpr std::uint64_t kInfinite = ~std::uint64_t{0};  // a repetition without bound
inline constexpr int kMaxDepth = 200;                          // nested groups

// A node of the tree: a set of bytes, an assertion, or a sequence, alternation or
// repetition ({min,max}, max kInfinite) of its children.
struct Node {
  enum Kind { chars, bol, eol, word_boundary, not_word_boundary, sequence, alternation, repeat };
  Kind kind = sequence;
  CharSet set;
  std::vector<Node> children;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
};

// \w: [A-Za-z0-9_] (also what \b looks at).
bool is_word(std::uint32_t c);

enum class Status {
  ok,
  invalid,      // new RegExp throws: Claude Code matches no tool
  unsupported,  // valid, but beyond an automaton (backreferences, lookaround, inline
                // modifiers, duplicate group names) or nested deeper than kMaxDepth
};

struct Parsed {
  Status status = Status::invalid;
  Node root;  // when ok
};

Parsed parse(std::string_view pattern);

}  // namespace fleet::js_regex
