#pragma once
// Which agent CLI a running process is (doc/resume-guard.md, "Caller handover"): a launch
// looks for the nearest agent CLI above it, whose handover alone may name its caller and whose
// variable alone may be taken for it. A process is known for a CLI by its profile's program
// names (AgentProfile::programs: its command name or its argv[0]; under a JavaScript runtime,
// its script's name without `.js`) or by the CLI's npm package folder in the path of that
// program or script (AgentProfile::packages). Observed at the pinned versions
// (doc/cli-facts.md): Claude Code runs as `claude`, Codex as its native `codex` under
// `node …/codex.js`, Gemini CLI as `node …/gemini`, Qwen Code as `node --expose-gc
// …/@qwen-code/qwen-code/cli.js`, Copilot CLI as its native `…/copilot` (command name
// MainThread), OpenCode as `opencode`.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_profile.h"
#include "process/process_identity.h"

namespace fleet {

// The profile of the CLI a process with command name `name` and arguments `arguments` runs,
// nullptr when it is none of `profiles`.
const AgentProfile* agent_of_command(std::string_view name,
                                     const std::vector<std::string>& arguments,
                                     std::span<const AgentProfile* const> profiles);

// The same for the running process `link` (its arguments read from the system).
const AgentProfile* agent_of_process(const ProcessLink& link,
                                     std::span<const AgentProfile* const> profiles);

}  // namespace fleet
