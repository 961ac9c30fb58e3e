#include "settings/settings_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "base/result.h"

namespace fleet {
namespace {

// The file a settings path stands for: the path itself, or the end of its symlinks; a
// failure saying so for a symlink that leads nowhere.
Result<std::string> follow(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) {
    return Result<std::string>::failure(path + " is a symbolic link that leads to no file (" +
                                        std::strerror(errno) + ")");
  }
  return std::string(resolved);
}

// Claude Code keeps the last of duplicate keys: so does `doc` afterwards. Returns where the
// duplicates were, as JSON-pointer-like paths. Iterative (deep documents cannot overflow), and
// linear in the size of each object.
// An object's member by index: clang warns that C++20 finds RapidJSON 1.1's iterator !=
// ambiguous, so the loops below do not compare iterators.
rapidjson::Value::Member& member_at(rapidjson::Value& object, rapidjson::SizeType i) {
  return *(object.MemberBegin() + i);
}

std::vector<std::string> keep_last_duplicates(rapidjson::Document& doc) {
  std::vector<std::string> duplicates;
  std::vector<std::pair<rapidjson::Value*, std::string>> pending = {{&doc, ""}};
  while (!pending.empty()) {
    auto [value, where] = pending.back();
    pending.pop_back();
    if (value->IsObject()) {
      std::unordered_map<std::string, rapidjson::SizeType> last;
      rapidjson::SizeType index = 0;
      for (rapidjson::SizeType i = 0; i < value->MemberCount(); ++i) {
        const auto& m = member_at(*value, i);
        last[std::string(m.name.GetString(), m.name.GetStringLength())] = index++;
      }
      if (last.size() != value->MemberCount()) {
        rapidjson::Value kept(rapidjson::kObjectType);
        std::unordered_set<std::string> reported;
        index = 0;
        for (rapidjson::SizeType i = 0; i < value->MemberCount(); ++i) {
          auto& m = member_at(*value, i);
          const std::string name(m.name.GetString(), m.name.GetStringLength());
          if (last[name] == index++) {
            kept.AddMember(m.name, m.value, doc.GetAllocator());
          } else if (reported.insert(name).second) {
            duplicates.push_back(where + "/" + name);
          }
        }
        *value = kept;
      }
      for (rapidjson::SizeType i = 0; i < value->MemberCount(); ++i) {
        auto& m = member_at(*value, i);
        pending.emplace_back(
            &m.value, where + "/" + std::string(m.name.GetString(), m.name.GetStringLength()));
      }
    } else if (value->IsArray()) {
      for (rapidjson::SizeType i = 0; i < value->Size(); ++i)
        pending.emplace_back(&(*value)[i], where + "/" + std::to_string(i));
    }
  }
  return duplicates;
}

// `text` read as Claude Code's lenient reader would (comments, trailing commas), when that
// makes it an object.
std::optional<rapidjson::Document> parse_lenient(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag |
            rapidjson::kParseCommentsFlag | rapidjson::kParseTrailingCommasFlag>(text.data(),
                                                                                 text.size());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  return doc;
}

}  // namespace

std::optional<rapidjson::Document> lenient_settings(const std::string& path) {
  rapidjson::Document doc;
  const SettingsRead read = read_settings(path, doc);
  if (read.status != SettingsRead::Status::ok && read.status != SettingsRead::Status::ignored)
    return std::nullopt;
  return doc;
}

bool parses_with_comments(const std::string& file) {
  ReadFile read = try_read_regular_file(file, kMaxSettingsBytes);
  if (read.status != FileStatus::ok) return false;
  std::string& text = read.content;
  if (text.starts_with(kUtf8Bom)) text.erase(0, kUtf8Bom.size());
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag |
            rapidjson::kParseCommentsFlag>(text.data(), text.size());
  return !doc.HasParseError() && doc.IsObject();
}

namespace {

// What plain JSON does not allow where a strict parse of `text` stopped at `offset`, for a
// file the lenient parse reads: "a comment at line 2, column 3", "a trailing comma at line
// 3, column 20" (the comma before the closing bracket the parse stopped at).
std::string lenient_part(std::string_view text, std::size_t offset) {
  if (offset < text.size() && text[offset] == '/')
    return "a comment at " + text_position(text, offset);
  std::size_t comma = offset;
  while (comma > 0 && std::string_view(" \t\r\n").find(text[comma - 1]) != std::string_view::npos)
    --comma;
  if (comma > 0 && text[comma - 1] == ',')
    return "a trailing comma at " + text_position(text, comma - 1);
  return "comments or a trailing comma, from " + text_position(text, offset);
}

// Where the previous content of `file` goes: `.bak` when none exists yet, else the next
// `.bak.N`; and the newest existing backup (nullopt when none).
struct Backup {
  std::string path;
  std::optional<std::string> newest;
};

// The `<file>.bak.N` backups, highest N first.
std::vector<std::pair<long, std::string>> numbered_backups(const std::string& file) {
  std::vector<std::pair<long, std::string>> backups;
  const std::string dir = parent_directory(file);
  const std::string prefix = file.substr(file.rfind('/') + 1) + ".bak.";
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (!name.starts_with(prefix) || name.size() == prefix.size()) continue;
      const std::string digits = name.substr(prefix.size());
      if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9)
        continue;
      if (const long n = std::stol(digits); n > 0) backups.emplace_back(n, dir + "/" + name);
    }
    ::closedir(d);
  }
  std::sort(backups.begin(), backups.end(), std::greater<>());
  return backups;
}

Backup next_backup(const std::string& file) {
  const std::string bak = file + ".bak";
  struct stat st {};
  if (::lstat(bak.c_str(), &st) != 0) return {bak, std::nullopt};
  const auto numbered = numbered_backups(file);
  if (numbered.empty()) return {bak + ".1", bak};
  return {bak + "." + std::to_string(numbered.front().first + 1), numbered.front().second};
}

// The directory of a settings file, created when missing like a person would (0755; as root
// with the owner of the directory it is made in), with the missing directories above it
// (GitHub Copilot CLI's .github/hooks/). Throws Error.
struct stat settings_directory(const std::string& dir) {
  struct stat dir_st {};
  if (::stat(dir.c_str(), &dir_st) == 0) return dir_st;
  const std::string parent = parent_directory(dir);
  struct stat parent_st {};
  if (::stat(parent.c_str(), &parent_st) != 0 && errno == ENOENT && parent != dir)
    parent_st = settings_directory(parent);
  if (::stat(parent.c_str(), &parent_st) != 0 || !S_ISDIR(parent_st.st_mode))
    throw Error(parent + " does not exist; nothing was changed");
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    throw_errno("cannot create directory " + dir);
  if (::geteuid() == 0 && ::chown(dir.c_str(), parent_st.st_uid, parent_st.st_gid) != 0)
    throw_errno("cannot give " + dir + " the owner of " + parent);
  if (::stat(dir.c_str(), &dir_st) != 0) throw_errno("cannot read " + dir);
  return dir_st;
}

}  // namespace

SettingsScope settings_scope_named(std::string_view name) {
  if (name == "local") return SettingsScope::local;
  if (name == "user") return SettingsScope::user;
  return SettingsScope::project;
}

std::optional<std::string> user_settings_path(const AgentCli& agent) {
  const std::optional<std::string> home = known_config_home(agent);
  if (!home || !has_settings_scopes(agent)) return std::nullopt;
  return *home + "/" + std::string(agent.user_hook_file);
}

std::string settings_path(SettingsScope scope, const std::string& project_dir,
                          const AgentCli& agent) {
  if (scope == SettingsScope::project)
    return project_dir + "/" + std::string(agent.project_hook_file);
  if (!has_settings_scopes(agent)) {
    throw Error(std::string(agent.display_name) + " has no " +
                (scope == SettingsScope::local ? "local" : "user") + " settings file, only " +
                std::string(agent.project_hook_file) + " in the project");
  }
  if (scope == SettingsScope::local)
    return project_dir + "/" + std::string(agent.settings_scopes.local_file);
  return agent_config_home(agent) + "/" + std::string(agent.user_hook_file);
}

SettingsRead read_settings(const std::string& path, rapidjson::Document& doc) {
  SettingsRead read;
  doc.SetObject();
  Result<std::string> followed = follow(path);
  if (!followed) {
    read.status = SettingsRead::Status::invalid;
    read.problem = followed.problem();
    return read;
  }
  read.file = std::move(*followed);
  ReadFile file = try_read_regular_file(read.file, kMaxSettingsBytes);
  if (file.status != FileStatus::ok) {
    read.status = file.status == FileStatus::missing ? SettingsRead::Status::missing
                                                     : SettingsRead::Status::invalid;
    if (file.status == FileStatus::failed) read.problem = std::move(file.problem);
    return read;
  }
  std::string& text = file.content;
  if (text.starts_with(kUtf8Bom)) {
    read.bom = true;
    text.erase(0, kUtf8Bom.size());
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return read;  // reads as {}
  Result<rapidjson::Document> parsed = parse_json(text);
  if (!parsed) {
    const std::string where = lenient_part(text, json_error_offset(text).value_or(0));
    if (auto lenient = parse_lenient(text)) {
      doc = std::move(*lenient);
      read.status = SettingsRead::Status::ignored;
      read.not_plain = where;
      read.problem = path + " is not plain JSON (" + where + ")";
    } else {
      doc.SetObject();
      read.status = SettingsRead::Status::invalid;
      read.problem = path + " is not valid JSON (" + parsed.problem() + ")";
    }
    return read;
  }
  doc = std::move(*parsed);
  if (!doc.IsObject()) {
    read.problem = path + " holds a JSON " + std::string(json_type_name(doc)) + ", not an object";
    doc.SetObject();
    read.status = SettingsRead::Status::invalid;
    return read;
  }
  read.status = SettingsRead::Status::ok;
  read.duplicate_keys = keep_last_duplicates(doc);
  return read;
}

SettingsRead load_settings(const std::string& path, rapidjson::Document& doc,
                           const AgentCli& agent) {
  SettingsRead read = read_settings(path, doc);
  const std::string cli(agent.display_name);
  if (read.status == SettingsRead::Status::ignored && agent.settings_comments &&
      parses_with_comments(read.file)) {
    throw Error(path + " has comments (" + read.not_plain + "), which " + cli +
                " reads but writing the file back would drop: remove them, or add the hooks "
                "by hand (its page in doc/, \"Wired where\"); nothing was changed");
  }
  if (read.status == SettingsRead::Status::ignored) {
    throw Error(path + " is not plain JSON (" + read.not_plain + "), so " + cli + " " +
                std::string(agent.on_not_plain_json) + "; fix it first, nothing was changed");
  }
  if (read.status == SettingsRead::Status::invalid) {
    throw Error(read.problem + "; fix it first, nothing was changed");
  }
  if (!read.duplicate_keys.empty()) {
    std::string where;
    for (const std::string& key : read.duplicate_keys) where += (where.empty() ? "" : ", ") + key;
    throw Error(path + " has keys that appear more than once (" + where + "); " + cli +
                " uses only the last of them. Merge them into one and run this "
                "again; nothing was changed");
  }
  return read;
}

std::string settings_text(const rapidjson::Value& doc) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  doc.Accept(writer);
  std::string text(buffer.GetString(), buffer.GetSize());
  // A \uDxxx escape without its pair reads as bytes that are not UTF-8; written back, the
  // file could not be read again.
  if (valid_utf8(text) != text) {
    throw Error(
        "the settings hold a string that is not valid Unicode (a lone \\uD800-\\uDFFF "
        "escape); fix it first, nothing was changed");
  }
  return text + "\n";
}

std::optional<std::string> backup_with_settings(const std::string& file, const std::string& text) {
  constexpr std::size_t kMaxCompared = 16;
  std::vector<std::string> backups;
  for (const auto& numbered : numbered_backups(file)) backups.push_back(numbered.second);
  if (backups.size() > kMaxCompared) backups.resize(kMaxCompared);
  backups.push_back(file + ".bak");
  for (const std::string& backup : backups) {
    const ReadFile read = try_read_regular_file(backup, kMaxSettingsBytes);
    if (read.status != FileStatus::ok) continue;
    const bool bom = read.content.starts_with(kUtf8Bom);
    const Result<rapidjson::Document> doc =
        parse_json_object(std::string_view(read.content).substr(bom ? kUtf8Bom.size() : 0));
    if (!doc) continue;
    try {
      if ((bom ? std::string(kUtf8Bom) : "") + settings_text(*doc) == text) return read.content;
    } catch (const Error&) {  // a string settings_text cannot write: not the same settings
    }
  }
  return std::nullopt;
}

std::vector<std::string> settings_backups(const std::string& file) {
  std::vector<std::string> backups;
  for (const auto& numbered : numbered_backups(file)) backups.push_back(numbered.second);
  if (struct stat st{}; ::lstat((file + ".bak").c_str(), &st) == 0)
    backups.push_back(file + ".bak");
  return backups;
}

void drop_backups_holding(const std::string& file, const std::string& text) {
  for (const std::string& backup : settings_backups(file)) {
    const ReadFile read = try_read_regular_file(backup, kMaxSettingsBytes);
    if (read.status != FileStatus::ok || read.content != text) continue;
    if (::unlink(backup.c_str()) != 0 && errno != ENOENT) throw_errno("cannot remove " + backup);
  }
}

std::optional<UniqueFd> lock_settings(const std::string& path, bool create) {
  // A symlink that leads nowhere is refused later, by write_settings, naming it.
  const Result<std::string> followed = follow(path);
  const std::string dir = parent_directory(followed ? *followed : path);
  if (create) {
    settings_directory(dir);
  } else if (struct stat st{}; ::stat(dir.c_str(), &st) != 0) {
    return std::nullopt;
  }
  UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd) throw_errno("cannot open " + dir + " to lock " + path);
  lock_exclusive(fd.get(), dir + " (the lock of " + path + ")");
  return fd;
}

void write_settings(const std::string& path, const std::string& text, KeepBackup backup_kept) {
  const Result<std::string> followed = follow(path);
  if (!followed) throw Error(followed.problem() + "; nothing was changed");
  const std::string& file = *followed;
  struct stat st {};
  if (::lstat(file.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) throw Error(file + " is not a regular file; nothing was changed");
    if ((st.st_mode & 0222) == 0) {
      throw Error(file +
                  " is read-only; make it writable (chmod u+w) to let fleet-hooks change it");
    }
    const mode_t mode = st.st_mode & 07777;
    const FileOwner owner{st.st_uid, st.st_gid};
    // Only asked for when it differs from what a new file gets anyway: a user may keep a
    // file of a group they are not in (from a setgid directory) without being refused.
    const FileOwner* keep = st.st_uid != ::geteuid() || st.st_gid != ::getegid() ? &owner : nullptr;
    if (backup_kept == KeepBackup::yes) {
      const std::string current = read_regular_file(file, kMaxSettingsBytes);
      const Backup backup = next_backup(file);
      const bool kept = backup.newest && [&] {
        const ReadFile newest = try_read_regular_file(*backup.newest, kMaxSettingsBytes);
        return newest.status == FileStatus::ok && newest.content == current;
      }();
      if (!kept)
        replace_file_atomically(backup.path, current, Durability::survives_crash, mode, keep);
    }
    replace_file_atomically(file, text, Durability::survives_crash, mode, keep);
    return;
  }
  // A new file: as root it gets the owner of the directory it is made in.
  const struct stat dir_st = settings_directory(parent_directory(file));
  const FileOwner owner{dir_st.st_uid, dir_st.st_gid};
  replace_file_atomically(file, text, Durability::survives_crash, 0644,
                          ::geteuid() == 0 ? &owner : nullptr);
}

}  // namespace fleet
