#include "agents/codex/codex_trust.h"

#include <sys/stat.h>
#include <algorithm>
#include <climits>
#include <cstdlib>

#include "agents/codex/codex_cli.h"
#include "agents/codex/toml_keys.h"
#include "base/error.h"
#include "base/exit_status.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "base/sha256.h"
#include "hook/hook_command.h"
#include "hook/tool_names.h"
#include "settings/hook_wiring.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

using rapidjson::Value;

constexpr std::size_t kMaxCodexConfigBytes = 16 * 1024 * 1024;
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

// The trust_level Codex finds for `project_dir` in `scan`: the entry of the project's
// resolved path (Codex keys trust by its working directory, which the kernel resolves), else
// its git root's, with the path it was found under; nullopt when there is none.
std::optional<std::pair<std::string, std::string>> project_trust(const TomlScan& scan,
                                                                 const std::string& project_dir) {
  std::vector<std::string> candidates = {resolved_path(project_dir)};
  if (const auto root = git_root(candidates.front()); root && *root != candidates.front())
    candidates.push_back(*root);
  for (const std::string& path : candidates) {
    const TomlEntry* level = find_toml_entry(scan, {"projects", path, "trust_level"});
    if (level != nullptr && level->kind == TomlEntry::Kind::string)
      return std::make_pair(path, level->text);
  }
  return std::nullopt;
}

// Whether `command` is byte for byte one that install writes for `hook` into a project's
// .codex/hooks.json (hook_wiring.h): its bare executable in the guarded form, exiting 2 when
// it is missing (1 for the guard with --fail-open-if-missing, always for the others), and
// only the arguments install writes: its own, --agent codex and --tool NAME. Anything else a
// shell would run makes it another command.
bool written_by_install(std::string_view command, const SuiteHook& hook, const AgentCli& codex) {
  const std::optional<HookCommand> parsed = parse_hook_command(command);
  if (!parsed) return false;
  HookCommand expected;
  expected.executable = hook.executable;
  expected.guarded = true;
  expected.exit_if_missing =
      hook.role == HookRole::pre_tool && parsed->exit_if_missing != exit_status::hook_warns
          ? exit_status::hook_blocks
          : exit_status::hook_warns;
  expected.arguments = std::string(hook.arguments) + " --agent " + std::string(codex.name);
  if (hook.role != HookRole::session_start) {
    for (const std::string& tool : command_tools(parsed->arguments)) {
      if (!is_valid_tool_name(tool)) return false;
      expected.arguments += " --tool " + tool;
    }
  }
  return format_hook_command(expected, hook.executable, codex.display_name) == command;
}

// `text` with `key` of `table` set to `value` (set_toml_string), its refusal naming `path`.
std::string set_config_string(const std::string& path, std::string_view text, const TomlPath& table,
                              const std::string& key, const std::string& value) {
  try {
    return set_toml_string(text, table, key, value);
  } catch (const Error& e) {
    throw Error("cannot trust in " + path + ": " + e.what() + " (nothing was trusted)");
  }
}

std::optional<bool> toml_bool(const TomlScan& scan, const TomlPath& path) {
  const TomlEntry* entry = find_toml_entry(scan, path);
  if (entry == nullptr || entry->kind != TomlEntry::Kind::boolean) return std::nullopt;
  return entry->flag;
}

// `json` (RapidJSON's compact text) as serde_json writes it, which is what Codex hashes: the
// hex digits of a \u escape in lower case (RapidJSON writes \u001B, serde_json \u001b). Both
// escape the same characters (", \, and U+0000-U+001F, with \b \t \n \f \r) and write U+007F
// and every other character as its UTF-8 bytes.
std::string serde_json_text(std::string json) {
  for (std::size_t i = 0; i + 1 < json.size(); ++i) {
    if (json[i] != '\\') continue;
    if (json[i + 1] == 'u') {
      for (std::size_t k = i + 2; k < std::min(i + 6, json.size()); ++k) {
        if (json[k] >= 'A' && json[k] <= 'F') json[k] = static_cast<char>(json[k] - 'A' + 'a');
      }
    }
    ++i;  // the escaped character is not the start of another escape
  }
  return json;
}

// Said once, after the first finding that trust would fix.
std::string how_to_trust(const std::string& project_dir) {
  return "Trust them: fleet-hooks install --agent codex --trust --project " + project_dir +
         " (it trusts the project and the commands fleet-hooks install writes, nothing else); "
         "or run `codex` in " +
         project_dir +
         ", trust the project when asked and the hooks in /hooks. Not "
         "--dangerously-bypass-hook-trust: it runs every untrusted hook (doc/codex.md, Trust)";
}

// The finding for one of the suite's hooks, nullopt when Codex runs it.
std::optional<Finding> hook_finding(const TomlScan& scan, const HookToTrust& suite,
                                    const std::string& config) {
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
  // Trusting fixes it only for a command install --trust would trust: one with more shell in
  // it (a pull request's) stays a plain error, never "wired right, not yet trusted".
  const SuiteHook* written =
      suite_hook_of_command(suite.hook->command, suite.hook->event, kCodexCli);
  const bool trust_fixes =
      written != nullptr && written_by_install(suite.hook->command, *written, kCodexCli);
  return Finding{modified ? "codex-hook-modified" : "codex-hook-untrusted", Severity::error,
                 suite.what + " (" + state->key + ") is " +
                     (modified ? "changed since it was trusted (trusted_hash " + trusted->text +
                                     ", now " + *state->hash + ")"
                               : "not trusted in " + config) +
                     ": codex exec skips it without a word and the call runs unguarded",
                 file, trust_fixes};
}

// The project's Codex hook file.
std::string project_hook_path(const std::string& project_dir) {
  return project_dir + "/" + std::string(kCodexCli.project_hook_file);
}

// A hook of the project's Codex hook file that runs one of the suite's programs.
struct SuiteHookInProject {
  ConfiguredHook hook;
  const SuiteHook* suite;
};

std::vector<SuiteHookInProject> suite_hooks_in_project(const std::string& project_dir) {
  HookSourceOptions sources;
  sources.agent = &kCodexCli;
  sources.settings_files = {project_hook_path(project_dir)};
  std::vector<SuiteHookInProject> found;
  for (ConfiguredHook& hook : collect_hooks(sources).hooks) {
    const SuiteHook* suite = suite_hook_of_command(hook.command, hook.event, kCodexCli);
    if (suite != nullptr) found.push_back({std::move(hook), suite});
  }
  return found;
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
  return "sha256:" + sha256_hex(serde_json_text(to_json(identity)));
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
  // Codex names the file under its resolved working directory.
  const std::string file =
      resolved_path(parent_directory(hook.file)) + hook.file.substr(hook.file.rfind('/'));
  return CodexHookState{codex_hook_key(file, hook.event, hook.group_index, hook.entry_index),
                        codex_hook_hash(hook.event, group, (*entries)[hook.entry_index])};
}

std::string codex_config_path(const std::string& codex_home) {
  return codex_home + "/config.toml";
}

ReadFile read_codex_config(const std::string& path) {
  return try_read_regular_file(resolved_path(path), kMaxCodexConfigBytes);
}

std::vector<CodexHookState> installed_hook_states(const std::string& project_dir) {
  std::vector<CodexHookState> states;
  for (const SuiteHookInProject& found : suite_hooks_in_project(project_dir)) {
    if (!written_by_install(found.hook.command, *found.suite, kCodexCli)) continue;
    if (auto state = codex_hook_state(found.hook); state && state->hash) states.push_back(*state);
  }
  return states;
}

namespace {

// A codex-hooks-disabled finding when `file` ([features] of a config.toml Codex reads: the
// user's, a trusted project's own, the system's) turns hooks off (codex-cli 0.169.0: "hooks",
// and its older name "codex_hooks").
void append_hooks_off(std::vector<Finding>& findings, const std::string& file,
                      const TomlScan& scan) {
  std::optional<bool> enabled = toml_bool(scan, {"features", "hooks"});
  if (!enabled) enabled = toml_bool(scan, {"features", "codex_hooks"});
  if (enabled != false) return;
  findings.push_back({"codex-hooks-disabled", Severity::error,
                      "hooks are turned off in " + file +
                          " ([features] hooks = false, or codex_hooks = false): Codex runs no "
                          "hook at all, and every dispatch runs unguarded. Remove that line",
                      file});
}

}  // namespace

std::vector<Finding> codex_trust_findings(const std::string& project_dir,
                                          const std::string& codex_home,
                                          const std::vector<HookToTrust>& hooks) {
  std::vector<Finding> findings;
  if (hooks.empty()) return findings;
  const std::string config = codex_config_path(codex_home);
  const TomlScan scan = scan_toml(read_codex_config(config).content);
  for (const std::string& error : scan.errors) {
    findings.push_back({"codex-config-invalid", Severity::error,
                        config + " is not a TOML document (" + error +
                            "): Codex refuses to load it, so codex exec starts in no project. "
                            "Fix that line",
                        config});
  }
  append_hooks_off(findings, config, scan);
  for (const std::string& other :
       {project_dir + "/.codex/config.toml", std::string("/etc/codex/config.toml"),
        std::string("/etc/codex/managed_config.toml")}) {
    append_hooks_off(findings, other, scan_toml(read_codex_config(other).content));
  }
  const std::string requirements = "/etc/codex/requirements.toml";
  if (toml_bool(scan_toml(read_codex_config(requirements).content), {"allow_managed_hooks_only"}) ==
      true) {
    findings.push_back({"codex-hooks-disabled", Severity::error,
                        "allow_managed_hooks_only = true: Codex runs only the hooks of its managed "
                        "folder, none of the project's, and every dispatch runs unguarded",
                        requirements});
  }
  const std::string project_file = project_hook_path(project_dir);
  const bool in_project = std::any_of(hooks.begin(), hooks.end(), [&](const HookToTrust& h) {
    return h.hook->file == project_file;
  });
  const auto trust = project_trust(scan, project_dir);
  if (in_project && (!trust || trust->second != "trusted")) {
    findings.push_back(
        {"codex-project-untrusted", Severity::error,
         "Codex does not read " + project_file + ": the project is not trusted in " + config +
             (trust
                  ? " ([projects.\"" + trust->first + "\"] trust_level = \"" + trust->second + "\")"
                  : " (no [projects.\"" + resolved_path(project_dir) +
                        "\"] trust_level = \"trusted\")") +
             ", so none of its hooks runs and every dispatch runs unguarded",
         config, true});
  }
  for (const HookToTrust& suite : hooks) {
    if (auto finding = hook_finding(scan, suite, config)) findings.push_back(std::move(*finding));
  }
  const auto trust_fixes = std::find_if(findings.begin(), findings.end(), [](const Finding& f) {
    return f.rule == "codex-project-untrusted" || f.rule == "codex-hook-untrusted" ||
           f.rule == "codex-hook-modified";
  });
  if (trust_fixes != findings.end()) trust_fixes->message += ". " + how_to_trust(project_dir);
  return findings;
}

TrustUpdate trust_codex_hooks(const std::string& project_dir, const std::string& codex_home,
                              bool dry_run) {
  const AgentCli& codex = kCodexCli;
  TrustUpdate update;
  update.path = codex_config_path(codex_home);
  update.project = resolved_path(project_dir);
  const std::optional<UniqueFd> lock = dry_run ? std::nullopt : lock_settings(update.path, true);
  const ReadFile current = read_codex_config(update.path);
  if (current.status == FileStatus::failed) throw Error(current.problem + "; nothing was trusted");
  update.created = current.status == FileStatus::missing;
  const TomlScan before = scan_toml(current.content);
  update.project_trusted = !before.definitions.contains({"projects", update.project});
  update.text = set_config_string(update.path, current.content, {"projects", update.project},
                                  "trust_level", "trusted");
  for (const auto& [hook, suite] : suite_hooks_in_project(project_dir)) {
    const std::optional<CodexHookState> state = codex_hook_state(hook);
    if (!state || !state->hash)
      throw Error("Codex cannot read the hook " + hook.event + " in " + hook.file +
                  " (a timeout that is not a whole number of seconds?); nothing was trusted");
    if (!written_by_install(hook.command, *suite, codex)) {
      update.refused.push_back({state->key, hook.command});
      continue;
    }
    update.text = set_config_string(update.path, update.text, {"hooks", "state", state->key},
                                    "trusted_hash", *state->hash);
    update.trusted.push_back(state->key);
  }
  if (update.trusted.empty())
    throw Error("no hook in " + project_hook_path(project_dir) +
                " is one fleet-hooks install writes, so there is nothing to trust; run "
                "fleet-hooks install --agent codex first (nothing was trusted)");
  update.changed = update.text != current.content;
  if (update.changed && !dry_run) write_settings(update.path, update.text);
  return update;
}

}  // namespace fleet
