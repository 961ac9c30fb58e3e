#pragma once
// Where the suite's state lives, resolved the same way in every executable (doc/files.md,
// "State directory"), and which kitchen the current process belongs to.
// Failing: what may be absent is a std::optional; a working directory that cannot be read or
// an invalid campaign id throws Error.

#include <optional>
#include <string>
#include <string_view>

namespace fleet {

// The value of environment variable `name`, or "" when unset or empty.
std::string env_value(const char* name);

// $`variable` when it is set and not empty, else $HOME followed by `below_home` (a CLI's
// configuration directory: "CODEX_HOME", "/.codex").
std::string env_or_home(const char* variable, const std::string& below_home);

// The process's working directory. Throws Error when it cannot be read.
std::string current_directory();

// `path` with every symbolic link, "." and ".." resolved (realpath(3)); nullopt when it
// cannot be resolved (it does not exist, a link leads nowhere, no permission).
std::optional<std::string> real_path(const std::string& path);

// `path` resolved as real_path does, or as given when it cannot be.
std::string resolved_path(const std::string& path);

// Whether `child` is the directory `parent` or lies inside it (both absolute, compared as
// written: resolve them first where symbolic links matter).
bool path_within(const std::string& parent, const std::string& child);

// CLAUDE_PROJECT_DIR, else `hook_cwd` (the hook input's cwd), else the process cwd.
std::string resolve_project_root(std::string_view hook_cwd);

// First that applies: `flag`; FLEET_HOOKS_STATE_DIR; AUTOSKILLIT_STATE_DIR;
// <project>/.autoskillit/temp[/<AUTOSKILLIT_CAMPAIGN_ID>] with the project from
// resolve_project_root(hook_cwd). Throws Error when the campaign id is not a valid id (it
// becomes a directory name).
std::string resolve_state_dir(const std::string& flag, std::string_view hook_cwd);

// The current directory, when resolve_state_dir(flag, "") takes it for the project because
// nothing names another: no `flag`, FLEET_HOOKS_STATE_DIR, AUTOSKILLIT_STATE_DIR or
// CLAUDE_PROJECT_DIR; nullopt when one of them does. Throws Error when the working directory
// cannot be read.
std::optional<std::string> project_taken_from_current_directory(const std::string& flag);

// The same for a known project root.
std::string state_dir_for_project(const std::string& flag, const std::string& project_root);

// The current kitchen: the first non-empty of `flag`, FLEET_HOOKS_KITCHEN_ID,
// AUTOSKILLIT_CAMPAIGN_ID; nullopt when the process belongs to no kitchen.
std::optional<std::string> resolve_kitchen_id(const std::string& flag);

// The directory of the running executable (platform/system_facts.h); nullopt when it cannot
// be known.
std::optional<std::string> executable_directory();

// `path` made absolute against the current directory, without "." components, repeated or
// trailing slashes ("/p/./.claude/" is "/p/.claude"; "" stays ""). ".." is kept: removing it
// by text would be wrong after a symlink.
std::string absolute_path(const std::string& path);

// True when `path` is a regular file (after symlinks) this process may execute.
bool is_executable_file(const std::string& path);

// Where /bin/sh finds the command `name` on $PATH (a regular executable file); nullopt if
// nowhere.
std::optional<std::string> find_on_path(const std::string& name);

// nullopt when `path` is a directory (after symlinks); otherwise why it cannot be used as
// one: "does not exist", "is not a directory", or the error.
std::optional<std::string> directory_problem(const std::string& path);

// <state_dir>/session_provenance.jsonl
std::string provenance_store_path(const std::string& state_dir);

}  // namespace fleet
