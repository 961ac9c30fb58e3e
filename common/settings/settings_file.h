#pragma once
// Claude Code settings files (.claude/settings.json and friends), read the way Claude Code
// reads them and written back so that nothing of the user's is lost.
//
// Reading: a symlink is followed (as Claude Code does); a UTF-8 BOM is accepted; plain JSON
// only — a file with // comments or a trailing comma is ignored by Claude Code entirely, so
// it is reported as such; a key that appears twice in an object counts once, with its LAST
// value (Claude Code's JSON.parse keeps the last).
// Writing: pretty-printed with every other key kept in its order, atomically (temp file,
// fsync, rename) into the file a symlink points to (the link stays), keeping the file's
// mode, owner and group and its BOM, with a backup of the previous content. A change holds
// the file's lock (lock_settings) from its read to its rename, so changes take turns.
// Failing: read_settings never throws: how the file reads (missing, ok, ignored, invalid) is
// its result struct, since the check branches on each. Changing a file (load_settings,
// settings_text, write_settings) throws Error; what may be absent is a std::optional.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "agent/agent_cli.h"
#include "base/files.h"

namespace fleet {

enum class SettingsScope { project, local, user };

// The largest settings file read (a larger one is refused, not read into memory).
inline constexpr std::size_t kMaxSettingsBytes = 16 * 1024 * 1024;

// The scope `fleet-hooks --scope` names: "local", "user", anything else is the project's.
SettingsScope settings_scope_named(std::string_view name);

// `agent`'s settings file of `scope` (AgentCli::settings_scopes): DIR/project_hook_file,
// DIR/local_file or the user's (user_settings_path). Throws Error for a scope other than the
// project's that `agent` does not have, and for the user's when neither its configuration
// directory's variable nor HOME is set.
std::string settings_path(SettingsScope scope, const std::string& project_dir,
                          const AgentCli& agent);

// The user's settings file of `agent`'s settings scopes, its user_hook_file in its
// configuration directory ($CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json);
// nullopt when neither variable is set or `agent` has no such scopes.
std::optional<std::string> user_settings_path(const AgentCli& agent);

struct SettingsRead {
  enum class Status {
    missing,  // no file (or an empty one): reads as {}
    ok,
    ignored,  // not plain JSON (comments, trailing commas) but readable leniently: Claude
              // Code ignores the whole file; `doc` holds the lenient reading
    invalid   // not JSON at all, or not an object; `problem` says why
  };
  Status status = Status::missing;
  std::string file;  // the file actually read: the target of a symlink
  bool bom = false;
  std::vector<std::string> duplicate_keys;  // "/hooks", "/hooks/PreToolUse/0/matcher", …
  std::string problem;
  std::string not_plain;  // with `ignored`: what plain JSON does not allow, and where ("a
                          // comment at line 2, column 3")
};

// Reads `path` into `doc` the way Claude Code does (see above); never throws. Duplicate keys
// are resolved last-wins in `doc` and listed.
SettingsRead read_settings(const std::string& path, rapidjson::Document& doc);

// True when the settings file `file` (read_settings's SettingsRead::file, a BOM allowed) is a
// JSON object once its // and /* */ comments are taken out — as Gemini CLI reads its
// settings.json (strip-json-comments; a trailing comma stays an error there). Never throws.
bool parses_with_comments(const std::string& file);

// The object `path` holds, read as read_settings does, comments and trailing commas allowed
// (what Gemini CLI and GitHub Copilot CLI accept in their own files); nullopt when it is
// missing, empty or unreadable. Never throws.
std::optional<rapidjson::Document> lenient_settings(const std::string& path);

// For changing `agent`'s hook file: read_settings, then throws Error (nothing changed) for a
// file that is invalid, not plain JSON (Claude Code ignores such a file; Gemini CLI reads
// its comments, but writing the file back would drop them), or has duplicate keys (which one
// the user means is not for fleet-hooks to guess). A missing or empty file reads as {}.
SettingsRead load_settings(const std::string& path, rapidjson::Document& doc,
                           const AgentCli& agent);

// The document as the suite writes it: 2-space indentation, UTF-8 kept as is, a final
// newline. Throws Error when a string cannot be written as valid UTF-8 (a lone surrogate
// escape in the file it came from).
std::string settings_text(const rapidjson::Value& doc);

inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

// The content of the newest backup of `file` (the `.bak` and `.bak.N` write_settings keeps)
// that holds the same settings as `text` does, as settings_text writes them (BOM included);
// nullopt when none does. A change that undoes an earlier one writes it, giving the user's
// own bytes back. Never throws.
std::optional<std::string> backup_with_settings(const std::string& file, const std::string& text);

// The backups of `file` that exist (`<file>.bak` and `<file>.bak.N`, write_settings). Never
// throws.
std::vector<std::string> settings_backups(const std::string& file);

// Once `file` holds `text` again (an uninstall gave the user's bytes back): removes the backups
// of it that hold `text` byte for byte — the ones an install kept, which hold nothing the file
// does not. Throws Error when one cannot be removed.
void drop_backups_holding(const std::string& file, const std::string& text);

// Taken before reading a settings file that is then changed, held until it is written: an
// exclusive flock on the directory that holds the file (after symlinks), so that programs
// changing one file take turns and none loses another's change. The directory itself is
// the lock — no lock file is left beside the user's settings. With `create`, a missing
// directory is created as write_settings creates it; without, nullopt when it is missing
// (there is no file to change). Throws Error.
std::optional<UniqueFd> lock_settings(const std::string& path, bool create);

// Replaces the settings file at `path` (or the file its symlink points to) with `text`.
// An existing file keeps its mode, owner and group (refused when they cannot be kept, e.g.
// another user's file); its previous content is kept in `<file>.bak` when there is no
// backup yet, else in the next `<file>.bak.N` — unless the newest backup already holds it.
// A new file gets mode 0644 and, when run as root, the owner of its directory (created 0755
// when missing). Refuses a read-only file, a dangling symlink or a non-regular file. Throws
// Error. With KeepBackup::no the previous content is kept nowhere: for a change that takes
// out only the suite's own bytes, which install writes again.
enum class KeepBackup : bool { no, yes };
void write_settings(const std::string& path, const std::string& text,
                    KeepBackup backup = KeepBackup::yes);

}  // namespace fleet
