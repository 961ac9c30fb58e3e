#include "launch/registry.h"

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>

#include <rapidjson/document.h>

#include "base/error.h"
#include "base/ids.h"
#include "base/json.h"
#include "base/paths.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxRecordBytes = 1 << 20;

bool read_uint(const rapidjson::Value& doc, const char* key, std::uint64_t& out) {
  const rapidjson::Value* value = member(doc, key);
  if (value == nullptr || !value->IsUint64()) return false;
  out = value->GetUint64();
  return true;
}

}  // namespace

std::string launch_record_json(const LaunchRecord& record) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("member", json_string(record.member, alloc), alloc);
  doc.AddMember("pid", static_cast<std::int64_t>(record.process.pid), alloc);
  doc.AddMember("pgid", static_cast<std::int64_t>(record.pgid), alloc);
  doc.AddMember("starttime_ticks", record.process.starttime_ticks, alloc);
  doc.AddMember("boot_id", json_string(record.process.boot_id, alloc), alloc);
  doc.AddMember("session_id", json_string(record.session_id, alloc), alloc);
  doc.AddMember("started_at", json_string(record.started_at, alloc), alloc);
  rapidjson::Value command(rapidjson::kArrayType);
  for (const auto& part : record.command) command.PushBack(json_string(part, alloc), alloc);
  doc.AddMember("command", command, alloc);
  if (!record.containment.token.empty())
    doc.AddMember("token", json_string(record.containment.token, alloc), alloc);
  if (!record.containment.cgroup.empty())
    doc.AddMember("cgroup", json_string(record.containment.cgroup, alloc), alloc);
  if (!record.output_spool.empty())
    doc.AddMember("output_spool", json_string(record.output_spool, alloc), alloc);
  return to_json(doc) + "\n";
}

Result<LaunchRecord> parse_launch_record(std::string_view text) {
  using Parsed = Result<LaunchRecord>;
  const Result<rapidjson::Document> parsed = parse_json_object(text);
  if (!parsed) return Parsed::failure(parsed.problem());
  const rapidjson::Document& doc = *parsed;
  LaunchRecord record;
  std::uint64_t pid = 0, pgid = 0;
  if (!read_uint(doc, "pid", pid) || !read_uint(doc, "pgid", pgid) ||
      !read_uint(doc, "starttime_ticks", record.process.starttime_ticks)) {
    return Parsed::failure("pid, pgid or starttime_ticks is missing or not a non-negative integer");
  }
  const auto text_field = [&](const char* key, std::string& out) {
    const auto value = string_member(doc, key);
    if (!value) return false;
    out = std::string(*value);
    return true;
  };
  if (!text_field("member", record.member) || !text_field("boot_id", record.process.boot_id) ||
      !text_field("session_id", record.session_id) ||
      !text_field("started_at", record.started_at)) {
    return Parsed::failure("member, boot_id, session_id or started_at is missing or not a string");
  }
  const rapidjson::Value* command = member(doc, "command");
  if (command == nullptr || !command->IsArray()) {
    return Parsed::failure("command is missing or not an array");
  }
  for (const auto& part : command->GetArray()) {
    if (!part.IsString()) {
      return Parsed::failure("command holds a value that is not a string");
    }
    record.command.emplace_back(part.GetString(), part.GetStringLength());
  }
  if (pid <= 1 || pid > 0x3fffffff || pgid != pid) {
    return Parsed::failure("pid " + std::to_string(pid) + " / pgid " + std::to_string(pgid) +
                           " cannot be an agent (it leads its own process group)");
  }
  if (record.process.boot_id.empty()) {
    return Parsed::failure("boot_id is empty");
  }
  for (const auto& [key, out] :
       {std::pair<const char*, std::string*>{"token", &record.containment.token},
        {"cgroup", &record.containment.cgroup},
        {"output_spool", &record.output_spool}}) {
    if (member(doc, key) == nullptr) continue;
    if (!text_field(key, *out)) {
      return Parsed::failure(std::string(key) + " is not a string");
    }
  }
  if (!record.containment.cgroup.empty() && record.containment.token.empty()) {
    return Parsed::failure("cgroup without token");
  }
  if (!record.containment.token.empty()) {
    if (auto problem = containment_problem(record.containment)) {
      return Parsed::failure(std::move(*problem));
    }
  }
  record.process.pid = static_cast<pid_t>(pid);
  record.pgid = static_cast<pid_t>(pgid);
  return record;
}

LaunchRegistry::LaunchRegistry(const std::string& state_dir, const std::string& member) {
  if (const auto problem = id_problem("member name", member)) throw Error(*problem);
  state_dir_ = state_dir;
  member_ = member;
  record_path_ = state_dir + "/launch/" + member + ".json";
  lock_path_ = state_dir + "/launch/" + member + ".lock";
}

UniqueFd LaunchRegistry::lock() const {
  return lock_file(lock_path_);
}

UniqueFd LaunchRegistry::lock_if_known() const {
  struct stat st {};
  if (::lstat(lock_path_.c_str(), &st) != 0 && errno == ENOENT &&
      ::lstat(record_path_.c_str(), &st) != 0 && errno == ENOENT) {
    return UniqueFd();
  }
  return lock();
}

RegistryRead LaunchRegistry::read() const {
  RegistryRead result;
  ReadFile file = try_read_regular_file(record_path_, kMaxRecordBytes);
  if (file.status == FileStatus::missing) return result;
  if (file.status != FileStatus::ok) {
    result.status = RegistryRead::Status::corrupt;
    result.problem = std::move(file.problem);
    return result;
  }
  const std::string& text = file.content;
  auto record = parse_launch_record(text);
  if (!record) {
    result.status = RegistryRead::Status::corrupt;
    result.problem = record_path_ + ": " + record.problem();
    return result;
  }
  result.status = RegistryRead::Status::ok;
  result.record = std::move(*record);
  return result;
}

void LaunchRegistry::write(const LaunchRecord& record) const {
  // A record names processes of this boot only (boot_id): after a crash it is stale anyway,
  // so it is not worth an fsync on every launch.
  replace_file_atomically(record_path_, launch_record_json(record), Durability::process_lifetime);
}

void LaunchRegistry::remove() const {
  if (::unlink(record_path_.c_str()) != 0 && errno != ENOENT) {
    throw_errno("cannot remove " + record_path_);
  }
}

LaunchRegistry member_registry(const std::string& state_dir_flag, const std::string& member) {
  return LaunchRegistry(absolute_path(resolve_state_dir(state_dir_flag, "")), member);
}

}  // namespace fleet
