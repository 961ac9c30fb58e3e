#include "settings/trust_written.h"

#include <unistd.h>

#include <cerrno>

#include <rapidjson/document.h>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "settings/settings_file.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxRecordBytes = 1024 * 1024;

// The remembered entries at `path` (an empty array when there are none).
rapidjson::Document read_written(const std::string& path) {
  rapidjson::Document doc;
  const ReadFile file = try_read_regular_file(path, kMaxRecordBytes);
  Result<rapidjson::Document> parsed = parse_json_object(file.content);
  if (file.status == FileStatus::ok && parsed) doc = std::move(*parsed);
  if (!doc.IsObject()) doc.SetObject();
  const rapidjson::Value* written = member(doc, "written");
  if (written == nullptr || !written->IsArray()) {
    doc.RemoveMember("written");
    doc.AddMember("written", rapidjson::Value(rapidjson::kArrayType), doc.GetAllocator());
  }
  return doc;
}

bool is_entry(const rapidjson::Value& entry, const std::string& record,
              const std::string& project) {
  return string_member(entry, "record") == record && string_member(entry, "project") == project;
}

// Writes `doc` to `path`, or removes the file when it remembers nothing, with the directories
// below $HOME that this leaves empty (noting made them). Throws Error.
void store_written(const std::string& path, const rapidjson::Document& doc) {
  if (doc["written"].Empty()) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) throw_errno("cannot remove " + path);
    remove_empty_directories(parent_directory(path), env_value("HOME"));
    return;
  }
  replace_file_atomically(path, settings_text(doc), Durability::survives_crash, 0600);
}

}  // namespace

std::optional<std::string> trust_written_path() {
  const std::string home = env_value("HOME");
  if (!home.starts_with("/")) return std::nullopt;
  return home + "/.local/state/fleet-hooks/trust-written.json";
}

void note_trust_written(const std::string& record, const std::string& project, bool created) {
  const std::optional<std::string> path = trust_written_path();
  if (!path) throw Error("no absolute $HOME to remember the trust written in " + record);
  ensure_directory(parent_directory(*path));
  const std::optional<UniqueFd> lock = lock_settings(*path, false);
  rapidjson::Document doc = read_written(*path);
  rapidjson::Value& written = doc["written"];
  for (const rapidjson::Value& entry : written.GetArray()) {
    if (is_entry(entry, record, project)) return;
  }
  auto& alloc = doc.GetAllocator();
  rapidjson::Value entry(rapidjson::kObjectType);
  entry.AddMember("record", json_string(record, alloc), alloc);
  entry.AddMember("project", json_string(project, alloc), alloc);
  entry.AddMember("created", created, alloc);
  written.PushBack(entry, alloc);
  store_written(*path, doc);
}

std::optional<WrittenTrust> trust_written(const std::string& record, const std::string& project) {
  const std::optional<std::string> path = trust_written_path();
  if (!path) return std::nullopt;
  const rapidjson::Document doc = read_written(*path);
  for (const rapidjson::Value& entry : doc["written"].GetArray()) {
    if (!is_entry(entry, record, project)) continue;
    const rapidjson::Value* created = member(entry, "created");
    return WrittenTrust{created != nullptr && created->IsBool() && created->GetBool()};
  }
  return std::nullopt;
}

void forget_trust_written(const std::string& record, const std::string& project) {
  const std::optional<std::string> path = trust_written_path();
  if (!path) return;
  const std::optional<UniqueFd> lock = lock_settings(*path, false);
  if (!lock) return;
  rapidjson::Document doc = read_written(*path);
  rapidjson::Value& written = doc["written"];
  const std::size_t before = written.Size();
  for (rapidjson::SizeType i = written.Size(); i-- > 0;) {
    if (is_entry(written[i], record, project)) written.Erase(written.Begin() + i);
  }
  if (written.Size() != before) store_written(*path, doc);
}

}  // namespace fleet
