#include "settings/policy_check.h"

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <optional>
#include <set>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "base/word_list.h"
#include "hook/hook_command.h"
#include "hook/tool_names.h"
#include "settings/forged_resume.h"
#include "settings/hook_sources.h"
#include "settings/hook_wiring.h"
#include "settings/plugin_wiring.h"
#include "settings/settings_file.h"
#include "settings/suite_matcher.h"
#include "settings/switch_offs.h"
#include "store/store_safety.h"

namespace fleet {
namespace {

// The dispatch tools an entry is meant for: its --tool names, else dispatch_food_truck.
std::vector<std::string> entry_tools(const ConfiguredHook& hook) {
  std::vector<std::string> tools = command_tools(hook.parsed.arguments);
  if (tools.empty()) tools.emplace_back(kDispatchToolName);
  return tools;
}

// True when the binary acts on `tool`: dispatch_food_truck always, others with --tool.
bool binary_acts_on(const ConfiguredHook& hook, std::string_view tool) {
  return contains(tools_acted_on(hook.parsed.arguments), tool);
}

std::string install_hint(const std::string& project_dir, const std::vector<std::string>& tools,
                         const AgentCli& agent) {
  std::string hint = "fleet-hooks install --project " + project_dir;
  if (!agent.is_default) hint += " --agent " + std::string(agent.name);
  for (const std::string& tool : tools) {
    if (tool != kDispatchToolName) hint += " --tool " + tool;
  }
  return hint;
}

// The findings on one entry: its type, matcher and timeout.
// The findings on one entry: its type, matcher (for a tool hook) and timeout.
std::vector<Finding> entry_findings(const ConfiguredHook& hook, const char* what, Severity severity,
                                    const AgentCli& agent, bool tool_hook = true) {
  std::vector<Finding> findings;
  if (hook.type != "command") {
    findings.push_back(
        {"hook-type", severity,
         std::string(what) +
             (hook.type ? " has type \"" + *hook.type + "\"" : std::string(" has no type")) + ": " +
             std::string(agent.display_name) +
             " runs only entries of type \"command\" as commands, so it never runs this one; "
             "set \"type\": \"command\"",
         hook.file});
  }
  if (tool_hook) {
    for (const MatcherFault& fault : matcher_faults(hook.matcher, hook.parsed.arguments, agent)) {
      findings.push_back({fault.rule, severity,
                          std::string(what) + " matcher '" + hook.matcher + "'" + fault.problem,
                          hook.file});
    }
  }
  const std::string unit =
      agent.timeout_unit == TimeoutUnit::milliseconds ? " milliseconds" : " seconds";
  if (!hook.timeout) {
    findings.push_back({"timeout", severity,
                        std::string(what) + " has no timeout; set \"timeout\": " +
                            std::to_string(hook_timeout_value(agent, kHookTimeoutSeconds)) + " (" +
                            unit.substr(1) + ")",
                        hook.file});
  } else if (*hook.timeout < hook_timeout_value(agent, kMinHookTimeoutSeconds)) {
    findings.push_back({"timeout", severity,
                        std::string(what) + " timeout " +
                            std::to_string(static_cast<long long>(*hook.timeout)) +
                            (agent.timeout_unit == TimeoutUnit::milliseconds ? unit : " s") +
                            " is under " + std::to_string(kMinHookTimeoutSeconds) + " s",
                        hook.file});
  }
  return findings;
}

// nullopt when the entry's executable can be run on this machine; else a binary-missing
// finding that says what Claude Code does here.
std::optional<Finding> binary_missing(const ConfiguredHook& hook, const char* name, bool is_guard,
                                      const std::string& project_dir, const AgentCli& agent) {
  const std::optional<std::string> binary = resolve_hook_executable(hook, project_dir, agent);
  if (binary && is_executable_file(*binary)) return std::nullopt;
  const std::optional<std::string> executable = command_executable(hook.command);
  std::string message = std::string(name) + " is not installed on this machine (" +
                        (binary       ? *binary + " is missing or not executable"
                         : executable ? *executable + " is not on PATH"
                                      : "the command names no executable") +
                        "): ";
  if (!is_guard) {
    message += "dispatches are not recorded by this hook here";
  } else if (hook.parsed.exit_if_missing == exit_status::hook_blocks) {
    message += "the wiring blocks every call of the dispatch tool here (fail-closed)";
  } else {
    message += std::string(agent.display_name) +
               " runs the dispatch tool UNGUARDED here, without a warning";
  }
  message += ". " + std::string(kInstallRoutes);
  if (!hook.parsed.guarded && hook.plugin_root.empty())
    message += ", then run fleet-hooks install again for the fail-closed form";
  return Finding{"binary-missing", is_guard ? Severity::error : Severity::warning, message,
                 hook.file};
}

// A finding when the CLI would run `hook`'s executable from inside the project or through a
// relative path (as this machine's PATH finds it): a program the repository ships, which a
// pull request can change, in place of the suite's. nullopt otherwise.
std::optional<Finding> runs_from_project(const ConfiguredHook& hook, const char* name,
                                         Severity severity, const std::string& project_dir,
                                         const AgentCli& agent) {
  const std::optional<std::string> binary = resolve_hook_executable(hook, project_dir, agent);
  if (!binary) return std::nullopt;
  std::string where;
  if (!binary->starts_with("/")) {
    where = "through a relative path (" + *binary + ")";
  } else {
    const std::optional<std::string> real = real_path(*binary);
    const std::string project = real_path(project_dir).value_or(project_dir);
    if (!path_within(project, real.value_or(*binary))) return std::nullopt;
    where = "from inside the project (" + *binary + ")";
  }
  return Finding{"suite-in-project", severity,
                 std::string(agent.display_name) + " would run " + name + " " + where +
                     ": a program the repository ships, which any pull request can change, in "
                     "place of the suite's. Install fleet-hooks outside the project, put its bin "
                     "directory on PATH, and run fleet-hooks install again",
                 hook.file};
}

// What the configured guard command did with a forged self-resume: blocked it (a deny
// decision, or exit 2: Claude Code blocks the call), or not, and then what it did instead.
// A store-unsafe finding for the store at `store`, nullopt when it is safe.
std::optional<Finding> store_unsafe(const std::string& store) {
  const StoreSafety safety = store_safety(store);
  if (safety.safe) return std::nullopt;
  return Finding{"store-unsafe", Severity::error, safety.problem + "; fix: " + safety.fix, store};
}

// The files `options.agent` reads hooks from, in its order (lowest precedence first), and its
// plugins.
HookSourceOptions hook_source_options(const CheckOptions& options) {
  const AgentCli& agent = *options.agent;
  HookSourceOptions sources;
  sources.agent = &agent;
  const std::string project_file = options.project_dir + "/" + std::string(agent.project_hook_file);
  if (has_settings_scopes(agent)) {
    if (!options.user_settings.empty()) sources.settings_files.push_back(options.user_settings);
    sources.settings_files.push_back(project_file);
    sources.settings_files.push_back(
        settings_path(SettingsScope::local, options.project_dir, agent));
  } else {
    if (!options.config_home.empty())
      sources.settings_files.push_back(options.config_home + "/" +
                                       std::string(agent.user_hook_file));
    sources.settings_files.push_back(project_file);
  }
  if (loads_hook_plugins(agent)) {
    sources.plugin_dirs = options.plugin_dirs;
    // Where its plugins are recorded (without HOME: under the root directory, found empty).
    sources.config_dir =
        known_config_home(agent).value_or(std::string("/").append(agent.config_home_default));
  }
  return sources;
}

// The findings on the session-start hooks the suite wires for `agent` (Codex: recording a
// worker launch-wrapper started, from its first hook).
std::vector<Finding> session_start_findings(const std::vector<const ConfiguredHook*>& starts,
                                            const CheckOptions& options) {
  const AgentCli& agent = *options.agent;
  std::vector<Finding> findings;
  if (agent.session_start.matcher.empty()) return findings;
  if (starts.empty()) {
    findings.push_back(
        {"session-start-missing", Severity::warning,
         "no " + std::string(agent.session_start.event) +
             " hook runs provenance-writer session-start: a " + std::string(agent.display_name) +
             " worker that launch-wrapper starts is not recorded before its first tool call; run " +
             install_hint(options.project_dir, {}, agent),
         ""});
  }
  for (const ConfiguredHook* start : starts) {
    const std::vector<Finding> own = entry_findings(
        *start, "the provenance-writer session-start hook", Severity::warning, agent, false);
    findings.insert(findings.end(), own.begin(), own.end());
    if (auto missing =
            binary_missing(*start, "provenance-writer", false, options.project_dir, agent))
      findings.push_back(std::move(*missing));
  }
  return findings;
}

// What keeps the CLI from running the suite's hooks it reads (its AgentCli::hook_trust).
std::vector<Finding> trust_findings(const std::vector<const ConfiguredHook*>& guards,
                                    const std::vector<const ConfiguredHook*>& writers,
                                    const std::vector<const ConfiguredHook*>& starts,
                                    const CheckOptions& options) {
  if (options.agent->hook_trust.check == nullptr) return {};
  std::vector<HookToTrust> suite;
  for (const ConfiguredHook* hook : guards) suite.push_back({hook, "the resume-guard hook"});
  for (const ConfiguredHook* hook : writers) suite.push_back({hook, "the provenance-writer hook"});
  for (const ConfiguredHook* hook : starts)
    suite.push_back({hook, "the provenance-writer session-start hook"});
  return options.agent->hook_trust.check(options.project_dir, options.config_home, suite);
}

}  // namespace

namespace {

// The suite's entries among the configured hooks, by role.
struct SuiteEntries {
  std::vector<const ConfiguredHook*> guards, writers, starts;
};

SuiteEntries suite_entries(const std::vector<ConfiguredHook>& hooks, const AgentCli& agent) {
  SuiteEntries entries;
  for (const ConfiguredHook& hook : hooks) {
    const SuiteHook* suite = suite_hook_of_command(hook.command, hook.event, agent);
    if (suite == nullptr) continue;
    (suite->role == HookRole::pre_tool    ? entries.guards
     : suite->role == HookRole::post_tool ? entries.writers
                                          : entries.starts)
        .push_back(&hook);
  }
  return entries;
}

// The tools that must be guarded: every dispatch tool a guard entry names (the dispatch tool
// first; it alone when no guard names one), and --tool's, which add to them (a team that names
// its own tool keeps the default checked).
std::vector<std::string> required_tools(const CheckOptions& options,
                                        const std::vector<const ConfiguredHook*>& guards) {
  const AgentCli& agent = *options.agent;
  std::vector<std::string> required;
  for (const ConfiguredHook* guard : guards) {
    if (matcher_covers_tool(guard->matcher, kDispatchToolName, agent) &&
        !contains(required, kDispatchToolName))
      required.insert(required.begin(), std::string(kDispatchToolName));
    for (const std::string& tool : command_tools(guard->parsed.arguments)) {
      if (matcher_covers_tool(guard->matcher, tool, agent) && !contains(required, tool))
        required.push_back(tool);
    }
  }
  if (required.empty()) required.emplace_back(kDispatchToolName);
  for (const std::string& tool : options.tools) {
    if (!contains(required, tool)) required.push_back(tool);
  }
  return required;
}

// What one resume-guard entry says about the wiring, and the required tools it guards.
struct GuardCheck {
  std::vector<Finding> findings;
  std::vector<std::string> guarded;
};

// A resume-guard entry on its own: its findings, whether its binary is on this machine, and
// whether a finding breaks it (a missing binary that blocks does not: the entry fails closed).
struct GuardEntry {
  std::vector<Finding> findings;
  bool present = false;
  bool broken = false;
};

GuardEntry guard_entry(const ConfiguredHook& guard, const CheckOptions& options) {
  const AgentCli& agent = *options.agent;
  GuardEntry entry;
  entry.findings = entry_findings(guard, "the resume-guard hook", Severity::error, agent);
  const std::optional<Finding> missing =
      binary_missing(guard, "resume-guard", true, options.project_dir, agent);
  entry.present = !missing;
  if (missing) entry.findings.push_back(*missing);
  if (auto inside =
          runs_from_project(guard, "resume-guard", Severity::error, options.project_dir, agent))
    entry.findings.push_back(std::move(*inside));
  if (entry.present && guard.parsed.guarded &&
      guard.parsed.exit_if_missing != exit_status::hook_blocks) {
    entry.findings.push_back(
        {"guard-fail-open", Severity::warning,
         "the resume-guard hook lets the dispatch tool run unguarded on a "
         "machine without resume-guard (installed with --fail-open-if-missing)",
         guard.file});
  }
  for (const Finding& f : entry.findings) {
    const bool blocking_missing =
        f.rule == "binary-missing" && guard.parsed.exit_if_missing == exit_status::hook_blocks;
    if (f.severity == Severity::error && !blocking_missing) entry.broken = true;
  }
  return entry;
}

GuardCheck check_guard(const ConfiguredHook& guard, const CheckOptions& options,
                       const std::vector<std::string>& required) {
  const AgentCli& agent = *options.agent;
  GuardEntry entry = guard_entry(guard, options);
  const bool present = entry.present;
  GuardCheck check;
  check.findings = std::move(entry.findings);
  const std::string probe_tool = entry_tools(guard).front();
  const ForgeryOutcome forgery = run_forgery(guard, probe_tool, options.project_dir, agent);
  if (!forgery.blocked) {
    if (present || guard.parsed.exit_if_missing == exit_status::hook_blocks) {
      check.findings.push_back({"guard-does-not-deny", Severity::error,
                                "the resume-guard hook '" + guard.command +
                                    "' did not deny a forged self-resume through " + probe_tool +
                                    " (" + forgery.detail + ")",
                                guard.file});
    }
    return check;
  }
  if (present && forgery.blocked_by_wrapper) {
    std::string said = forgery.blocked_by_wrapper->substr(0, 600);
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    check.findings.push_back({"binary-missing", Severity::error,
                              "resume-guard cannot run on this machine, so its hook blocks every "
                              "call of the dispatch tool here (exit 2); it says: " +
                                  said,
                              guard.file});
  }
  if (entry.broken) return check;
  for (const std::string& tool : required) {
    if (matcher_covers_tool(guard.matcher, tool, agent) && binary_acts_on(guard, tool))
      check.guarded.push_back(tool);
  }
  return check;
}

// A guard-missing finding for each required tool no working entry guards.
std::vector<Finding> unguarded_tools(const CheckOptions& options,
                                     const std::vector<const ConfiguredHook*>& guards,
                                     const std::vector<std::string>& required,
                                     const std::set<std::string>& guarded) {
  const AgentCli& agent = *options.agent;
  std::vector<Finding> findings;
  for (const std::string& tool : required) {
    if (guarded.contains(tool)) continue;
    std::string why;
    for (const ConfiguredHook* guard : guards) {
      if (matcher_covers_tool(guard->matcher, tool, agent) && !binary_acts_on(*guard, tool)) {
        why = "; a resume-guard hook's matcher selects " + tool + " but its command lacks --tool " +
              tool + ", so the guard ignores it";
      }
    }
    findings.push_back({"guard-missing", Severity::error,
                        "no correctly configured " + std::string(agent.pre_tool_event) +
                            " hook runs resume-guard for " + tool + " and " +
                            mcp_tool_name("<server>", tool, agent) + why + "; run " +
                            install_hint(options.project_dir, required, agent),
                        ""});
  }
  return findings;
}

// The plugin and the settings entries both wired: every dispatch runs the guard twice (and
// the writer records twice); one of them is enough.
std::optional<Finding> wired_twice(const std::vector<const ConfiguredHook*>& guards,
                                   const std::vector<std::string>& required,
                                   const AgentCli& agent) {
  for (const std::string& tool : required) {
    const ConfiguredHook* from_settings = nullptr;
    const ConfiguredHook* from_plugin = nullptr;
    for (const ConfiguredHook* guard : guards) {
      if (!matcher_covers_tool(guard->matcher, tool, agent) || !binary_acts_on(*guard, tool))
        continue;
      (guard->plugin_root.empty() ? from_settings : from_plugin) = guard;
    }
    if (from_settings == nullptr || from_plugin == nullptr) continue;
    return Finding{"guard-wired-twice", Severity::warning,
                   "resume-guard runs twice for " + tool + ": from the settings entry in " +
                       from_settings->file + " and from the fleet-hooks plugin (" +
                       from_plugin->plugin_root +
                       "). Use the plugin or the settings entries, not both: `fleet-hooks "
                       "uninstall` removes the entries, or stop enabling the plugin",
                   from_settings->file};
  }
  return std::nullopt;
}

std::vector<Finding> writer_findings(const std::vector<const ConfiguredHook*>& writers,
                                     const CheckOptions& options) {
  const AgentCli& agent = *options.agent;
  std::vector<Finding> findings;
  if (writers.empty()) {
    findings.push_back({"writer-missing", Severity::warning,
                        "no " + std::string(agent.post_tool_event) +
                            " hook runs provenance-writer; dispatches are recorded only if the "
                            "dispatcher records them (launch-wrapper --record-provenance)",
                        ""});
  }
  for (const ConfiguredHook* writer : writers) {
    const std::vector<Finding> own =
        entry_findings(*writer, "the provenance-writer hook", Severity::warning, agent);
    findings.insert(findings.end(), own.begin(), own.end());
    if (auto missing =
            binary_missing(*writer, "provenance-writer", false, options.project_dir, agent))
      findings.push_back(std::move(*missing));
    if (auto inside = runs_from_project(*writer, "provenance-writer", Severity::warning,
                                        options.project_dir, agent))
      findings.push_back(std::move(*inside));
  }
  return findings;
}

std::optional<Finding> store_finding(const CheckOptions& options) {
  try {
    return store_unsafe(
        provenance_store_path(state_dir_for_project(options.state_dir, options.project_dir)));
  } catch (const Error& e) {
    return Finding{"store-unsafe", Severity::error, e.what(), ""};
  }
}

void append(std::vector<Finding>& to, std::vector<Finding> more) {
  to.insert(to.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

// `options.agent` wired through a host's project file that it also runs (GitHub Copilot CLI
// through Claude Code's .claude/settings.json): that file's check as its own CLI reads it,
// and `options.agent`'s trust of its hooks; nullopt when no host's file holds a guard.
std::optional<CheckResult> check_through_host(const CheckOptions& options) {
  for (const AgentCli* host : options.hosts) {
    CheckOptions through;
    through.project_dir = options.project_dir;
    through.state_dir = options.state_dir;
    through.tools = options.tools;
    through.agent = host;
    const HookSources collected = collect_hooks(hook_source_options(through));
    const SuiteEntries entries = suite_entries(collected.hooks, *host);
    if (entries.guards.empty()) continue;
    CheckResult result = check_wiring(through);
    append(result.findings, trust_findings(entries.guards, entries.writers, {}, options));
    return result;
  }
  return std::nullopt;
}

}  // namespace

CheckResult check_wiring(const CheckOptions& options) {
  const AgentCli& agent = *options.agent;
  if (wired_by_plugin(agent)) {  // the suite's plugin file, not hook entries (OpenCode)
    PluginCheck plugin = check_plugin(options.project_dir, agent, options.tools);
    append(plugin.findings,
           switch_off_findings(agent, options.project_dir, {}, options.config_home));
    if (auto unsafe = store_finding(options)) plugin.findings.push_back(std::move(*unsafe));
    return {std::move(plugin.findings), std::move(plugin.checked_tools)};
  }
  const HookSourceOptions sources = hook_source_options(options);
  HookSources collected = collect_hooks(sources);
  std::vector<Finding> findings = std::move(collected.findings);
  append(findings, switch_off_findings(agent, options.project_dir, sources.settings_files,
                                       options.config_home));
  const SuiteEntries entries = suite_entries(collected.hooks, agent);
  if (entries.guards.empty()) {
    if (std::optional<CheckResult> through = check_through_host(options)) return *through;
  }
  std::vector<std::string> required = required_tools(options, entries.guards);

  std::set<std::string> guarded;
  for (const ConfiguredHook* guard : entries.guards) {
    GuardCheck check = check_guard(*guard, options, required);
    append(findings, std::move(check.findings));
    guarded.insert(check.guarded.begin(), check.guarded.end());
  }
  append(findings, unguarded_tools(options, entries.guards, required, guarded));
  if (auto twice = wired_twice(entries.guards, required, agent)) findings.push_back(*twice);
  append(findings, writer_findings(entries.writers, options));
  append(findings, session_start_findings(entries.starts, options));
  append(findings, trust_findings(entries.guards, entries.writers, entries.starts, options));
  if (auto unsafe = store_finding(options)) findings.push_back(std::move(*unsafe));
  return {std::move(findings), std::move(required)};
}

std::vector<Finding> trust_findings(const CheckOptions& options) {
  if (wired_by_plugin(*options.agent)) return {};  // no trust gate for a plugin
  const HookSources collected = collect_hooks(hook_source_options(options));
  const SuiteEntries entries = suite_entries(collected.hooks, *options.agent);
  return trust_findings(entries.guards, entries.writers, entries.starts, options);
}

bool suite_wired(const CheckOptions& options) {
  if (wired_by_plugin(*options.agent)) return plugin_present(options.project_dir, *options.agent);
  const HookSources collected = collect_hooks(hook_source_options(options));
  const SuiteEntries entries = suite_entries(collected.hooks, *options.agent);
  return !entries.guards.empty() || !entries.writers.empty() || !entries.starts.empty();
}

}  // namespace fleet
