#include "hook/tool_names.h"

namespace fleet {
namespace {

bool names_tool(std::string_view tool_name, std::string_view name) {
  if (name.empty()) return false;
  if (tool_name == name) return true;
  constexpr std::string_view kPrefix = "mcp__";
  if (!tool_name.starts_with(kPrefix)) return false;
  std::string_view rest = tool_name.substr(kPrefix.size());
  // rest must be "<server>__<name>" with a non-empty server
  if (rest.size() < name.size() + 3 || !rest.ends_with(name)) return false;
  rest.remove_suffix(name.size());
  return rest.ends_with("__") && rest.size() > 2;
}

}  // namespace

bool is_dispatch_tool(std::string_view tool_name, const std::vector<std::string>& extra_names) {
  if (names_tool(tool_name, kDispatchToolName)) return true;
  for (const std::string& name : extra_names) {
    if (names_tool(tool_name, name)) return true;
  }
  return false;
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
