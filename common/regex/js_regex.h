#pragma once
// JavaScript regular expressions as Claude Code evaluates a hook matcher (`new RegExp(m)`, no
// flags: the ECMAScript grammar with its web-compatibility annex), answered in time linear in
// pattern × subject. A matcher comes from a settings file anybody can edit, so evaluating it
// must never hang or exhaust the stack: the pattern is compiled to a Thompson NFA and run as a
// Pike VM — no backtracking, no recursion over the subject. Subjects are byte strings (tool
// names are ASCII; a pattern's code unit above 0xFF matches no byte).
//
// What a regular automaton cannot decide is reported, not guessed: backreferences,
// lookahead/lookbehind, inline modifiers, and patterns whose counted repetitions expand past
// a fixed size. The parser is js_regex_syntax.h (with js_regex_class.h and js_regex_cursor.h);
// this file holds the automaton.
// Failing: never throws; an invalid or unsupported pattern is an outcome of the search.

#include <string_view>

namespace fleet {

enum class RegexSearch {
  match,        // the pattern matches somewhere in the subject
  no_match,     // it matches nowhere
  invalid,      // not a valid JavaScript RegExp (new RegExp throws: Claude Code matches nothing)
  unsupported,  // valid, but uses a feature this engine does not evaluate (see above)
};

// Unanchored search, as RegExp.prototype.test.
RegexSearch regex_search(std::string_view pattern, std::string_view subject);

}  // namespace fleet
