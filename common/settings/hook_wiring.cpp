#include "settings/hook_wiring.h"

#include <algorithm>
#include <optional>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/json.h"
#include "hook/tool_names.h"
#include "settings/matcher.h"

namespace fleet {
namespace {

using rapidjson::Value;
constexpr std::string_view kMcpPrefix = "^(mcp__.*__)?";

struct Found {
  Value* group;
  Value* entry;
};

void check_shape(const Value& settings) {
  const Value* hooks = member(settings, "hooks");
  if (hooks == nullptr) return;
  if (!hooks->IsObject()) throw Error("\"hooks\" is not an object; fix the settings file first");
  for (const SuiteHook& hook : kSuiteHooks) {
    const Value* groups = member(*hooks, hook.event);
    if (groups != nullptr && !groups->IsArray()) {
      throw Error(std::string("\"hooks\".\"") + hook.event +
                  "\" is not a list; fix the settings file first");
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

// The tool names a matcher the suite could have written lists: "^(mcp__.*__)?NAME$",
// "^(mcp__.*__)?(A|B)$", or plain names "A|B". nullopt for anything else.
std::optional<std::vector<std::string>> matcher_names(std::string_view matcher) {
  std::string_view list = matcher;
  if (matcher.starts_with(kMcpPrefix) && matcher.ends_with("$")) {
    list = matcher.substr(kMcpPrefix.size(), matcher.size() - kMcpPrefix.size() - 1);
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

bool only_suite_entries(Value& group, std::string_view event) {
  Value* entries = entries_of(group);
  if (entries == nullptr) return false;
  for (const auto& entry : entries->GetArray()) {
    const auto command = string_member(entry, "command");
    if (!command || suite_hook_of_command(*command, event) == nullptr) return false;
  }
  return true;
}

std::string group_matcher(const Value& group) {
  return std::string(string_member(group, "matcher").value_or(""));
}

// Removes suite entries of `event` from `groups`; drops groups that this left empty.
int remove_suite_entries(Value& groups, std::string_view event) {
  int removed = 0;
  for (auto group = groups.Begin(); group != groups.End();) {
    Value* entries = entries_of(*group);
    bool emptied = false;
    if (entries != nullptr) {
      for (auto entry = entries->Begin(); entry != entries->End();) {
        const auto command = string_member(*entry, "command");
        if (command && suite_hook_of_command(*command, event) != nullptr) {
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
Error own_matcher_misses(const SuiteHook& hook, const std::string& matcher, const std::string& tool,
                         const std::string& fix) {
  return Error(std::string("the ") + hook.executable + " entry in \"hooks\".\"" + hook.event +
               "\" has its own matcher '" + matcher + "', which does not select " + tool +
               " and mcp__<server>__" + tool + "; " + fix +
               " by hand, or remove the entry and run install again (nothing was changed)");
}

void install_hook(Value& hooks, const SuiteHook& hook, const WiringOptions& options,
                  rapidjson::Document::AllocatorType& alloc) {
  if (member(hooks, hook.event) == nullptr) {
    hooks.AddMember(Value(hook.event, alloc), Value(rapidjson::kArrayType), alloc);
  }
  Value& groups = hooks[hook.event];
  const bool is_guard = std::string_view(hook.executable) == "resume-guard";
  HookCommand located;
  located.executable = options.bin_dir.empty()
                           ? hook.executable
                           : shell_quote(options.bin_dir + "/" + hook.executable);
  located.guarded = true;
  located.exit_if_missing = is_guard && !options.fail_open_if_missing ? exit_status::hook_blocks
                                                                      : exit_status::hook_warns;

  std::vector<Found> found;
  for (auto& group : groups.GetArray()) {
    Value* entries = entries_of(group);
    if (entries == nullptr) continue;
    for (auto& entry : entries->GetArray()) {
      const auto command = string_member(entry, "command");
      if (command && suite_hook_of_command(*command, hook.event) != nullptr)
        found.push_back({&group, &entry});
    }
  }
  if (found.empty()) {
    HookCommand fresh = located;
    fresh.arguments = hook.arguments;
    for (const std::string& tool : options.tools) fresh.arguments += " --tool " + shell_quote(tool);
    Value entry(rapidjson::kObjectType);
    entry.AddMember("type", "command", alloc);
    entry.AddMember("command", json_string(format_hook_command(fresh, hook.executable), alloc),
                    alloc);
    entry.AddMember("timeout", kHookTimeoutSeconds, alloc);
    Value group(rapidjson::kObjectType);
    group.AddMember("matcher", json_string(dispatch_matcher(options.tools), alloc), alloc);
    group.AddMember("hooks", Value(rapidjson::kArrayType), alloc);
    group["hooks"].PushBack(entry, alloc);
    groups.PushBack(group, alloc);
    return;
  }

  // Each existing entry keeps its arguments; what locates the executable is rewritten.
  std::vector<std::string> arguments;
  for (const Found& f : found) {
    arguments.push_back(parse_hook_command(string_member(*f.entry, "command").value_or(""))
                            .value_or(HookCommand{})
                            .arguments);
  }
  // The tools asked for: covered by an entry whose matcher selects the tool and whose
  // arguments name it; else added to the first entry whose matcher the suite may rewrite.
  for (const std::string& tool : options.tools) {
    bool covered = false;
    for (std::size_t i = 0; i < found.size() && !covered; ++i) {
      const auto tools = command_tools(arguments[i]);
      covered = matcher_covers_tool(group_matcher(*found[i].group), tool) &&
                std::find(tools.begin(), tools.end(), tool) != tools.end();
    }
    if (covered) continue;
    std::size_t target = 0;
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (matcher_covers_tool(group_matcher(*found[i].group), tool)) {
        target = i;
        break;
      }
    }
    Value& group = *found[target].group;
    const std::string matcher = group_matcher(group);
    if (!matcher_covers_tool(matcher, tool)) {
      const auto names = matcher_names(matcher);
      if (!names || !only_suite_entries(group, hook.event)) {
        throw own_matcher_misses(hook, matcher, tool, "add " + tool + " to that matcher");
      }
      std::vector<std::string> extra;
      for (const std::string& name : *names) {
        if (name != kDispatchToolName) extra.push_back(name);
      }
      extra.push_back(tool);
      set_member(group, "matcher", json_string(dispatch_matcher(extra), alloc), alloc);
    }
    const auto tools = command_tools(arguments[target]);
    if (std::find(tools.begin(), tools.end(), tool) == tools.end())
      arguments[target] += " --tool " + shell_quote(tool);
  }
  for (std::size_t i = 0; i < found.size(); ++i) {
    Value& group = *found[i].group;
    // An old plain matcher ("dispatch_food_truck") misses the MCP form: the suite's own
    // group gets the anchored form of the same names.
    const std::string matcher = group_matcher(group);
    if (!matcher_covers_tool(matcher, kDispatchToolName) && only_suite_entries(group, hook.event)) {
      if (const auto names = matcher_names(matcher)) {
        std::vector<std::string> extra;
        for (const std::string& name : *names) {
          if (name != kDispatchToolName) extra.push_back(name);
        }
        set_member(group, "matcher", json_string(dispatch_matcher(extra), alloc), alloc);
      }
    }
    HookCommand command = located;
    command.arguments = arguments[i];
    set_member(*found[i].entry, "command",
               json_string(format_hook_command(command, hook.executable), alloc), alloc);
    if (!found[i].entry->HasMember("type"))
      set_member(*found[i].entry, "type", Value("command"), alloc);
    if (!found[i].entry->HasMember("timeout"))
      set_member(*found[i].entry, "timeout", Value(kHookTimeoutSeconds), alloc);
  }
  // A user's own entry whose matcher misses the dispatch tool would leave it unguarded while
  // install says it is wired: refuse instead (the caller writes nothing).
  const bool dispatch_covered = std::any_of(found.begin(), found.end(), [](const Found& f) {
    return matcher_covers_tool(group_matcher(*f.group), kDispatchToolName);
  });
  if (!dispatch_covered) {
    throw own_matcher_misses(hook, group_matcher(*found.front().group),
                             std::string(kDispatchToolName), "set it to " + dispatch_matcher({}));
  }
}

}  // namespace

std::string dispatch_matcher(const std::vector<std::string>& tools) {
  std::vector<std::string> names = {std::string(kDispatchToolName)};
  for (const std::string& tool : tools) {
    if (std::find(names.begin(), names.end(), tool) == names.end()) names.push_back(tool);
  }
  if (names.size() == 1) return std::string(kMcpPrefix) + names[0] + "$";
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : "|") + name;
  return std::string(kMcpPrefix) + "(" + list + ")$";
}

bool matcher_covers_tool(std::string_view matcher, std::string_view tool) {
  const std::string name(tool);
  return matcher_matches(matcher, name) && matcher_matches(matcher, "mcp__kitchen__" + name) &&
         matcher_matches(matcher, "mcp__other_server__" + name);
}

const SuiteHook* suite_hook_of_command(std::string_view command, std::string_view event) {
  const std::string name = command_executable_name(command);
  for (const SuiteHook& hook : kSuiteHooks) {
    if (event == hook.event && name == hook.executable) return &hook;
  }
  return nullptr;
}

void install_suite_hooks(rapidjson::Document& settings, const WiringOptions& options) {
  check_shape(settings);
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
  for (const SuiteHook& hook : kSuiteHooks) install_hook(work["hooks"], hook, options, alloc);
  settings.Swap(work);
}

int uninstall_suite_hooks(rapidjson::Document& settings) {
  Value* hooks = const_cast<Value*>(member(settings, "hooks"));
  if (hooks == nullptr || !hooks->IsObject()) return 0;
  int removed = 0;
  for (const SuiteHook& hook : kSuiteHooks) {
    Value* groups = const_cast<Value*>(member(*hooks, hook.event));
    if (groups == nullptr || !groups->IsArray()) continue;
    const int here = remove_suite_entries(*groups, hook.event);
    removed += here;
    if (here > 0 && groups->Empty()) hooks->EraseMember(hook.event);
  }
  if (removed > 0 && hooks->ObjectEmpty()) settings.EraseMember("hooks");
  return removed;
}

}  // namespace fleet
