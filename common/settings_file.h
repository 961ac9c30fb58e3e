#pragma once
// Claude Code settings files (.claude/settings.json and friends): read as a JSON object,
// written back pretty-printed with every other key kept in its order, atomically and with a
// .bak of the previous content.

#include <string>

#include <rapidjson/document.h>

namespace fleet {

enum class SettingsScope { project, local, user };

// DIR/.claude/settings.json, DIR/.claude/settings.local.json, or $HOME/.claude/settings.json.
std::string settings_path(SettingsScope scope, const std::string& project_dir);

// Parses `path` into `doc` (an object). A missing, empty or whitespace-only file reads as {}.
// Throws Error when the file is not valid JSON or not an object (the file is left alone).
void load_settings(const std::string& path, rapidjson::Document& doc);

// The document as the suite writes it: 2-space indentation, UTF-8 kept as is, a final
// newline. Throws Error when a string cannot be written as valid UTF-8 (a lone surrogate
// escape in the file it came from).
std::string settings_text(const rapidjson::Value& doc);

// Replaces `path` with `text` (temp file, fsync, rename, fsync of the directory), first
// copying the previous content to `path`.bak when there was one. Refuses a file that is not
// writable by anyone (a user's way of freezing it), a symlink or a non-regular file.
// Throws Error.
void write_settings(const std::string& path, const std::string& text);

}  // namespace fleet
