#pragma once
// Claude Code's hook matchers (README.md, "Wiring it into Claude Code"): "" and "*" match every
// tool; a matcher made only of letters, digits and `_ - | , space` is a list of exact tool names
// separated by `|` or `,`; anything else is an unanchored JavaScript regular expression
// (ECMAScript here).

#include <string>
#include <string_view>

namespace fleet {

// True when `matcher` selects the tool `tool_name`. An invalid regular expression matches
// nothing (Claude Code cannot use it either).
bool matcher_matches(std::string_view matcher, std::string_view tool_name);

// True when the matcher is read as exact tool names rather than a regular expression.
bool matcher_is_plain(std::string_view matcher);

}  // namespace fleet
