#pragma once
// GitHub Copilot CLI's trust, the reader and writer of its AgentCli::hook_trust (observed with
// 1.0.102, doc/copilot.md "Trust"): it runs a repository's hooks (.github/hooks/*.json, and
// .claude/settings.json) only in a folder listed in "trustedFolders" of $COPILOT_HOME/config.json
// (else ~/.copilot/config.json; a listed parent covers its children), and says nothing when it
// skips them. `"disableAllHooks": true` in the repository's .github/copilot/settings.json or
// settings.local.json turns every hook off, and in a hook file the hooks of that file. Copilot
// writes config.json itself, with `//` comment lines at its top: it is read leniently, and
// trusting a folder changes no byte of it but the entry it adds. No hook has a trust of its
// own: uninstall takes back the folder's entry when install --trust added it, and only then.
// Failing: the findings never throw; with_trusted_folder returns why it cannot add the entry,
// and trust_copilot_folder throws Error (nothing changed).

#include <string>
#include <vector>

#include "agent/hook_trust.h"
#include "base/finding.h"
#include "base/result.h"

namespace fleet {

// The config.json of the Copilot directory `copilot_dir` ($COPILOT_HOME, else ~/.copilot).
std::string copilot_config_path(const std::string& copilot_dir);

// The findings that say Copilot will not run `hooks` (the suite's) of `project_dir`, with the
// user's Copilot directory `copilot_dir`: copilot-folder-untrusted, copilot-hooks-disabled
// (errors), each saying what to do.
std::vector<Finding> copilot_trust_findings(const std::string& project_dir,
                                            const std::string& copilot_dir,
                                            const std::vector<HookToTrust>& hooks);

// `config` (config.json's text) with `folder` added to its "trustedFolders" (the member, or the
// whole object, added when missing), every other byte kept; `config` itself when a listed
// folder already holds `folder`. Fails, saying why, when `config` is not a JSON object even
// with comments and trailing commas, or its "trustedFolders" is not an array of strings.
Result<std::string> with_trusted_folder(const std::string& config, const std::string& folder);

// `fleet-hooks install --agent copilot --trust`: the project, resolved, among the trusted
// folders of `copilot_dir`'s config.json (with_trusted_folder), under the file's lock; the file
// keeps its mode and owner. With `dry_run` nothing is written. TrustUpdate::trusted stays
// empty: the folder's trust covers every hook of it. Throws Error, changing nothing, when it
// cannot.
TrustUpdate trust_copilot_folder(const std::string& project_dir, const std::string& copilot_dir,
                                 bool dry_run);

// `config` without the entry `folder` of its "trustedFolders" (compared as written), with the
// comma that joined it to another, or without the whole member when that was its only entry —
// the bytes with_trusted_folder adds; every other byte kept. `config` itself when it has no
// such entry. Fails, saying why, as with_trusted_folder does.
Result<std::string> without_trusted_folder(const std::string& config, const std::string& folder);

// `fleet-hooks uninstall`, when `written` says install --trust added the project to the trusted
// folders of `copilot_dir`'s config.json: takes that entry out (without_trusted_folder), under
// the file's lock, keeping no backup (the bytes taken out are the suite's) and dropping the one
// install kept when it holds those bytes again; removes the file (and its directory, when then
// empty) when install created it and it holds nothing else. Nothing without `written`, or with
// `dry_run`. Throws Error when the file cannot be read or written.
TrustUpdate untrust_copilot_folder(const std::string& project_dir, const std::string& copilot_dir,
                                   const WrittenTrust* written, bool dry_run);

}  // namespace fleet
