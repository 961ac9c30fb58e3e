#include "settings/hook_wiring.h"

#include <algorithm>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/json.h"
#include "base/word_list.h"
#include "hook/tool_names.h"
#include "settings/matcher.h"

namespace fleet {
namespace {

using rapidjson::Value;

struct Found {
  Value* group;
  Value* entry;
};

void check_shape(const Value& settings, const AgentCli& agent) {
  const Value* hooks = member(settings, "hooks");
  if (hooks == nullptr) return;
  if (!hooks->IsObject()) throw Error("\"hooks\" is not an object; fix the settings file first");
  for (const SuiteHook* hook : suite_hooks_for(agent)) {
    const std::string event = suite_hook_event(*hook, agent);
    const Value* groups = member(*hooks, event.c_str());
    if (groups != nullptr && !groups->IsArray()) {
      throw Error("\"hooks\".\"" + event + "\" is not a list; fix the settings file first");
    }
  }
}

void set_member(Value& object, const char* key, Value value,
                rapidjson::Document::AllocatorType& alloc) {
  if (object.HasMember(key)) {
    object[key] = value;
  } else {
    object.AddMember(Value(key, alloc), value, alloc);
  }
}

Value* entries_of(Value& group) {
  Value* entries = group.IsObject() ? const_cast<Value*>(member(group, "hooks")) : nullptr;
  return entries != nullptr && entries->IsArray() ? entries : nullptr;
}

bool only_suite_entries(Value& group, std::string_view event, const AgentCli& agent) {
  Value* entries = entries_of(group);
  if (entries == nullptr) return false;
  for (const auto& entry : entries->GetArray()) {
    const auto command = string_member(entry, "command");
    if (!command || suite_hook_of_command(*command, event, agent) == nullptr) return false;
  }
  return true;
}

std::string group_matcher(const Value& group) {
  return std::string(string_member(group, "matcher").value_or(""));
}

// Removes suite entries of `event` from `groups`; drops groups that this left empty.
int remove_suite_entries(Value& groups, std::string_view event, const AgentCli& agent) {
  int removed = 0;
  for (auto group = groups.Begin(); group != groups.End();) {
    Value* entries = entries_of(*group);
    bool emptied = false;
    if (entries != nullptr) {
      for (auto entry = entries->Begin(); entry != entries->End();) {
        const auto command = string_member(*entry, "command");
        if (command && suite_hook_of_command(*command, event, agent) != nullptr) {
          entry = entries->Erase(entry);
          ++removed;
          emptied = entries->Empty();
        } else {
          ++entry;
        }
      }
    }
    group = emptied ? groups.Erase(group) : group + 1;
  }
  return removed;
}

// The refusal when a suite entry's own matcher misses `tool` and install may not rewrite it:
// what to do by hand is `fix`; nothing was changed.
Error own_matcher_misses(const SuiteHook& hook, const AgentCli& agent, const std::string& matcher,
                         const std::string& tool, const std::string& fix) {
  return Error(std::string("the ") + hook.executable + " entry in \"hooks\".\"" +
               suite_hook_event(hook, agent) + "\" has its own matcher '" + matcher +
               "', which does not select " + tool + " and " +
               mcp_tool_name("<server>", tool, agent) + "; " + fix +
               " by hand, or remove the entry and run install again (nothing was changed)");
}

// The refusal when a guard entry's own matcher (one install may not rewrite) is one that
// `fleet-hooks check` refuses: `fault` says why; nothing was changed.
Error own_matcher_refused(const SuiteHook& hook, const AgentCli& agent, const std::string& matcher,
                          const MatcherFault& fault, bool shared) {
  return Error(std::string("the ") + hook.executable + " entry in \"hooks\".\"" +
               suite_hook_event(hook, agent) + "\" has its own matcher '" + matcher + "'" +
               (shared ? " (in a group with other hooks)" : "") +
               ", which fleet-hooks check refuses (" + fault.rule + "): it" + fault.problem +
               "; change it by hand, or remove the entry and run install again (nothing was "
               "changed)");
}

// Installing one of the suite's hooks into "hooks": its existing entries found, the tools
// asked for added, each entry settled as check wants it; or a new entry where there is none.
// What it changed beyond locating the executable goes to `notes`.
class HookInstall {
 public:
  HookInstall(Value& hooks, const SuiteHook& hook, const WiringOptions& options,
              rapidjson::Document::AllocatorType& alloc, std::vector<std::string>& notes)
      : hooks_(hooks),
        hook_(hook),
        options_(options),
        agent_(*options.agent),
        event_(suite_hook_event(hook, agent_)),
        alloc_(alloc),
        notes_(notes) {}

  void run() {
    if (member(hooks_, event_.c_str()) == nullptr) {
      hooks_.AddMember(json_string(event_, alloc_), Value(rapidjson::kArrayType), alloc_);
    }
    Value& groups = hooks_[event_.c_str()];
    for (auto& group : groups.GetArray()) {
      Value* entries = entries_of(group);
      if (entries == nullptr) continue;
      for (auto& entry : entries->GetArray()) {
        const auto command = string_member(entry, "command");
        if (command && suite_hook_of_command(*command, event_, agent_) != nullptr) {
          found_.push_back({&group, &entry});
          // Each existing entry keeps its arguments; what locates the executable is rewritten.
          arguments_.push_back(parse_hook_command(*command).value_or(HookCommand{}).arguments);
        }
      }
    }
    if (found_.empty()) {
      add_entry(groups);
      return;
    }
    if (hook_.role == HookRole::session_start) {  // its matcher is the session's source
      for (std::size_t i = 0; i < found_.size(); ++i) settle_entry(i);
      return;
    }
    for (const std::string& tool : options_.tools) add_tool(tool);
    for (std::size_t i = 0; i < found_.size(); ++i) settle_matcher(i);
    if (is_guard()) {
      for (std::size_t i = 0; i < found_.size(); ++i) refuse_faulty_guard(i);
    }
    for (std::size_t i = 0; i < found_.size(); ++i) settle_entry(i);
    // A user's own entry whose matcher misses the dispatch tool would leave it unguarded while
    // install says it is wired: refuse instead (the caller writes nothing).
    const bool dispatch_covered = std::any_of(found_.begin(), found_.end(), [&](const Found& f) {
      return matcher_covers_tool(group_matcher(*f.group), kDispatchToolName, agent_);
    });
    if (!dispatch_covered) {
      throw own_matcher_misses(hook_, agent_, group_matcher(*found_.front().group),
                               std::string(kDispatchToolName),
                               "set it to " + dispatch_matcher({}, agent_));
    }
  }

 private:
  bool is_guard() const { return hook_.role == HookRole::pre_tool; }

  HookCommand located() const {
    HookCommand command;
    command.executable = options_.bin_dir.empty()
                             ? hook_.executable
                             : shell_quote(options_.bin_dir + "/" + hook_.executable);
    command.guarded = true;
    command.project_variable = agent_.project_dir_variable;
    command.exit_if_missing = is_guard() && !options_.fail_open_if_missing
                                  ? exit_status::hook_blocks
                                  : exit_status::hook_warns;
    return command;
  }

  // `arguments` with `--agent NAME` for a CLI other than Claude Code (whose dialect is the
  // default), unless they name an agent already.
  std::string with_agent(std::string arguments) const {
    if (agent_.is_default) return arguments;
    for (const std::string& word : shell_words(arguments))
      if (word == "--agent" || word.starts_with("--agent=")) return arguments;
    return arguments + " --agent " + std::string(agent_.name);
  }

  int timeout_value(int seconds) const { return hook_timeout_value(agent_, seconds); }

  void add_entry(Value& groups) {
    HookCommand fresh = located();
    fresh.arguments = with_agent(hook_.arguments);
    if (hook_.role != HookRole::session_start) {
      for (const std::string& tool : options_.tools)
        fresh.arguments += " --tool " + shell_quote(tool);
    }
    Value entry(rapidjson::kObjectType);
    if (agent_.names_hook_entries)
      entry.AddMember("name", json_string(suite_hook_name(hook_), alloc_), alloc_);
    entry.AddMember("type", "command", alloc_);
    entry.AddMember(
        "command",
        json_string(format_hook_command(fresh, hook_.executable, agent_.display_name), alloc_),
        alloc_);
    entry.AddMember("timeout", timeout_value(kHookTimeoutSeconds), alloc_);
    const std::string matcher = hook_.role == HookRole::session_start
                                    ? std::string(agent_.session_start.matcher)
                                    : dispatch_matcher(options_.tools, agent_);
    Value group(rapidjson::kObjectType);
    group.AddMember("matcher", json_string(matcher, alloc_), alloc_);
    group.AddMember("hooks", Value(rapidjson::kArrayType), alloc_);
    group["hooks"].PushBack(entry, alloc_);
    groups.PushBack(group, alloc_);
  }

  // Rewrites the matcher of `group` from the tools its entries act on (dispatch_food_truck,
  // their --tool names, and `tool`), in the order of its old names where it had them; a note
  // names the old names dropped (tools the suite's hooks do nothing for). False, unchanged,
  // when the matcher is not install's to rewrite: the group holds other hooks too, or the
  // matcher is not a list of names.
  bool rewrite_from_names(Value& group, const std::string& tool = "") {
    const std::string matcher = group_matcher(group);
    const auto names = matcher_names(matcher, agent_);
    if (!names || !only_suite_entries(group, event_, agent_)) return false;
    std::vector<std::string> acted_on = {std::string(kDispatchToolName)};
    for (std::size_t i = 0; i < found_.size(); ++i) {
      if (found_[i].group != &group) continue;
      for (const std::string& name : tools_acted_on(arguments_[i]))
        if (!contains(acted_on, name)) acted_on.push_back(name);
    }
    if (!tool.empty() && !contains(acted_on, tool)) acted_on.push_back(tool);
    std::vector<std::string> kept, dropped;
    for (const std::string& name : *names) {
      std::vector<std::string>& into = contains(acted_on, name) ? kept : dropped;
      if (!contains(into, name)) into.push_back(name);
    }
    for (const std::string& name : acted_on)
      if (!contains(kept, name)) kept.push_back(name);
    const std::string rewritten = dispatch_matcher(kept, agent_);
    if (rewritten == matcher) return true;
    // A name the rewritten matcher still selects (an MCP form of a kept tool) is not dropped.
    std::erase_if(dropped,
                  [&](const std::string& name) { return matcher_matches(rewritten, name); });
    set_member(group, "matcher", json_string(rewritten, alloc_), alloc_);
    if (!dropped.empty()) {
      std::string list;
      for (const std::string& name : dropped) list += (list.empty() ? "" : ", ") + name;
      notes_.push_back("dropped " + list + " from the matcher of the " + hook_.executable +
                       " entry in \"hooks\".\"" + event_ + "\": '" + matcher + "' is now '" +
                       rewritten + "' (" + hook_.executable +
                       " acts only on dispatch_food_truck and the tools named with --tool; to "
                       "guard another dispatch tool, run install with --tool NAME)");
    }
    return true;
  }

  // The tool asked for: covered by an entry whose matcher selects the tool and whose
  // arguments name it; else added to the first entry whose matcher selects it or whose
  // matcher the suite may rewrite.
  void add_tool(const std::string& tool) {
    std::size_t target = found_.size();
    for (std::size_t i = 0; i < found_.size(); ++i) {
      if (!matcher_covers_tool(group_matcher(*found_[i].group), tool, agent_)) continue;
      if (contains(command_tools(arguments_[i]), tool)) return;
      if (target == found_.size()) target = i;
    }
    if (target == found_.size()) {
      target = 0;
      if (!rewrite_from_names(*found_[target].group, tool)) {
        throw own_matcher_misses(hook_, agent_, group_matcher(*found_[target].group), tool,
                                 "add " + tool + " to that matcher");
      }
    }
    arguments_[target] += " --tool " + shell_quote(tool);
  }

  // The matcher of entry `i`'s group without faults where install may rewrite it: an old
  // plain matcher ("dispatch_food_truck") misses the MCP form, a hand-written one may miss
  // dispatch_food_truck or name tools the suite's hooks do nothing for.
  void settle_matcher(std::size_t i) {
    Value& group = *found_[i].group;
    const std::string matcher = group_matcher(group);
    if (!matcher_faults(matcher, arguments_[i], agent_).empty() ||
        !matcher_covers_tool(matcher, kDispatchToolName, agent_))
      rewrite_from_names(group);
  }

  // Refuses a guard entry whose matcher check refuses (one of the user's own, or one that
  // serves entries acting on different tools): the user must change it.
  void refuse_faulty_guard(std::size_t i) const {
    Value& group = *found_[i].group;
    const std::string matcher = group_matcher(group);
    const std::vector<MatcherFault> faults = matcher_faults(matcher, arguments_[i], agent_);
    if (faults.empty()) return;
    std::vector<std::string> meant = command_tools(arguments_[i]);
    if (meant.empty()) meant.emplace_back(kDispatchToolName);
    for (const std::string& tool : meant) {
      if (!matcher_covers_tool(matcher, tool, agent_))
        throw own_matcher_misses(
            hook_, agent_, matcher, tool,
            "set it to " + dispatch_matcher(command_tools(arguments_[i]), agent_));
    }
    throw own_matcher_refused(hook_, agent_, matcher, faults.front(),
                              !only_suite_entries(group, event_, agent_));
  }

  // Entry `i` with what locates the executable rewritten, its type "command", and a guard's
  // timeout of at least kMinHookTimeoutSeconds.
  void settle_entry(std::size_t i) {
    Value& entry = *found_[i].entry;
    HookCommand command = located();
    command.arguments = with_agent(arguments_[i]);
    if (agent_.names_hook_entries && !entry.HasMember("name"))
      entry.AddMember("name", json_string(suite_hook_name(hook_), alloc_), alloc_);
    set_member(
        entry, "command",
        json_string(format_hook_command(command, hook_.executable, agent_.display_name), alloc_),
        alloc_);
    if (const std::optional<std::string_view> type = string_member(entry, "type");
        type != "command") {
      notes_.push_back("the " + std::string(hook_.executable) + " entry's type " +
                       (entry.HasMember("type") ? to_json(entry["type"]) : std::string("(none)")) +
                       " is now \"command\": " + std::string(agent_.display_name) +
                       " runs only entries of type \"command\" as commands");
      set_member(entry, "type", Value("command"), alloc_);
    }
    const Value* timeout = member(entry, "timeout");
    const int wanted = timeout_value(kHookTimeoutSeconds);
    const bool in_ms = agent_.timeout_unit == TimeoutUnit::milliseconds;
    if (timeout == nullptr) {
      set_member(entry, "timeout", Value(wanted), alloc_);
    } else if (is_guard() && (!timeout->IsNumber() ||
                              timeout->GetDouble() < timeout_value(kMinHookTimeoutSeconds))) {
      notes_.push_back("the " + std::string(hook_.executable) + " entry's timeout " +
                       to_json(*timeout) + " is now " + std::to_string(wanted) +
                       (in_ms ? " (milliseconds)" : " (seconds)") + ": under " +
                       std::to_string(kMinHookTimeoutSeconds) + " s, or not a number, " +
                       std::string(agent_.display_name) +
                       " may cancel the guard and run the dispatch unguarded");
      set_member(entry, "timeout", Value(wanted), alloc_);
    }
  }

  Value& hooks_;
  const SuiteHook& hook_;
  const WiringOptions& options_;
  const AgentCli& agent_;
  const std::string event_;
  rapidjson::Document::AllocatorType& alloc_;
  std::vector<std::string>& notes_;
  std::vector<Found> found_;
  std::vector<std::string> arguments_;
};

}  // namespace

std::vector<const SuiteHook*> suite_hooks_for(const AgentCli& agent) {
  std::vector<const SuiteHook*> hooks;
  for (const SuiteHook& hook : kSuiteHooks) hooks.push_back(&hook);
  if (!agent.session_start.matcher.empty()) hooks.push_back(&kSessionStartHook);
  return hooks;
}

std::string suite_hook_event(const SuiteHook& hook, const AgentCli& agent) {
  switch (hook.role) {
    case HookRole::pre_tool:
      return std::string(agent.pre_tool_event);
    case HookRole::post_tool:
      return std::string(agent.post_tool_event);
    case HookRole::session_start:
      return std::string(agent.session_start.event);
  }
  return "";
}

std::string suite_hook_name(const SuiteHook& hook) {
  return std::string("fleet-hooks ") + hook.executable +
         (hook.role == HookRole::session_start ? " session-start" : "");
}

const SuiteHook* suite_hook_of_command(std::string_view command, std::string_view event,
                                       const AgentCli& agent) {
  const std::optional<std::string> name = command_executable_name(command);
  if (!name) return nullptr;
  for (const SuiteHook* hook : suite_hooks_for(agent)) {
    if (event == suite_hook_event(*hook, agent) && name == hook->executable) return hook;
  }
  return nullptr;
}

std::vector<std::string> install_suite_hooks(rapidjson::Document& settings,
                                             const WiringOptions& options) {
  check_shape(settings, *options.agent);
  for (const std::string& tool : options.tools) {
    if (!is_valid_tool_name(tool))
      throw Error("'" + tool + "' is not a tool name (letters, digits, _ and - only)");
  }
  // Worked on a copy, so a refusal leaves `settings` as it was.
  rapidjson::Document work;
  work.CopyFrom(settings, work.GetAllocator());
  auto& alloc = work.GetAllocator();
  if (member(work, "hooks") == nullptr)
    work.AddMember("hooks", Value(rapidjson::kObjectType), alloc);
  std::vector<std::string> notes;
  for (const SuiteHook* hook : suite_hooks_for(*options.agent))
    HookInstall(work["hooks"], *hook, options, alloc, notes).run();
  settings.Swap(work);
  return notes;
}

int uninstall_suite_hooks(rapidjson::Document& settings, const AgentCli& agent) {
  Value* hooks = const_cast<Value*>(member(settings, "hooks"));
  if (hooks == nullptr || !hooks->IsObject()) return 0;
  int removed = 0;
  for (const SuiteHook* hook : suite_hooks_for(agent)) {
    const std::string event = suite_hook_event(*hook, agent);
    Value* groups = const_cast<Value*>(member(*hooks, event.c_str()));
    if (groups == nullptr || !groups->IsArray()) continue;
    const int here = remove_suite_entries(*groups, event, agent);
    removed += here;
    if (here > 0 && groups->Empty()) hooks->EraseMember(event.c_str());
  }
  if (removed > 0 && hooks->ObjectEmpty()) settings.EraseMember("hooks");
  return removed;
}

}  // namespace fleet
