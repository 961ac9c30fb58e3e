#include "hook_wiring.h"

#include "error.h"
#include "json.h"

namespace fleet {
namespace {

using rapidjson::Value;

bool is_safe_path_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
         c == '.' || c == '_' || c == '+' || c == '-';
}

// The suite hook an entry of a group's "hooks" list is, or nullptr.
const SuiteHook* suite_hook_of(const Value& entry, std::string_view event) {
  const auto command = string_member(entry, "command");
  if (!command) return nullptr;
  const std::string name = command_executable_name(*command);
  for (const SuiteHook& hook : kSuiteHooks) {
    if (event == hook.event && name == hook.executable) return &hook;
  }
  return nullptr;
}

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

// Removes suite entries of `event` from `groups` except `keep`; drops groups that this left
// empty. Returns how many entries were removed.
int remove_suite_entries(Value& groups, std::string_view event, const Value* keep) {
  int removed = 0;
  for (auto group = groups.Begin(); group != groups.End();) {
    Value* entries = group->IsObject() ? const_cast<Value*>(member(*group, "hooks")) : nullptr;
    bool emptied = false;
    if (entries != nullptr && entries->IsArray()) {
      for (auto entry = entries->Begin(); entry != entries->End();) {
        if (&*entry != keep && suite_hook_of(*entry, event) != nullptr) {
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

}  // namespace

std::string shell_quote(std::string_view path) {
  bool safe = !path.empty();
  for (char c : path) safe = safe && is_safe_path_char(c);
  if (safe) return std::string(path);
  std::string quoted = "'";
  for (char c : path) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string command_executable(std::string_view command) {
  std::size_t i = 0;
  for (;;) {
    while (i < command.size() && (command[i] == ' ' || command[i] == '\t')) ++i;
    if (i >= command.size()) return "";
    std::string word;
    bool assignment = false;
    while (i < command.size() && command[i] != ' ' && command[i] != '\t') {
      const char c = command[i];
      if (c == '\'' || c == '"') {
        const std::size_t close = command.find(c, i + 1);
        const std::size_t end = close == std::string_view::npos ? command.size() : close;
        word.append(command.substr(i + 1, end - i - 1));
        i = end == command.size() ? end : end + 1;
        continue;
      }
      if (c == '=' && word.find('/') == std::string::npos) assignment = true;
      word += c;
      ++i;
    }
    if (!assignment) return word;
  }
}

std::string command_executable_name(std::string_view command) {
  const std::string executable = command_executable(command);
  const std::size_t slash = executable.rfind('/');
  return slash == std::string::npos ? executable : executable.substr(slash + 1);
}

void install_suite_hooks(rapidjson::Document& settings, const std::string& bin_dir) {
  check_shape(settings);
  auto& alloc = settings.GetAllocator();
  if (member(settings, "hooks") == nullptr)
    settings.AddMember("hooks", Value(rapidjson::kObjectType), alloc);
  Value& hooks = settings["hooks"];
  for (const SuiteHook& hook : kSuiteHooks) {
    if (member(hooks, hook.event) == nullptr) {
      hooks.AddMember(Value(hook.event, alloc), Value(rapidjson::kArrayType), alloc);
    }
    Value& groups = hooks[hook.event];
    const std::string command = shell_quote(bin_dir + "/" + hook.executable) + hook.arguments;

    // The first suite entry under the suite's matcher is updated in place.
    Value* kept = nullptr;
    for (auto& group : groups.GetArray()) {
      if (kept != nullptr || string_member(group, "matcher") != kDispatchMatcher) continue;
      Value* entries = const_cast<Value*>(member(group, "hooks"));
      if (entries == nullptr || !entries->IsArray()) continue;
      for (auto& entry : entries->GetArray()) {
        if (suite_hook_of(entry, hook.event) != nullptr) {
          kept = &entry;
          break;
        }
      }
    }
    remove_suite_entries(groups, hook.event, kept);
    // Erasing from the list may have moved the kept entry: find it again.
    kept = nullptr;
    Value* home = nullptr;  // a group with the suite's matcher and a hooks list
    for (auto& group : groups.GetArray()) {
      if (string_member(group, "matcher") != kDispatchMatcher) continue;
      Value* entries = const_cast<Value*>(member(group, "hooks"));
      if (entries == nullptr || !entries->IsArray()) continue;
      if (home == nullptr) home = entries;
      for (auto& entry : entries->GetArray()) {
        if (kept == nullptr && suite_hook_of(entry, hook.event) != nullptr) kept = &entry;
      }
    }
    if (kept == nullptr) {
      Value entry(rapidjson::kObjectType);
      if (home == nullptr) {
        Value group(rapidjson::kObjectType);
        group.AddMember("matcher", json_string(kDispatchMatcher, alloc), alloc);
        group.AddMember("hooks", Value(rapidjson::kArrayType), alloc);
        groups.PushBack(group, alloc);
        home = &groups[groups.Size() - 1]["hooks"];
      }
      home->PushBack(entry, alloc);
      kept = &(*home)[home->Size() - 1];
    }
    set_member(*kept, "type", Value("command", alloc), alloc);
    set_member(*kept, "command", json_string(command, alloc), alloc);
    set_member(*kept, "timeout", Value(kHookTimeoutSeconds), alloc);
  }
}

int uninstall_suite_hooks(rapidjson::Document& settings) {
  Value* hooks = const_cast<Value*>(member(settings, "hooks"));
  if (hooks == nullptr || !hooks->IsObject()) return 0;
  int removed = 0;
  for (const SuiteHook& hook : kSuiteHooks) {
    Value* groups = const_cast<Value*>(member(*hooks, hook.event));
    if (groups == nullptr || !groups->IsArray()) continue;
    const int here = remove_suite_entries(*groups, hook.event, nullptr);
    removed += here;
    if (here > 0 && groups->Empty()) hooks->EraseMember(hook.event);
  }
  if (removed > 0 && hooks->ObjectEmpty()) settings.EraseMember("hooks");
  return removed;
}

}  // namespace fleet
