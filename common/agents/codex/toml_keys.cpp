#include "agents/codex/toml_keys.h"

#include <algorithm>
#include <optional>

#include "base/error.h"

namespace fleet {
namespace {

bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

void append_utf8(std::string& out, unsigned long code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

std::string toml_key(const std::string& key) {
  const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), is_bare_key_char);
  return bare ? key : toml_basic_string(key);
}

// `path` as a dotted key: projects."/repo".
std::string dotted_text(const TomlPath& path) {
  std::string text;
  for (const std::string& part : path) {
    if (!text.empty()) text += '.';
    text += toml_key(part);
  }
  return text;
}

std::string line_at(std::string_view text, std::size_t offset) {
  return std::to_string(1 + std::count(text.begin(), text.begin() + offset, '\n'));
}

const char* how_defined(TomlDefinition::How how) {
  switch (how) {
    case TomlDefinition::How::header:
      return "as a [table]";
    case TomlDefinition::How::implied:
      return "by a [table] below it";
    case TomlDefinition::How::dotted:
      return "with dotted keys";
    case TomlDefinition::How::inline_table:
      return "as an inline table";
    case TomlDefinition::How::array:
      return "as an [[array of tables]]";
    case TomlDefinition::How::value:
      break;
  }
  return "as a value";
}

// Reads a TOML text line by line, keeping what toml_keys.h promises.
class Reader {
 public:
  explicit Reader(std::string_view text) : t_(text) {}

  TomlScan run() {
    while (i_ < t_.size()) {
      const std::size_t line_begin = i_;
      blanks();
      if (peek() == '\n' || peek() == '\r' || peek() == '#' || i_ >= t_.size()) {
        rest_of_line();
        continue;
      }
      const bool ok = peek() == '[' ? header(line_begin) : key_value(line_begin);
      if (!ok) scan_.problems.push_back("line " + line_of(line_begin) + ": not understood");
      rest_of_line();
    }
    return std::move(scan_);
  }

 private:
  char peek(std::size_t k = 0) const { return i_ + k < t_.size() ? t_[i_ + k] : '\0'; }
  void blanks() {
    while (peek() == ' ' || peek() == '\t') ++i_;
  }
  void rest_of_line() {
    while (i_ < t_.size() && t_[i_] != '\n') ++i_;
    if (i_ < t_.size()) ++i_;
  }
  std::string line_of(std::size_t at) const { return line_at(t_, at); }

  // Names an error of the line at `line_begin`: `path` already defined at `earlier`.
  void defined_before(std::size_t line_begin, const std::string& what, const TomlPath& path,
                      const TomlDefinition& earlier) {
    scan_.errors.push_back("line " + line_of(line_begin) + ": " + what + " " + dotted_text(path) +
                           ", which line " + line_of(earlier.offset) + " defines " +
                           how_defined(earlier.how));
  }

  // A [header] of `path` (a [[header]] with `array`): the tables above it are implied, and
  // none of them may be a value or an inline table; `path` itself may only have been implied.
  void define_table(std::size_t line_begin, const TomlPath& path, bool array) {
    using How = TomlDefinition::How;
    for (std::size_t n = 1; n <= path.size(); ++n) {
      const TomlPath prefix(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(n));
      const auto [at, added] =
          scan_.definitions.try_emplace(prefix, TomlDefinition{n < path.size() ? How::implied
                                                               : array         ? How::array
                                                                               : How::header,
                                                               line_begin});
      if (added) continue;
      const How earlier = at->second.how;
      const bool closed = earlier == How::value || earlier == How::inline_table;
      if (n < path.size() && !closed) continue;
      if (n == path.size() && earlier == How::implied && !array) {
        at->second = {How::header, line_begin};
        continue;
      }
      if (n == path.size() && array && earlier == How::array) continue;
      defined_before(line_begin,
                     n < path.size() ? "the [table] extends" : "the [table] defines again", prefix,
                     at->second);
      return;
    }
  }

  // A key `key` in the current table: the tables its dots pass through are defined by them
  // (none may be a [header]'s, a value or an inline table), and the key itself is new.
  void define_key(std::size_t line_begin, const TomlPath& key, bool inline_table) {
    using How = TomlDefinition::How;
    if (!current_.empty() && current_.front() == "[[]]") return;  // not followed
    TomlPath path = current_;
    for (std::size_t n = 0; n < key.size(); ++n) {
      path.push_back(key[n]);
      const bool last = n + 1 == key.size();
      const How how = last ? (inline_table ? How::inline_table : How::value) : How::dotted;
      const auto [at, added] = scan_.definitions.try_emplace(path, TomlDefinition{how, line_begin});
      if (added || (!last && at->second.how == How::dotted)) continue;
      defined_before(line_begin, last ? "the key defines again" : "the dotted key extends", path,
                     at->second);
      return;
    }
  }

  std::optional<std::string> basic_string() {
    ++i_;  // the opening quote
    std::string out;
    while (i_ < t_.size() && t_[i_] != '"' && t_[i_] != '\n') {
      if (t_[i_] != '\\') {
        out += t_[i_++];
        continue;
      }
      const char e = peek(1);
      i_ += 2;
      const std::string_view simple = "btnfr\"\\e";
      const std::string_view meant = "\b\t\n\f\r\"\\\x1b";
      if (const std::size_t at = simple.find(e); at != std::string_view::npos && e != '\0') {
        out += meant[at];
      } else if (e == 'u' || e == 'U') {
        const std::size_t digits = e == 'u' ? 4 : 8;
        if (i_ + digits > t_.size()) return std::nullopt;
        const std::string hex(t_.substr(i_, digits));
        if (hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
          return std::nullopt;
        append_utf8(out, std::stoul(hex, nullptr, 16));
        i_ += digits;
      } else {
        return std::nullopt;
      }
    }
    if (peek() != '"') return std::nullopt;
    ++i_;
    return out;
  }

  std::optional<std::string> literal_string() {
    const std::size_t close = t_.find_first_of("'\n", i_ + 1);
    if (close == std::string_view::npos || t_[close] != '\'') return std::nullopt;
    std::string out(t_.substr(i_ + 1, close - i_ - 1));
    i_ = close + 1;
    return out;
  }

  std::optional<TomlPath> dotted_key() {
    TomlPath path;
    for (;;) {
      blanks();
      std::optional<std::string> part;
      if (peek() == '"') {
        part = basic_string();
      } else if (peek() == '\'') {
        part = literal_string();
      } else {
        const std::size_t begin = i_;
        while (is_bare_key_char(peek())) ++i_;
        if (i_ > begin) part = std::string(t_.substr(begin, i_ - begin));
      }
      if (!part) return std::nullopt;
      path.push_back(std::move(*part));
      blanks();
      if (peek() != '.') return path;
      ++i_;
    }
  }

  bool header(std::size_t line_begin) {
    const bool array = peek(1) == '[';
    i_ += array ? 2 : 1;
    std::optional<TomlPath> path = dotted_key();
    if (!path || peek() != ']' || (array && peek(1) != ']')) return false;
    i_ += array ? 2 : 1;
    if (!scan_.tables.empty() && scan_.tables.back().section_end == t_.size())
      scan_.tables.back().section_end = line_begin;
    define_table(line_begin, *path, array);
    if (array) {  // keys of an array of tables are never the ones read here
      current_ = {"[[]]"};
      return true;
    }
    current_ = *path;
    const std::size_t newline = t_.find('\n', i_);
    scan_.tables.push_back(
        {*path, newline == std::string_view::npos ? t_.size() : newline + 1, t_.size()});
    return true;
  }

  // Moves past a value this scanner does not read: an array or inline table (nested, across
  // lines, strings and comments inside), a multi-line string, a number or a date.
  bool skip_value() {
    const std::string_view rest = t_.substr(i_);
    if (rest.starts_with("\"\"\"") || rest.starts_with("'''")) {
      const std::size_t close = t_.find(rest.substr(0, 3), i_ + 3);
      if (close == std::string_view::npos) return false;
      i_ = close + 3;
      return true;
    }
    if (peek() != '[' && peek() != '{') return true;  // the rest of the line
    int depth = 0;
    while (i_ < t_.size()) {
      const char c = t_[i_];
      if (c == '"' || c == '\'') {
        if (!(c == '"' ? basic_string() : literal_string())) return false;
        continue;
      }
      if (c == '#') {
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '[' || c == '{') ++depth;
      if ((c == ']' || c == '}') && --depth == 0) {
        ++i_;
        return true;
      }
      ++i_;
    }
    return false;
  }

  bool key_value(std::size_t line_begin) {
    std::optional<TomlPath> key = dotted_key();
    if (!key || peek() != '=') return false;
    ++i_;
    blanks();
    define_key(line_begin, *key, peek() == '{');
    TomlEntry entry;
    entry.path = current_;
    entry.path.insert(entry.path.end(), key->begin(), key->end());
    entry.value_begin = i_;
    const std::string_view rest = t_.substr(i_);
    const auto word = [&](std::string_view w) {
      return rest.starts_with(w) && (rest.size() == w.size() || !is_bare_key_char(rest[w.size()]));
    };
    if ((peek() == '"' && !rest.starts_with("\"\"\"")) ||
        (peek() == '\'' && !rest.starts_with("'''"))) {
      std::optional<std::string> text = peek() == '"' ? basic_string() : literal_string();
      if (!text) return false;
      entry.kind = TomlEntry::Kind::string;
      entry.text = std::move(*text);
    } else if (word("true") || word("false")) {
      entry.kind = TomlEntry::Kind::boolean;
      entry.flag = word("true");
      i_ += entry.flag ? 4 : 5;
    } else if (!skip_value()) {
      return false;
    }
    entry.value_end = i_;
    scan_.entries.push_back(std::move(entry));
    return true;
  }

  std::string_view t_;
  std::size_t i_ = 0;
  TomlPath current_;
  TomlScan scan_;
};

// Throws Error when `path` (a table, then its key), or a table above it, is defined in a form
// set_toml_string does not edit: anything but a [header] or a table a [header] implies.
void refuse_other_forms(std::string_view text, const TomlScan& scan, const TomlPath& path) {
  using How = TomlDefinition::How;
  for (std::size_t n = 1; n <= path.size(); ++n) {
    const TomlPath prefix(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(n));
    const auto found = scan.definitions.find(prefix);
    if (found == scan.definitions.end()) return;  // nothing below it is defined either
    const How how = found->second.how;
    if (how == How::header || how == How::implied) continue;
    if (how == How::dotted && n + 1 < path.size()) continue;  // a [header] may add a sub-table
    throw Error("line " + line_at(text, found->second.offset) + " defines " + dotted_text(prefix) +
                " " + how_defined(how) +
                ", and fleet-hooks does not rewrite that form; write it as [" +
                dotted_text(TomlPath(path.begin(), path.end() - 1)) + "] with " +
                toml_key(path.back()) + " = …, or remove it");
  }
}

}  // namespace

TomlScan scan_toml(std::string_view text) {
  return Reader(text).run();
}

const TomlEntry* find_toml_entry(const TomlScan& scan, const TomlPath& path) {
  for (const TomlEntry& entry : scan.entries) {
    if (entry.path == path) return &entry;
  }
  return nullptr;
}

std::string toml_basic_string(std::string_view value) {
  std::string out = "\"";
  for (const char c : value) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xf];
      out += kHex[c & 0xf];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string set_toml_string(std::string_view text, const TomlPath& table, const std::string& key,
                            const std::string& value) {
  const TomlScan scan = scan_toml(text);
  if (!scan.errors.empty()) throw Error("it is not a TOML document (" + scan.errors.front() + ")");
  TomlPath full = table;
  full.push_back(key);
  std::string out(text);
  const TomlEntry* entry = find_toml_entry(scan, full);
  if (entry != nullptr && entry->kind == TomlEntry::Kind::string) {
    return out.replace(entry->value_begin, entry->value_end - entry->value_begin,
                       toml_basic_string(value));
  }
  refuse_other_forms(text, scan, full);
  const std::string line = toml_key(key) + " = " + toml_basic_string(value) + "\n";
  const auto found = std::find_if(scan.tables.begin(), scan.tables.end(),
                                  [&](const TomlTable& t) { return t.path == table; });
  if (found != scan.tables.end()) {
    // After the section's last line that is not blank.
    std::size_t at = found->section_end;
    while (at > found->header_end && (out[at - 1] == '\n' || out[at - 1] == ' ' ||
                                      out[at - 1] == '\t' || out[at - 1] == '\r'))
      --at;
    if (at > found->header_end) {
      at = out.find('\n', at);
      at = at == std::string::npos ? out.size() : at + 1;
      if (at == out.size() && !out.empty() && out.back() != '\n') {
        out += '\n';
        ++at;
      }
    } else {
      at = found->header_end;
    }
    return out.insert(std::min(at, out.size()), line);
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (!out.empty()) out += '\n';
  return out + "[" + dotted_text(table) + "]\n" + line;
}

}  // namespace fleet
