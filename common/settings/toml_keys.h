#pragma once
// The few keys of a TOML file (Codex CLI's config.toml) that fleet-hooks reads and writes:
// string and boolean values by their full key path, with where each sits in the text, so
// that a value can be read without a TOML library and one value changed without touching any
// other byte of the user's file. Understood: [table] headers with bare, "basic" and 'literal'
// keys, dotted keys, basic and literal strings, booleans. Skipped whole (their keys are not
// reported): arrays, inline tables, multi-line strings, numbers, dates, [[array tables]].
// Failing: scanning never fails; a line it cannot read is skipped and named in `problems`.

#include <cstddef>
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

struct TomlScan {
  std::vector<TomlEntry> entries;
  std::vector<TomlTable> tables;
  std::vector<std::string> problems;  // "line 3: …"
};

TomlScan scan_toml(std::string_view text);

// The entry at `path`, nullptr when none.
const TomlEntry* find_toml_entry(const TomlScan& scan, const TomlPath& path);

// `value` as a TOML basic string ("…" with \" \\ and control characters escaped).
std::string toml_basic_string(std::string_view value);

// `text` with the string `key` of table `table` set to `value`: an existing value replaced in
// place; else a line `key = "value"` added after the table's last line; else the table
// appended at the end of the text. Every other byte stays.
std::string set_toml_string(std::string_view text, const TomlPath& table, const std::string& key,
                            const std::string& value);

}  // namespace fleet
