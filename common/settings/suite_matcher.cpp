#include "settings/suite_matcher.h"

#include <algorithm>

#include "base/word_list.h"
#include "hook/hook_command.h"
#include "hook/tool_names.h"
#include "settings/matcher.h"

namespace fleet {
namespace {

// "^(mcp__.*__|.*-)?": the optional MCP part of a dispatch matcher in `forms`.
std::string mcp_prefix(const std::vector<McpToolNameForm>& forms) {
  std::string alternatives;
  for (const McpToolNameForm& form : forms) {
    if (!alternatives.empty()) alternatives += "|";
    alternatives.append(form.prefix).append(".*").append(form.separator);
  }
  return "^(" + alternatives + ")?";
}

// The optional MCP part of the matcher install writes for `agent`'s file, which selects the
// MCP forms of every CLI that runs its hooks: "^(mcp__.*__|.*-)?" for Claude Code's.
std::string mcp_prefix(const AgentCli& agent) {
  return mcp_prefix(hook_file_mcp_forms(agent));
}

// "^(mcp__.*__)?": the MCP part with `agent`'s own form only (what install wrote before it
// knew the CLIs in agent.also_read_by).
std::string own_mcp_prefix(const AgentCli& agent) {
  return mcp_prefix(std::vector<McpToolNameForm>{agent.mcp});
}

// True when `matcher` selects `tool` as the CLIs in agent.also_read_by name it.
bool readers_covered(std::string_view matcher, std::string_view tool, const AgentCli& agent) {
  return std::all_of(agent.also_read_by.begin(), agent.also_read_by.end(),
                     [&](const HookFileReader& reader) {
                       return matcher_matches(matcher, mcp_tool_name("kitchen", tool, reader.mcp));
                     });
}

// " misses kitchen-dispatch_food_truck, the name GitHub Copilot CLI (1.0.102) gives …".
std::string readers_missed(std::string_view matcher, std::string_view tool, const AgentCli& agent) {
  for (const HookFileReader& reader : agent.also_read_by) {
    const std::string name = mcp_tool_name("kitchen", tool, reader.mcp);
    if (matcher_matches(matcher, name)) continue;
    return " misses " + name + ", the name " + std::string(reader.display_name) + " (" +
           std::string(reader.version_checked) +
           ") gives the tool of an MCP server 'kitchen': " + std::string(reader.display_name) +
           " runs the hooks of " + std::string(agent.project_hook_file) +
           " too, and under it the call never reaches this hook (a resume-guard entry: the "
           "dispatch tool is unguarded there)";
  }
  return "";
}

// Tools a dispatch tool's matcher must not select (with each tool's "_status", MCP
// "_status" and "re" neighbours), unless the entry acts on them.
std::vector<std::string> other_tools(const AgentCli& agent) {
  return {"Bash", "Read", "Task", "run_shell_command",
          mcp_tool_name("kitchen", "list_trucks", agent)};
}

}  // namespace

std::string dispatch_matcher(const std::vector<std::string>& tools, const AgentCli& agent) {
  const std::string prefix = mcp_prefix(agent);
  std::vector<std::string> names = {std::string(kDispatchToolName)};
  for (const std::string& tool : tools) {
    if (!contains(names, tool)) names.push_back(tool);
  }
  if (names.size() == 1) return prefix + names[0] + "$";
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : "|") + name;
  return prefix + "(" + list + ")$";
}

bool matcher_covers_tool(std::string_view matcher, std::string_view tool, const AgentCli& agent) {
  return matcher_matches(matcher, tool) &&
         matcher_matches(matcher, mcp_tool_name("kitchen", tool, agent)) &&
         matcher_matches(matcher, mcp_tool_name("other_server", tool, agent));
}

std::optional<std::vector<std::string>> matcher_names(std::string_view matcher,
                                                      const AgentCli& agent) {
  std::string_view list = matcher;
  std::string prefix = mcp_prefix(agent);
  if (!matcher.starts_with(prefix)) prefix = own_mcp_prefix(agent);
  if (matcher.starts_with(prefix) && matcher.ends_with("$")) {
    list = matcher.substr(prefix.size(), matcher.size() - prefix.size() - 1);
    if (list.starts_with("(") && list.ends_with(")")) list = list.substr(1, list.size() - 2);
  } else if (!matcher_is_plain(matcher)) {
    return std::nullopt;
  }
  std::vector<std::string> names;
  while (!list.empty()) {
    const std::size_t cut = list.find_first_of("|,");
    std::string name(list.substr(0, cut));
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (!is_valid_tool_name(name)) return std::nullopt;
    names.push_back(name);
    if (cut == std::string_view::npos) break;
    list.remove_prefix(cut + 1);
  }
  if (names.empty()) return std::nullopt;
  return names;
}

std::vector<std::string> tools_acted_on(std::string_view arguments) {
  std::vector<std::string> tools = {std::string(kDispatchToolName)};
  for (const std::string& tool : command_tools(arguments)) {
    if (!contains(tools, tool)) tools.push_back(tool);
  }
  return tools;
}

std::vector<MatcherFault> matcher_faults(std::string_view matcher, std::string_view arguments,
                                         const AgentCli& agent) {
  std::vector<MatcherFault> faults;
  std::vector<std::string> tools = command_tools(arguments);
  const std::string anchored = dispatch_matcher(tools, agent);
  const std::string mcp_form =
      std::string(agent.mcp.prefix) + "<server>" + std::string(agent.mcp.separator);
  if (tools.empty()) tools.emplace_back(kDispatchToolName);
  const MatcherReading reading = read_matcher(matcher);
  if (reading != MatcherReading::exact) {
    faults.push_back(
        {reading == MatcherReading::invalid ? "matcher-misses-dispatch" : "matcher-unjudged",
         (reading == MatcherReading::invalid
              ? " is not a valid JavaScript regular expression, so " +
                    std::string(agent.display_name) + " runs this hook for no tool"
              : " uses a regular expression fleet-hooks cannot evaluate (a "
                "backreference, lookaround, inline modifier or a huge repetition "
                "count), so whether it selects the dispatch tool is unknown") +
             "; use " + anchored});
    tools.clear();  // nothing more can be said about what it selects
  }
  for (const std::string& tool : tools) {
    if (matcher_covers_tool(matcher, tool, agent)) {
      if (readers_covered(matcher, tool, agent)) continue;
      faults.push_back({"matcher-misses-other-cli",
                        readers_missed(matcher, tool, agent) + "; use " + anchored +
                            " (fleet-hooks install rewrites the suite's own matcher)"});
      break;
    }
    const bool bare_only = matcher_matches(matcher, tool) && matcher_is_plain(matcher);
    faults.push_back({bare_only ? "matcher-misses-mcp" : "matcher-misses-dispatch",
                      (bare_only ? " is a plain tool name list, which misses " + mcp_form
                                 : " does not select both " + tool + " and " + mcp_form) +
                          tool + "; use " + anchored});
    break;
  }
  std::vector<std::string> probes = other_tools(agent);
  for (const std::string& tool : tools) {
    probes.push_back(tool + "_status");
    probes.push_back(mcp_tool_name("kitchen", tool + "_status", agent));
    probes.push_back("re" + tool);
  }
  // A tool the entry acts on is no other tool, whatever it is called (--tool Bash).
  const std::vector<std::string> acted_on = tools_acted_on(arguments);
  for (const std::string& probe : probes) {
    const bool own = std::any_of(acted_on.begin(), acted_on.end(), [&](const std::string& tool) {
      return probe == tool || probe == mcp_tool_name("kitchen", tool, agent);
    });
    if (own || !matcher_matches(matcher, probe)) continue;
    faults.push_back({"matcher-too-broad", " also matches " + probe +
                                               " (matchers are unanchored regular expressions); "
                                               "anchor it: " +
                                               anchored});
    break;
  }
  return faults;
}

}  // namespace fleet
