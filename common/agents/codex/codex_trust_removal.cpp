#include "agents/codex/codex_trust_removal.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <optional>
#include <utility>
#include <vector>

#include "agents/codex/codex_trust.h"
#include "agents/codex/toml_keys.h"
#include "base/error.h"
#include "base/paths.h"
#include "settings/settings_file.h"
#include "settings/trust_written.h"

namespace fleet {
namespace {

using Range = std::pair<std::size_t, std::size_t>;

bool blank(std::string_view text, std::size_t begin, std::size_t end) {
  return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(begin),
                     text.begin() + static_cast<std::ptrdiff_t>(end),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// The bytes of the table `path` of `scan` (the text `text`) as install --trust writes it — a
// [header] whose body holds nothing but the line `<key> = "<value>"` and blank lines — from the
// blank line before the header to the end of that line; nullopt for any other form.
std::optional<Range> written_table(std::string_view text, const TomlScan& scan,
                                   const TomlPath& path, const std::string& key_name,
                                   const std::string& value) {
  const auto definition = scan.definitions.find(path);
  if (definition == scan.definitions.end() || definition->second.how != TomlDefinition::How::header)
    return std::nullopt;
  const auto table = std::find_if(scan.tables.begin(), scan.tables.end(),
                                  [&](const TomlTable& t) { return t.path == path; });
  TomlPath key = path;
  key.push_back(key_name);
  const TomlEntry* entry = find_toml_entry(scan, key);
  if (table == scan.tables.end() || entry == nullptr || entry->kind != TomlEntry::Kind::string ||
      entry->text != value)
    return std::nullopt;
  const std::size_t line_begin = text.rfind('\n', entry->value_begin) + 1;  // npos + 1 == 0
  const std::size_t newline = text.find('\n', entry->value_end);
  const std::size_t line_end = newline == std::string_view::npos ? text.size() : newline + 1;
  if (!blank(text, table->header_end, line_begin) || !blank(text, entry->value_end, line_end) ||
      !blank(text, line_end, std::max(line_end, table->section_end)))
    return std::nullopt;
  std::size_t begin = definition->second.offset;
  if (begin >= 2 && text[begin - 1] == '\n' && text[begin - 2] == '\n') --begin;
  return Range{begin, line_end};
}

// Writes `update` (config.toml without what install --trust wrote) with no backup — the bytes
// taken out are the suite's — dropping the backup install kept that holds those bytes again;
// or removes the file, and its directory when that is then empty, when install created it and
// it now holds nothing.
void write_untrusted(const TrustUpdate& update) {
  const std::string file = resolved_path(update.path);
  if (!update.created) {
    write_settings(update.path, update.text, KeepBackup::no);
    return drop_backups_holding(file, update.text);
  }
  if (::unlink(file.c_str()) != 0 && errno != ENOENT) throw_errno("cannot remove " + file);
  ::rmdir(parent_directory(file).c_str());
}

}  // namespace

TrustUpdate untrust_codex_hooks(const std::string& project_dir, const std::string& codex_home,
                                const WrittenTrust* written, bool dry_run) {
  TrustUpdate update;
  update.path = codex_config_path(codex_home);
  update.project = resolved_path(project_dir);
  const std::vector<CodexHookState> states = installed_hook_states(project_dir);
  if (states.empty() && written == nullptr) return update;
  const std::optional<UniqueFd> lock = dry_run ? std::nullopt : lock_settings(update.path, false);
  const ReadFile current = read_codex_config(update.path);
  if (current.status == FileStatus::failed) throw Error(current.problem + "; nothing was removed");
  update.text = current.content;
  const TomlScan scan = scan_toml(update.text);
  if (current.status != FileStatus::ok || !scan.errors.empty()) return update;
  std::vector<Range> ranges;
  for (const CodexHookState& state : states) {
    if (const auto range = written_table(update.text, scan, {"hooks", "state", state.key},
                                         "trusted_hash", *state.hash)) {
      ranges.push_back(*range);
      update.untrusted.push_back(state.key);
    }
  }
  if (written != nullptr) {
    if (const auto range = written_table(update.text, scan, {"projects", update.project},
                                         "trust_level", "trusted")) {
      ranges.push_back(*range);
      update.project_trusted = true;
    }
  }
  std::sort(ranges.rbegin(), ranges.rend());  // from the end, so each offset still holds
  for (const auto& [begin, end] : ranges) update.text.erase(begin, end - begin);
  update.changed = !ranges.empty();
  update.created = update.changed && written != nullptr && written->created &&
                   blank(update.text, 0, update.text.size());
  if (update.changed && !dry_run) write_untrusted(update);
  return update;
}

}  // namespace fleet
