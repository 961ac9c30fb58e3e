#include "settings/check_report.h"

#include <rapidjson/document.h>

#include "base/json.h"
#include "base/printable.h"
#include "hook/tool_names.h"

namespace fleet {

std::string findings_text(const std::vector<Finding>& findings) {
  std::string text;
  for (const Finding& f : findings) {
    text += std::string(to_string(f.severity)) + " " + f.rule + ": " + printable(f.message);
    if (!f.file.empty()) text += " (" + printable(f.file) + ")";
    text += "\n";
  }
  return text;
}

std::string check_report_text(const std::vector<Finding>& findings,
                              const std::vector<std::string>& checked_tools,
                              const AgentCli& agent) {
  std::string text = findings_text(findings);
  if (has_errors(findings)) return text;
  std::string names;
  for (const std::string& tool : checked_tools)
    names += (names.empty() ? "" : ", ") + printable(tool) + " and " +
             printable(mcp_tool_name("*", tool, agent));
  // A plugin is checked by its text (no hook command to send a forged self-resume to).
  const char* proof = wired_by_plugin(agent) ? ", and the plugin is the one install writes ("
                                             : ", and denied a forged self-resume (";
  return text + "ok: resume-guard guards " + names + proof + std::string(agent.display_name) +
         ")\n";
}

namespace {

// "Claude Code, Codex and Gemini CLI".
std::string display_names(const std::vector<const AgentCli*>& clis) {
  return agent_cli_list(clis, &AgentCli::display_name, ", ", " and ");
}

}  // namespace

std::string checked_clis_text(const CheckedClis& clis, const std::string& project_dir) {
  if (!clis.chosen) return "";
  if (clis.none_wired) {
    const std::string files =
        agent_cli_list(clis.unwired, &AgentCli::project_hook_file, ", ", ", ");
    return "checking " + display_names(clis.checked) + ": no agent CLI runs fleet-hooks in " +
           project_dir + " (" + files + "); wire each CLI the project uses with fleet-hooks " +
           "install --project " + project_dir + " --agent " +
           agent_cli_list(clis.unwired, &AgentCli::name, "|", "|") + " (repeatable)\n";
  }
  std::string text = "checking " + display_names(clis.checked) + ": wired in " + project_dir;
  if (!clis.unwired.empty()) text += " (not wired: " + display_names(clis.unwired) + ")";
  return text + "\n";
}

std::string findings_json(const std::vector<Finding>& findings) {
  rapidjson::Document doc(rapidjson::kArrayType);
  auto& alloc = doc.GetAllocator();
  for (const Finding& f : findings) {
    rapidjson::Value item(rapidjson::kObjectType);
    item.AddMember("rule", json_string(f.rule, alloc), alloc);
    item.AddMember("severity", json_string(to_string(f.severity), alloc), alloc);
    item.AddMember("message", json_string(f.message, alloc), alloc);
    item.AddMember("file", json_string(f.file, alloc), alloc);
    doc.PushBack(item, alloc);
  }
  return to_json(doc) + "\n";
}

bool has_errors(const std::vector<Finding>& findings) {
  for (const Finding& f : findings) {
    if (f.severity == Severity::error) return true;
  }
  return false;
}

bool only_untrusted(const std::vector<Finding>& findings) {
  for (const Finding& f : findings) {
    if (f.severity == Severity::error && !f.fixed_by_trust) return false;
  }
  return has_errors(findings);
}

}  // namespace fleet
