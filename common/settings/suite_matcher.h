#pragma once
// The matcher of one of the suite's hook entries: what it must select — the tools the entry
// acts on (dispatch_food_truck and its --tool names), bare and as MCP tools in the form of
// every CLI that runs the hooks of the file (Claude Code's .claude/settings.json:
// mcp__<server>__NAME, and GitHub Copilot CLI's <server>-NAME) — and what it must not: any other
// tool, for which the suite's hooks do nothing but cost a process, and which a fail-closed guard
// blocks on a machine without the suite. `fleet-hooks check` reports these faults and `fleet-hooks
// install` writes none of them, judged here once so the two agree. Failing: the judgement is the
// return value (the faults; none when the matcher is right); a matcher that is not a list of names
// is nullopt.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_cli.h"

namespace fleet {

// Claude Code reads it as an anchored JavaScript RegExp; GitHub Copilot CLI matches the whole
// tool name against it.
inline constexpr std::string_view kDispatchMatcher = "^(mcp__.*__|.*-)?dispatch_food_truck$";

// The anchored matcher for dispatch_food_truck and `tools`, bare and as MCP tools in the forms
// of every CLI that runs the hooks of `agent`'s file (hook_file_mcp_forms; Claude Code's:
// "^(mcp__.*__|.*-)?…$"; Gemini CLI's: "^(mcp_.*_)?…$").
std::string dispatch_matcher(const std::vector<std::string>& tools, const AgentCli& agent);

// True when `matcher` selects `tool`, and `tool` of the MCP servers kitchen and other_server
// in `agent`'s own form (mcp__kitchen__<tool>); the forms of the CLIs in agent.also_read_by
// are judged by matcher_faults (matcher-misses-other-cli).
bool matcher_covers_tool(std::string_view matcher, std::string_view tool, const AgentCli& agent);

// The tool names a matcher the suite could have written lists: "^(mcp__.*__|.*-)?NAME$",
// "^(mcp__.*__|.*-)?(A|B)$" (in the MCP forms of `agent`'s file), the same with `agent`'s own
// form only ("^(mcp__.*__)?NAME$", what older versions wrote), or plain names "A|B" (or
// "A, B"). nullopt for anything else.
std::optional<std::vector<std::string>> matcher_names(std::string_view matcher,
                                                      const AgentCli& agent);

// The tools an entry whose command has `arguments` acts on: dispatch_food_truck, then its
// --tool names.
std::vector<std::string> tools_acted_on(std::string_view arguments);

struct MatcherFault {
  // matcher-misses-mcp, matcher-misses-dispatch, matcher-misses-other-cli, matcher-unjudged
  // or matcher-too-broad.
  const char* rule;
  // What is wrong and what to use, to follow "<entry> matcher '<matcher>'": " also matches
  // Bash (…); anchor it: ^(mcp__.*__)?dispatch_food_truck$".
  std::string problem;
};

// The faults of `matcher` for an entry whose command has `arguments`, in this order: at most
// one of it selecting no tool it is meant for (invalid, unjudged, misses; misses-other-cli
// when it selects them only as `agent` names them, not as a CLI in agent.also_read_by does),
// then at most one of it selecting another tool (too broad). The tools it is meant for are its
// --tool names, else dispatch_food_truck.
std::vector<MatcherFault> matcher_faults(std::string_view matcher, std::string_view arguments,
                                         const AgentCli& agent);

}  // namespace fleet
