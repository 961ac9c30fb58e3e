#pragma once
// The known word a mistyped one most likely meant: the suggestion of a usage error
// (`--stict` → `did you mean --strict?`) and of an unknown key in a replay case.
// Failing: nothing; no close candidate is nullopt.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fleet {

// The candidate closest to `word` when it is close enough to be a likely misspelling (at
// most 2 edits, counting a swap of neighbours as one, and at most a third of its length), or
// one `word` is the start of (3 characters at least); nullopt when none is.
std::optional<std::string> closest_word(std::string_view word,
                                        const std::vector<std::string>& candidates);

}  // namespace fleet
