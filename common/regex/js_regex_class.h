#pragma once
// What stands for characters in a JavaScript regular expression, read at a Cursor: the
// escapes shared by atoms and character classes (\n, \cX, \xHH, \uHHHH, legacy octal), the
// class escapes (\d \w \s and their negations) and character classes ([a-z\d], [^…]), each
// as the web-compatibility annex reads it. Private to common/regex/.
// Failing: never throws; an invalid pattern is marked on the cursor (Cursor::fail).

#include <cstdint>
#include <optional>

#include "regex/js_regex_cursor.h"
#include "regex/js_regex_syntax.h"

namespace fleet::js_regex {

// A node matching the bytes of `set`; one matching `code_unit` (none above 0xFF).
Node chars_node(const CharSet& set);
Node unit_node(std::uint32_t code_unit);

// \d \D \w \W \s \S.
bool is_class_escape(std::uint32_t c);
// The bytes class escape `c` stands for.
CharSet class_escape_set(std::uint32_t c);

// One of the escapes shared by atoms and classes, the cursor on the character after '\':
// consumes it and answers the code unit it stands for; nullopt (nothing consumed) when it is
// not one.
std::optional<std::uint32_t> character_escape(Cursor& cursor, bool in_class);

// The character class at the cursor ('['), as a node; `named_groups`: the pattern has named
// groups (then \k is invalid in a class). nullopt when the pattern is invalid (marked on the
// cursor).
std::optional<Node> character_class(Cursor& cursor, bool named_groups);

}  // namespace fleet::js_regex
