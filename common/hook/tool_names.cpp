#include "hook/tool_names.h"

namespace fleet {
namespace {

bool names_tool(std::string_view tool_name, std::string_view name, const McpToolNameForm& mcp) {
  if (name.empty()) return false;
  if (tool_name == name) return true;
  if (!tool_name.starts_with(mcp.prefix)) return false;
  std::string_view rest = tool_name.substr(mcp.prefix.size());
  // rest must be "<server><separator><name>" with a non-empty server
  if (rest.size() <= mcp.separator.size() + name.size() || !rest.ends_with(name)) return false;
  rest.remove_suffix(name.size());
  return rest.ends_with(mcp.separator);
}

}  // namespace

bool is_dispatch_tool(std::string_view tool_name, const std::vector<std::string>& extra_names,
                      const AgentCli& agent) {
  for (const McpToolNameForm& mcp : hook_file_mcp_forms(agent)) {
    if (names_tool(tool_name, kDispatchToolName, mcp)) return true;
    for (const std::string& name : extra_names) {
      if (names_tool(tool_name, name, mcp)) return true;
    }
  }
  return false;
}

std::string mcp_tool_name(std::string_view server, std::string_view tool,
                          const McpToolNameForm& form) {
  std::string name(form.prefix);
  name.append(server).append(form.separator).append(tool);
  return name;
}

std::string mcp_tool_name(std::string_view server, std::string_view tool, const AgentCli& agent) {
  return mcp_tool_name(server, tool, agent.mcp);
}

bool is_valid_tool_name(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace fleet
