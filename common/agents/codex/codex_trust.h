#pragma once
// Codex CLI's trust, the reader and writer of its AgentCli::hook_trust (observed with codex-cli
// 0.169.0; doc/agents.md, "Trust"): it reads a project's .codex/hooks.json only when the project is
// trusted in $CODEX_HOME/config.toml
// (`[projects."<path>"] trust_level = "trusted"`, the project's own path or its git root), and
// runs a hook of it only when `[hooks.state."<hooks file>:<event_label>:<group>:<entry>"]`
// holds `trusted_hash` equal to the hook's current hash — else `codex exec` skips the hook
// without a word and the tool call runs. `[features] hooks = false` (or the older
// `codex_hooks = false`) turns every hook off, and a state's `enabled = false` that hook.
//
// The hash (Codex: codex-rs/hooks/src/engine/discovery.rs, command_hook_hash, and
// codex-rs/config/src/fingerprint.rs, version_for_toml): "sha256:" and the hex SHA-256 of the
// compact JSON as serde_json writes it (\u001b: lower-case hex escapes), keys sorted at every
// level, of
//   {"event_name": <event_label>, "hooks": [{"async": <bool, default false>,
//    "command": <command>, "statusMessage": <only when set>, "timeout": <seconds, default
//    600, at least 1>, "type": "command"}], "matcher": <only when set>}
// — for the events whose matcher Codex keeps (PreToolUse, PermissionRequest, PostToolUse,
// SessionStart: the suite's); for the others Codex hashes no matcher.
// Failing: the check throws nothing: what Codex will skip is a Finding, and an unreadable
// config.toml reads as empty (nothing trusted). Trusting (trust_codex_hooks) throws Error.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "agent/hook_trust.h"
#include "base/finding.h"
#include "settings/hook_sources.h"

namespace fleet {

// "PreToolUse" → "pre_tool_use": how Codex names an event in a hook's trust key.
std::string codex_event_label(std::string_view event);

// The trust key of entry `entry` of group `group` of `event` in the hooks file `file`.
std::string codex_hook_key(const std::string& file, std::string_view event, int group, int entry);

// The hash Codex gives that entry of `group`; nullopt when Codex cannot read it (a timeout
// that is not a whole number of seconds).
std::optional<std::string> codex_hook_hash(std::string_view event, const rapidjson::Value& group,
                                           const rapidjson::Value& entry);

// The hooks file's entry of `hook` (hook_sources.h) re-read, with its hash and key; nullopt
// when the file no longer holds it.
struct CodexHookState {
  std::string key;
  std::optional<std::string> hash;
};
std::optional<CodexHookState> codex_hook_state(const ConfiguredHook& hook);

// $CODEX_HOME/config.toml for `codex_home`.
std::string codex_config_path(const std::string& codex_home);

// The findings that say Codex will not run `hooks` (the suite's, `what` naming each: "the
// resume-guard hook") of the project `project_dir`: codex-hooks-disabled,
// codex-config-invalid (config.toml is no TOML document), codex-project-untrusted,
// codex-hook-untrusted, codex-hook-modified, codex-hook-disabled (errors); the first that
// trust fixes says how to trust, once.
std::vector<Finding> codex_trust_findings(const std::string& project_dir,
                                          const std::string& codex_home,
                                          const std::vector<HookToTrust>& hooks);

// `fleet-hooks install --agent codex --trust`: $CODEX_HOME/config.toml with the project
// trusted under its resolved path, the one Codex looks up (`[projects."<path>"] trust_level =
// "trusted"`), and a `trusted_hash` for each hook of the project's .codex/hooks.json whose
// command is byte for byte one install writes — nothing else trusted (an entry that names a
// suite executable with any other command is returned in `refused`), every other byte of the
// file kept. Written (write_settings: atomically, mode and owner kept, the previous content
// in config.toml.bak) when it changes and not `dry_run`. Throws Error, trusting nothing, when
// the project's file holds no such hook or one Codex cannot read, or when config.toml is no
// TOML document or defines a table to change in a form set_toml_string does not edit.
TrustUpdate trust_codex_hooks(const std::string& project_dir, const std::string& codex_home,
                              bool dry_run);

}  // namespace fleet
