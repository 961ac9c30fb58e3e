#include "settings/codex_trust.h"

#include <sys/stat.h>
#include <algorithm>
#include <climits>
#include <cstdlib>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "base/sha256.h"
#include "settings/hook_wiring.h"
#include "settings/settings_file.h"
#include "settings/toml_keys.h"

namespace fleet {
namespace {

using rapidjson::Value;

constexpr std::size_t kMaxConfigBytes = 16 * 1024 * 1024;
constexpr unsigned kDefaultTimeoutSeconds = 600;

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// The directory at or above `dir` that holds .git (Codex's project root), nullopt for none.
std::optional<std::string> git_root(std::string dir) {
  while (!dir.empty()) {
    if (exists(dir + "/.git")) return dir;
    const std::size_t slash = dir.find_last_of('/');
    if (slash == std::string::npos || dir == "/") break;
    dir = slash == 0 ? "/" : dir.substr(0, slash);
  }
  return std::nullopt;
}

// The trust_level Codex finds for `project_dir` in `scan`: the project's own entry, else its
// git root's — each under the path as given and as resolved — with the path it was found
// under; nullopt when there is none.
std::optional<std::pair<std::string, std::string>> project_trust(const TomlScan& scan,
                                                                 const std::string& project_dir) {
  std::vector<std::string> candidates = {project_dir};
  if (const auto real = real_path(project_dir)) candidates.push_back(*real);
  if (const auto root = git_root(project_dir); root && *root != project_dir) {
    candidates.push_back(*root);
    if (const auto real = real_path(*root)) candidates.push_back(*real);
  }
  for (const std::string& path : candidates) {
    const TomlEntry* level = find_toml_entry(scan, {"projects", path, "trust_level"});
    if (level != nullptr && level->kind == TomlEntry::Kind::string)
      return std::make_pair(path, level->text);
  }
  return std::nullopt;
}

std::optional<bool> toml_bool(const TomlScan& scan, const TomlPath& path) {
  const TomlEntry* entry = find_toml_entry(scan, path);
  if (entry == nullptr || entry->kind != TomlEntry::Kind::boolean) return std::nullopt;
  return entry->flag;
}

std::string how_to_trust(const std::string& project_dir) {
  return "Trust them: run `codex` in " + project_dir +
         ", trust the project when asked and the hooks in /hooks; or run `fleet-hooks install "
         "--agent codex --trust --project " +
         project_dir +
         "` (it trusts the project and the suite's own hooks only). Do not reach for "
         "--dangerously-bypass-hook-trust: it runs every untrusted hook (doc/agents.md, Trust)";
}

// The finding for one of the suite's hooks, nullopt when Codex runs it.
std::optional<Finding> hook_finding(const TomlScan& scan, const CodexHook& suite,
                                    const std::string& config, const std::string& project_dir) {
  const std::optional<CodexHookState> state = codex_hook_state(*suite.hook);
  if (!state) return std::nullopt;
  const std::string& file = suite.hook->file;
  if (!state->hash) {
    return Finding{"codex-hook-untrusted", Severity::error,
                   suite.what +
                       " has a \"timeout\" that is not a whole number of seconds: Codex "
                       "cannot read " +
                       file + " and runs none of its hooks",
                   file};
  }
  if (toml_bool(scan, {"hooks", "state", state->key, "enabled"}) == false) {
    return Finding{"codex-hook-disabled", Severity::error,
                   suite.what + " is turned off in " + config + " ([hooks.state.\"" + state->key +
                       "\"] enabled = false): Codex does not run it. Remove that line, or turn "
                       "it on in /hooks",
                   file};
  }
  const TomlEntry* trusted = find_toml_entry(scan, {"hooks", "state", state->key, "trusted_hash"});
  if (trusted != nullptr && trusted->kind == TomlEntry::Kind::string &&
      trusted->text == *state->hash)
    return std::nullopt;
  const bool modified = trusted != nullptr;
  return Finding{modified ? "codex-hook-modified" : "codex-hook-untrusted", Severity::error,
                 suite.what + " (" + state->key + ") is " +
                     (modified ? "changed since it was trusted (trusted_hash " + trusted->text +
                                     ", now " + *state->hash + ")"
                               : "not trusted in " + config) +
                     ": codex exec skips it without a word and the call runs unguarded. " +
                     how_to_trust(project_dir),
                 file};
}

}  // namespace

std::string codex_event_label(std::string_view event) {
  std::string label;
  for (const char c : event) {
    if (c >= 'A' && c <= 'Z') {
      if (!label.empty()) label += '_';
      label += static_cast<char>(c - 'A' + 'a');
    } else {
      label += c;
    }
  }
  return label;
}

std::string codex_hook_key(const std::string& file, std::string_view event, int group, int entry) {
  return file + ":" + codex_event_label(event) + ":" + std::to_string(group) + ":" +
         std::to_string(entry);
}

std::optional<std::string> codex_hook_hash(std::string_view event, const Value& group,
                                           const Value& entry) {
  unsigned long long timeout = kDefaultTimeoutSeconds;
  if (const Value* given = member(entry, "timeout")) {
    if (!given->IsUint64()) return std::nullopt;
    timeout = std::max<unsigned long long>(given->GetUint64(), 1);
  }
  rapidjson::Document identity(rapidjson::kObjectType);
  auto& alloc = identity.GetAllocator();
  Value handler(rapidjson::kObjectType);  // its keys in sorted order, as Codex hashes them
  const Value* async = member(entry, "async");
  handler.AddMember("async", async != nullptr && async->IsTrue(), alloc);
  handler.AddMember("command", json_string(string_member(entry, "command").value_or(""), alloc),
                    alloc);
  if (const auto status = string_member(entry, "statusMessage"))
    handler.AddMember("statusMessage", json_string(*status, alloc), alloc);
  handler.AddMember("timeout", static_cast<uint64_t>(timeout), alloc);
  handler.AddMember("type", "command", alloc);
  identity.AddMember("event_name", json_string(codex_event_label(event), alloc), alloc);
  identity.AddMember("hooks", Value(rapidjson::kArrayType), alloc);
  identity["hooks"].PushBack(handler, alloc);
  if (const auto matcher = string_member(group, "matcher"))
    identity.AddMember("matcher", json_string(*matcher, alloc), alloc);
  return "sha256:" + sha256_hex(to_json(identity));
}

std::optional<CodexHookState> codex_hook_state(const ConfiguredHook& hook) {
  rapidjson::Document doc;
  const SettingsRead read = read_settings(hook.file, doc);
  if (read.status != SettingsRead::Status::ok) return std::nullopt;
  const Value* hooks = member(doc, "hooks");
  const Value* groups = hooks ? member(*hooks, hook.event.c_str()) : nullptr;
  if (groups == nullptr || !groups->IsArray() ||
      groups->Size() <= static_cast<unsigned>(hook.group_index))
    return std::nullopt;
  const Value& group = (*groups)[hook.group_index];
  const Value* entries = member(group, "hooks");
  if (entries == nullptr || !entries->IsArray() ||
      entries->Size() <= static_cast<unsigned>(hook.entry_index))
    return std::nullopt;
  return CodexHookState{codex_hook_key(hook.file, hook.event, hook.group_index, hook.entry_index),
                        codex_hook_hash(hook.event, group, (*entries)[hook.entry_index])};
}

std::string codex_config_path(const std::string& codex_home) {
  return codex_home + "/config.toml";
}

std::vector<Finding> codex_trust_findings(const std::string& project_dir,
                                          const std::string& codex_home,
                                          const std::vector<CodexHook>& hooks) {
  std::vector<Finding> findings;
  if (hooks.empty()) return findings;
  const std::string config = codex_config_path(codex_home);
  // Followed through a symlink, as Codex reads it.
  const TomlScan scan =
      scan_toml(try_read_regular_file(real_path(config).value_or(config), kMaxConfigBytes).content);
  std::optional<bool> enabled = toml_bool(scan, {"features", "hooks"});
  if (!enabled) enabled = toml_bool(scan, {"features", "codex_hooks"});
  if (enabled == false) {
    findings.push_back({"codex-hooks-disabled", Severity::error,
                        "hooks are turned off in " + config +
                            " ([features] hooks = false, or codex_hooks = false): Codex runs no "
                            "hook at all, and every dispatch runs unguarded. Remove that line",
                        config});
  }
  const std::string project_file = project_dir + "/.codex/hooks.json";
  const bool in_project = std::any_of(
      hooks.begin(), hooks.end(), [&](const CodexHook& h) { return h.hook->file == project_file; });
  const auto trust = project_trust(scan, project_dir);
  if (in_project && (!trust || trust->second != "trusted")) {
    findings.push_back(
        {"codex-project-untrusted", Severity::error,
         "Codex does not read " + project_file + ": the project is not trusted in " + config +
             (trust
                  ? " ([projects.\"" + trust->first + "\"] trust_level = \"" + trust->second + "\")"
                  : " (no [projects.\"" + project_dir + "\"] trust_level = \"trusted\")") +
             ", so none of its hooks runs and every dispatch runs unguarded. " +
             how_to_trust(project_dir),
         config});
  }
  for (const CodexHook& suite : hooks) {
    if (auto finding = hook_finding(scan, suite, config, project_dir))
      findings.push_back(std::move(*finding));
  }
  return findings;
}

CodexTrustUpdate trust_codex_hooks(const std::string& project_dir, const std::string& codex_home,
                                   bool dry_run) {
  const AgentCli& codex = *find_agent_cli("codex");
  HookSourceOptions sources;
  sources.agent = &codex;
  sources.settings_files = {project_dir + "/" + std::string(codex.project_hook_file)};
  const HookSources collected = collect_hooks(sources);
  CodexTrustUpdate update;
  update.path = codex_config_path(codex_home);
  const std::optional<UniqueFd> lock = dry_run ? std::nullopt : lock_settings(update.path, true);
  const ReadFile current =
      try_read_regular_file(real_path(update.path).value_or(update.path), kMaxConfigBytes);
  if (current.status == FileStatus::failed) throw Error(current.problem + "; nothing was trusted");
  update.text = current.content;
  update.text = set_toml_string(update.text, {"projects", project_dir}, "trust_level", "trusted");
  for (const ConfiguredHook& hook : collected.hooks) {
    if (suite_hook_of_command(hook.command, hook.event, codex) == nullptr) continue;
    const std::optional<CodexHookState> state = codex_hook_state(hook);
    if (!state || !state->hash)
      throw Error("Codex cannot read the hook " + hook.event + " in " + hook.file +
                  " (a timeout that is not a whole number of seconds?); nothing was trusted");
    update.text =
        set_toml_string(update.text, {"hooks", "state", state->key}, "trusted_hash", *state->hash);
    update.trusted.push_back(state->key);
  }
  if (update.trusted.empty())
    throw Error("no fleet-hooks hook in " + sources.settings_files.front() +
                " to trust; run fleet-hooks install --agent codex first (nothing was trusted)");
  update.changed = update.text != current.content;
  if (update.changed && !dry_run) write_settings(update.path, update.text);
  return update;
}

}  // namespace fleet
