#pragma once
// Uninstall's side of Codex CLI's trust (AgentCli::hook_trust.remove): takes out of
// $CODEX_HOME/config.toml what `fleet-hooks install --agent codex --trust` wrote for a
// project's hooks, and nothing else (doc/codex.md, "Trust").
// Failing: throws Error, removing nothing, when config.toml cannot be read or written; a
// config.toml that is no TOML document is left as it is.

#include <string>

#include "agent/hook_trust.h"

namespace fleet {

// Before `project_dir`'s .codex/hooks.json is unwired: config.toml without the
// `[hooks.state."<key>"]` table of each suite hook of that file (installed_hook_states) that is
// written as install --trust writes it — a [header] whose only line is `trusted_hash` equal to
// the hook's hash — with the blank line install put before it; and, when `written` (install
// --trust added the project's trust; settings/trust_written.h), the project's own
// `[projects."<path>"]` table written as install writes it (`trust_level = "trusted"` alone).
// A table the user changed (another key, a comment, another hash, another form) stays, and so
// does a project trust the user gave before the install: it also sets Codex's approvals in that
// folder. Written (write_settings, no backup: only the suite's bytes go; the backup install kept
// goes when it holds the same bytes) when it changes and not `dry_run`; a config.toml install
// created is removed when nothing else is left in it, with its directory when that is empty.
TrustUpdate untrust_codex_hooks(const std::string& project_dir, const std::string& codex_home,
                                const WrittenTrust* written, bool dry_run);

}  // namespace fleet
