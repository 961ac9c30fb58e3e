#pragma once
// Gemini CLI's trust, the reader of its AgentCli::hook_trust (read in gemini-cli 0.61.0's code,
// doc/agents.md "Trust"): it merges a project's .gemini/settings.json — its hooks included — only
// when the folder is trusted:
// ~/.gemini/trustedFolders.json ($GEMINI_CLI_TRUSTED_FOLDERS_PATH) maps paths to
// TRUST_FOLDER, TRUST_PARENT (the path's parent) or DO_NOT_TRUST; the rule with the longest
// path whose folder holds the project (both resolved through symlinks) decides, and no rule
// means untrusted. `security.folderTrust.enabled: false` in the user's or the system's
// settings trusts every folder. `hooksConfig.enabled: false` turns every hook off, and a
// hook's name (else its command) in `hooksConfig.disabled` that hook.
// Failing: nothing throws; what Gemini will skip is a Finding.

#include <optional>
#include <string>
#include <vector>

#include "agent/hook_trust.h"
#include "base/finding.h"
#include "settings/hook_sources.h"

namespace fleet {

// How trustedFolders.json `folders` (its text) judges `location`: true (trusted), false
// (DO_NOT_TRUST), nullopt (no rule covers it).
std::optional<bool> gemini_folder_trusted(const std::string& folders, const std::string& location);

// The findings that say Gemini will not run `hooks` (the suite's) of `project_dir`, with the
// user's Gemini directory `gemini_dir` (~/.gemini): gemini-folder-untrusted,
// gemini-hooks-disabled, gemini-hook-disabled (errors), each saying what to do.
std::vector<Finding> gemini_trust_findings(const std::string& project_dir,
                                           const std::string& gemini_dir,
                                           const std::vector<HookToTrust>& hooks);

}  // namespace fleet
