#pragma once
// Qwen Code's trust, the reader of its AgentCli::hook_trust (read in Qwen Code 0.24.4's code,
// doc/qwen.md "Trust"): a fork of Gemini
// CLI that keeps Gemini's trustedFolders.json — ~/.qwen/trustedFolders.json
// ($QWEN_CODE_TRUSTED_FOLDERS_PATH), judged as gemini_trust.h judges it — but with folder
// trust OFF unless `security.folderTrust.enabled: true` is in the user's or the system's
// settings (/etc/qwen-code/settings.json, $QWEN_CODE_SYSTEM_SETTINGS_PATH). With it on, an
// untrusted project's .qwen/settings.json is dropped whole, hooks and MCP servers, without a
// word. `disableAllHooks: true` in any settings file Qwen Code merges turns every hook off.
// Failing: nothing throws; what Qwen Code will skip is a Finding.

#include <string>
#include <vector>

#include "agent/hook_trust.h"
#include "base/finding.h"
#include "settings/hook_sources.h"

namespace fleet {

// The findings that say Qwen Code will not run `hooks` (the suite's) of `project_dir`, with
// the user's Qwen Code directory `qwen_dir` (~/.qwen): qwen-folder-untrusted and
// qwen-hooks-disabled (errors), each saying what to do.
std::vector<Finding> qwen_trust_findings(const std::string& project_dir,
                                         const std::string& qwen_dir,
                                         const std::vector<HookToTrust>& hooks);

}  // namespace fleet
