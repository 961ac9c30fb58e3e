#include "policy_check.h"

#include <sys/stat.h>
#include <unistd.h>
#include <optional>

#include "child_process.h"
#include "error.h"
#include "hook_wiring.h"
#include "json.h"
#include "matcher.h"
#include "paths.h"
#include "settings_file.h"
#include "store_safety.h"
#include "subprocess.h"

namespace fleet {
namespace {

constexpr int kMinTimeoutSeconds = 5;
constexpr const char* kDispatchProbes[] = {"dispatch_food_truck",
                                           "mcp__kitchen__dispatch_food_truck",
                                           "mcp__other_server__dispatch_food_truck"};
constexpr const char* kOtherProbes[] = {"Bash",
                                        "Read",
                                        "Task",
                                        "mcp__kitchen__list_trucks",
                                        "dispatch_food_truck_status",
                                        "mcp__kitchen__dispatch_food_truck_status",
                                        "redispatch_food_truck"};
constexpr const char* kForgedSession = "f0f0f0f0-0000-4000-8000-00000000f0f0";

struct ConfiguredHook {
  std::string file;
  std::string matcher;
  std::string command;
  std::optional<double> timeout;
};

// Every entry of `event` whose executable is `executable`, in the given settings files.
std::vector<ConfiguredHook> configured(const std::vector<std::string>& files, const char* event,
                                       const char* executable, std::vector<Finding>& findings) {
  std::vector<ConfiguredHook> found;
  for (const std::string& file : files) {
    rapidjson::Document doc;
    try {
      load_settings(file, doc);
    } catch (const Error& e) {
      if (std::string(event) == "PreToolUse")
        findings.push_back({"settings-invalid", "error", e.what(), file});
      continue;
    }
    const rapidjson::Value* hooks = member(doc, "hooks");
    const rapidjson::Value* groups = hooks ? member(*hooks, event) : nullptr;
    if (groups == nullptr || !groups->IsArray()) continue;
    for (const auto& group : groups->GetArray()) {
      const std::string matcher(string_member(group, "matcher").value_or(""));
      const rapidjson::Value* entries = member(group, "hooks");
      if (entries == nullptr || !entries->IsArray()) continue;
      for (const auto& entry : entries->GetArray()) {
        const auto command = string_member(entry, "command");
        if (!command || command_executable_name(*command) != executable) continue;
        ConfiguredHook hook{file, matcher, std::string(*command), std::nullopt};
        if (const rapidjson::Value* timeout = member(entry, "timeout");
            timeout && timeout->IsNumber()) {
          hook.timeout = timeout->GetDouble();
        }
        found.push_back(std::move(hook));
      }
    }
  }
  return found;
}

// The executable's path with $CLAUDE_PROJECT_DIR expanded and bare names looked up on PATH.
std::string resolve_executable(const std::string& command, const std::string& project_dir) {
  std::string path = command_executable(command);
  for (const std::string var : {"${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"}) {
    for (std::size_t at; (at = path.find(var)) != std::string::npos;)
      path.replace(at, var.size(), project_dir);
  }
  if (path.find('/') != std::string::npos) return path;
  const std::string search = env_value("PATH");
  std::size_t start = 0;
  while (start <= search.size()) {
    const std::size_t end = search.find(':', start);
    const std::string dir =
        search.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + path;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return path;
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// Checks one entry's matcher, timeout and binary; returns false when the binary is unusable.
bool check_entry(const ConfiguredHook& hook, const char* what, const char* severity,
                 const std::string& project_dir, std::vector<Finding>& findings) {
  const std::string quoted = "'" + hook.matcher + "'";
  for (const char* probe : kDispatchProbes) {
    if (matcher_matches(hook.matcher, probe)) continue;
    if (matcher_is_plain(hook.matcher)) {
      findings.push_back({"matcher-misses-mcp", severity,
                          std::string(what) + " matcher " + quoted +
                              " is a plain tool name list, which misses " + probe + "; use " +
                              std::string(kDispatchMatcher),
                          hook.file});
    } else {
      findings.push_back({"matcher-misses-dispatch", severity,
                          std::string(what) + " matcher " + quoted + " does not match " + probe +
                              "; use " + std::string(kDispatchMatcher),
                          hook.file});
    }
    break;
  }
  for (const char* probe : kOtherProbes) {
    if (!matcher_matches(hook.matcher, probe)) continue;
    findings.push_back({"matcher-too-broad", severity,
                        std::string(what) + " matcher " + quoted + " also matches " + probe +
                            " (matchers are unanchored regular expressions); anchor it: " +
                            std::string(kDispatchMatcher),
                        hook.file});
    break;
  }
  if (!hook.timeout) {
    findings.push_back({"timeout", severity,
                        std::string(what) + " has no timeout; set \"timeout\": " +
                            std::to_string(kHookTimeoutSeconds) + " (seconds)",
                        hook.file});
  } else if (*hook.timeout < kMinTimeoutSeconds) {
    findings.push_back({"timeout", severity,
                        std::string(what) + " timeout " +
                            std::to_string(static_cast<int>(*hook.timeout)) + " s is under " +
                            std::to_string(kMinTimeoutSeconds) + " s",
                        hook.file});
  }
  const std::string binary = resolve_executable(hook.command, project_dir);
  if (!is_executable_file(binary)) {
    findings.push_back({"binary-missing", "error",
                        std::string(what) + " command '" + hook.command + "' runs " + binary +
                            ", which is missing or not executable; run fleet-hooks install",
                        hook.file});
    return false;
  }
  return true;
}

bool covers_dispatch_tool(const ConfiguredHook& hook) {
  for (const char* probe : kDispatchProbes) {
    if (!matcher_matches(hook.matcher, probe)) return false;
  }
  return true;
}

// Runs the configured guard on a forged self-resume; true when it denies.
bool guard_denies_forgery(const ConfiguredHook& hook, const std::string& project_dir,
                          std::string& detail) {
  char state_template[] = "/tmp/fleet-hooks-check-XXXXXX";
  if (::mkdtemp(state_template) == nullptr) {
    detail = "cannot create a temporary state directory";
    return false;
  }
  const std::string state = state_template;
  rapidjson::Document input(rapidjson::kObjectType);
  auto& alloc = input.GetAllocator();
  input.AddMember("session_id", rapidjson::StringRef(kForgedSession), alloc);
  input.AddMember("cwd", json_string(project_dir, alloc), alloc);
  input.AddMember("hook_event_name", "PreToolUse", alloc);
  input.AddMember("tool_name", "mcp__kitchen__dispatch_food_truck", alloc);
  rapidjson::Value tool_input(rapidjson::kObjectType);
  tool_input.AddMember("resume_session_id", rapidjson::StringRef(kForgedSession), alloc);
  input.AddMember("tool_input", tool_input, alloc);

  const auto seconds = hook.timeout.value_or(kHookTimeoutSeconds);
  CommandResult result;
  try {
    result = run_shell_command(
        hook.command, to_json(input),
        environment_with({"FLEET_HOOKS_STATE_DIR=" + state, "CLAUDE_PROJECT_DIR=" + project_dir}),
        std::chrono::milliseconds(static_cast<long long>(seconds * 1000)));
  } catch (const Error& e) {
    detail = e.what();
  }
  ::rmdir(state.c_str());
  if (result.timed_out) {
    detail = "it did not answer within its timeout";
    return false;
  }
  rapidjson::Document output;
  if (parse_json(result.out, output)) {
    const rapidjson::Value* specific = member(output, "hookSpecificOutput");
    if (specific && string_member(*specific, "permissionDecision") == "deny") return true;
  }
  detail =
      "exit " + std::to_string(result.exit_code) + ", stdout '" + result.out.substr(0, 200) + "'";
  return false;
}

void check_store(const std::string& store, std::vector<Finding>& findings) {
  const StoreSafety safety = store_safety(store);
  if (!safety.safe) {
    findings.push_back({"store-unsafe", "error", safety.problem + "; fix: " + safety.fix, store});
  }
}

}  // namespace

std::vector<Finding> check_wiring(const CheckOptions& options) {
  std::vector<Finding> findings;
  std::vector<std::string> files;
  if (!options.user_settings.empty()) files.push_back(options.user_settings);
  files.push_back(settings_path(SettingsScope::project, options.project_dir));
  files.push_back(settings_path(SettingsScope::local, options.project_dir));

  const auto guards = configured(files, "PreToolUse", "resume-guard", findings);
  bool protected_by_working_guard = false;
  for (const ConfiguredHook& guard : guards) {
    const std::size_t before = findings.size();
    if (!check_entry(guard, "the resume-guard hook", "error", options.project_dir, findings))
      continue;
    std::string detail;
    if (!guard_denies_forgery(guard, options.project_dir, detail)) {
      findings.push_back({"guard-does-not-deny", "error",
                          "the resume-guard hook '" + guard.command +
                              "' did not deny a forged self-resume (" + detail + ")",
                          guard.file});
      continue;
    }
    if (findings.size() == before && covers_dispatch_tool(guard)) protected_by_working_guard = true;
  }
  if (guards.empty()) {
    findings.push_back({"guard-missing", "error",
                        "no PreToolUse hook runs resume-guard; run fleet-hooks install --project " +
                            options.project_dir,
                        ""});
  } else if (!protected_by_working_guard) {
    findings.push_back({"guard-missing", "error",
                        "no correctly configured PreToolUse hook runs resume-guard for both "
                        "dispatch_food_truck and mcp__<server>__dispatch_food_truck",
                        ""});
  }

  const auto writers = configured(files, "PostToolUse", "provenance-writer", findings);
  if (writers.empty()) {
    findings.push_back({"writer-missing", "warning",
                        "no PostToolUse hook runs provenance-writer; dispatches are recorded only "
                        "if the dispatcher records them (launch-wrapper --record-provenance)",
                        ""});
  }
  for (const ConfiguredHook& writer : writers) {
    check_entry(writer, "the provenance-writer hook", "warning", options.project_dir, findings);
  }

  try {
    check_store(
        provenance_store_path(state_dir_for_project(options.state_dir, options.project_dir)),
        findings);
  } catch (const Error& e) {
    findings.push_back({"store-unsafe", "error", e.what(), ""});
  }
  return findings;
}

std::string findings_text(const std::vector<Finding>& findings) {
  std::string text;
  for (const Finding& f : findings) {
    text += f.severity + " " + f.rule + ": " + f.message;
    if (!f.file.empty()) text += " (" + f.file + ")";
    text += "\n";
  }
  return text;
}

std::string findings_json(const std::vector<Finding>& findings) {
  rapidjson::Document doc(rapidjson::kArrayType);
  auto& alloc = doc.GetAllocator();
  for (const Finding& f : findings) {
    rapidjson::Value item(rapidjson::kObjectType);
    item.AddMember("rule", json_string(f.rule, alloc), alloc);
    item.AddMember("severity", json_string(f.severity, alloc), alloc);
    item.AddMember("message", json_string(f.message, alloc), alloc);
    item.AddMember("file", json_string(f.file, alloc), alloc);
    doc.PushBack(item, alloc);
  }
  return to_json(doc) + "\n";
}

bool has_errors(const std::vector<Finding>& findings) {
  for (const Finding& f : findings) {
    if (f.severity == "error") return true;
  }
  return false;
}

}  // namespace fleet
