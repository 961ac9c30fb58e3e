#pragma once
// The few keys of a TOML file (Codex CLI's config.toml) that fleet-hooks reads and writes:
// string and boolean values by their full key path, with where each sits in the text, so
// that a value can be read without a TOML library and one value changed without touching any
// other byte of the user's file. Understood: [table] headers with bare, "basic" and 'literal'
// keys, dotted keys, basic and literal strings, booleans. Skipped whole (their keys are not
// reported): arrays, inline tables, multi-line strings, numbers, dates, [[array tables]].
// It also knows how each table is defined (a [header], implied by one, dotted keys, an inline
// table), to name what makes a document one TOML, and so Codex, refuses: a table defined
// twice, a [header] re-opening a table defined by dotted keys or extending an inline table or
// a value, dotted keys extending a [header]'s table, a key defined twice.
// Failing: scanning never fails: a line it cannot read is skipped and named in `problems`,
// what TOML forbids is named in `errors`. set_toml_string throws Error where it cannot add the
// value without breaking the document (it changes nothing then).

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fleet {

using TomlPath = std::vector<std::string>;

struct TomlEntry {
  TomlPath path;  // table path, then the dotted key: {"projects", "/repo", "trust_level"}
  enum class Kind { string, boolean, other } kind = Kind::other;
  std::string text;                            // a string's value
  bool flag = false;                           // a boolean's value
  std::size_t value_begin = 0, value_end = 0;  // the value's bytes in the document
};

struct TomlTable {
  TomlPath path;
  std::size_t header_end = 0;   // just after the header line (and its newline)
  std::size_t section_end = 0;  // where the next header starts, or the end of the text
};

// How a table (or a value) got its path.
struct TomlDefinition {
  enum class How { header, implied, dotted, inline_table, value, array } how;
  std::size_t offset = 0;  // where its line starts in the document
};

struct TomlScan {
  std::vector<TomlEntry> entries;
  std::vector<TomlTable> tables;
  std::map<TomlPath, TomlDefinition> definitions;
  std::vector<std::string> problems;  // "line 3: not understood"
  std::vector<std::string> errors;    // "line 5: the table [a] is already defined at line 2"
};

TomlScan scan_toml(std::string_view text);

// The entry at `path`, nullptr when none.
const TomlEntry* find_toml_entry(const TomlScan& scan, const TomlPath& path);

// `value` as a TOML basic string ("…" with \" \\ and control characters escaped).
std::string toml_basic_string(std::string_view value);

// `text` with the string `key` of table `table` set to `value`: an existing string replaced
// in place; else a line `key = "value"` added after the last line of the table's [header];
// else the table appended at the end of the text. Every other byte stays. Throws Error, naming
// the line, when `text` holds scan errors, or when the table (or one above it) is written as
// an inline table, with dotted keys or as a value, or the key holds something else than a
// string: changing those is left to the person who wrote them.
std::string set_toml_string(std::string_view text, const TomlPath& table, const std::string& key,
                            const std::string& value);

}  // namespace fleet
