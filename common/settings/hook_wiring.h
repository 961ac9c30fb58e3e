#pragma once
// The suite's entries in a settings document's "hooks" (Claude Code's .claude/settings.json,
// Codex's .codex/hooks.json, Gemini's .gemini/settings.json: one shape, the agent CLI's event
// names, MCP tool-name form and timeout unit — agent_cli.h): resume-guard on the pre-tool event
// and `provenance-writer hook` on the post-tool event of the dispatch tools, each with
// `--agent NAME` for a CLI other than Claude Code, and where the CLI's table asks for it
// `provenance-writer session-start` on its session-start event. Installing updates only what
// locates the executable of the suite's existing entries (their arguments and other keys
// stay), adds the tools asked for, and adds entries where there are none; it writes nothing
// `fleet-hooks check` refuses: a matcher check faults (suite_matcher.h) is rewritten when it
// is a list of names in a group of the suite's alone, else a guard's is refused, and a guard
// timeout under kMinHookTimeoutSeconds becomes kHookTimeoutSeconds. Uninstalling removes
// exactly the suite's entries and the containers they leave empty.
// Failing: a settings document the suite cannot change safely throws Error (nothing changed);
// what install changed in the user's entries is returned as notes; lookups return their
// answer (a bool, or nullptr for no suite hook).

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "agent/agent_cli.h"
#include "hook/hook_command.h"
#include "settings/suite_matcher.h"

namespace fleet {

inline constexpr int kHookTimeoutSeconds = 10;
// Under this, Claude Code may cancel the hook, and a cancelled guard lets the call run.
inline constexpr int kMinHookTimeoutSeconds = 5;

enum class HookRole { pre_tool, post_tool, session_start };

struct SuiteHook {
  HookRole role;           // the event it is wired on, named by the agent CLI's table
  const char* executable;  // file name the entry is recognised by
  const char* arguments;   // the default arguments (" hook" for the writer)
};

inline constexpr SuiteHook kSuiteHooks[] = {
    {HookRole::pre_tool, "resume-guard", ""},
    {HookRole::post_tool, "provenance-writer", " hook"},
};

// Records a session its launcher could not name the id of (Codex), from its first hook.
inline constexpr SuiteHook kSessionStartHook = {HookRole::session_start, "provenance-writer",
                                                " session-start"};

// The hooks the suite wires for `agent`: kSuiteHooks, then kSessionStartHook when the
// agent's table names a session-start matcher.
std::vector<const SuiteHook*> suite_hooks_for(const AgentCli& agent);

// The event `hook` is wired on for `agent` ("PreToolUse", "BeforeTool", "SessionStart").
std::string suite_hook_event(const SuiteHook& hook, const AgentCli& agent);

// The "name" a Gemini CLI entry of `hook` carries ("fleet-hooks resume-guard").
std::string suite_hook_name(const SuiteHook& hook);

// How install locates the executables.
struct WiringOptions {
  // "" for the portable form: the bare name, found on PATH by the shell. Otherwise the
  // directory of the executables (written as absolute paths).
  std::string bin_dir;
  // Extra dispatch tool names (dispatch_food_truck is always guarded).
  std::vector<std::string> tools;
  // The guard's entry does not block when resume-guard is missing (exit 1 instead of 2).
  bool fail_open_if_missing = false;
  // The agent CLI whose file this is: its event names, matcher form and timeout unit.
  const AgentCli* agent = nullptr;
};

// Which suite hook a command on `event` of `agent`'s file runs, or nullptr.
const SuiteHook* suite_hook_of_command(std::string_view command, std::string_view event,
                                       const AgentCli& agent);

// Installs the suite's hooks into `settings`. Returns a sentence for the user for each
// change made to an existing entry beyond locating the executable (names dropped from a
// matcher, a timeout raised). Throws Error, with nothing changed, when "hooks" or an event's
// list has an unexpected type, or when an existing guard entry's own matcher does not cover
// a tool asked for or is one check refuses (the user must change it).
std::vector<std::string> install_suite_hooks(rapidjson::Document& settings,
                                             const WiringOptions& options);

// Removes the suite's hook entries and the groups, event lists and "hooks" object that are
// left empty by it. Returns how many entries were removed.
int uninstall_suite_hooks(rapidjson::Document& settings, const AgentCli& agent);

}  // namespace fleet
