#include "process/call_handover.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/error.h"
#include "base/ids.h"
#include "base/json.h"
#include "base/sha256.h"
#include "process/handover_file.h"
#include "process/process_identity.h"

namespace fleet {
namespace {

constexpr std::size_t kDigestDigits = 32;

constexpr std::string_view kCallPrefix = "call-";

// "call-<first digits of the call id's SHA-256>.json"
std::string call_file_name(std::string_view call_id) {
  return std::string(kCallPrefix) + sha256_hex(call_id).substr(0, kDigestDigits) + ".json";
}

// {"caller": `caller`, `key`: `value`, "boot_id": `boot_id`}: a call's or a state handover.
std::string handover_text(std::string_view caller, const char* key, std::string_view value,
                          const std::string& boot_id) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("caller");
  writer.String(caller.data(), static_cast<rapidjson::SizeType>(caller.size()));
  writer.Key(key);
  writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  writer.Key("boot_id");
  writer.String(boot_id.c_str());
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

// Removes the call and state handovers in `dir` older than the age bound.
void prune_calls(const std::string& dir, std::chrono::system_clock::time_point now) {
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) return;
  const auto oldest = std::chrono::system_clock::to_time_t(now - kHandoverMaxAge);
  while (const dirent* entry = ::readdir(listing)) {
    const std::string_view name(entry->d_name);
    if (!name.starts_with(kCallPrefix) && !name.starts_with("state-")) continue;
    const std::string path = dir + "/" + entry->d_name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && st.st_mtime < oldest) ::unlink(path.c_str());
  }
  ::closedir(listing);
}

constexpr std::string_view kStatePrefix = "state-";

std::string state_file_name(std::string_view caller) {
  return std::string(kStatePrefix) + sha256_hex(caller).substr(0, kDigestDigits) + ".json";
}

}  // namespace

std::optional<std::string> leave_call_handover(const std::string& dir, std::string_view caller,
                                               std::string_view call_id,
                                               std::chrono::system_clock::time_point now) {
  if (const auto problem = id_problem("the caller's session id", caller)) return problem;
  if (call_id.empty() || call_id.size() > 256) return std::string("the tool call has no usable id");
  const std::optional<std::string> boot = current_boot_id();
  if (!boot) return std::string("the boot id cannot be read");
  const Result<std::string> place = private_directory(dir);
  if (!place) return place.problem();
  try {
    // A call's id is new: one write into a new file is enough (its launch reads it only after
    // this hook has exited, and a torn file reads as none, which refuses).
    leave_new_file(dir + "/" + call_file_name(call_id),
                   handover_text(caller, "call", call_id, *boot), now);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

HandedOverCaller caller_of_call(const std::string& dir, std::string_view call_id,
                                std::chrono::system_clock::time_point now) {
  using Status = HandedOverCaller::Status;
  struct stat st {};
  if (::lstat(dir.c_str(), &st) == 0) {
    if (const auto problem = private_problem(dir))
      return {.status = Status::untrusted,
              .caller = "",
              .problem = *problem + ", so no caller handover there is trusted"};
  }
  const std::string none =
      "no resume-guard hook handed over the caller of the dispatch call " + std::string(call_id) +
      " in the last " + std::to_string(kHandoverMaxAge.count() / 60) +
      " minutes (resume-guard not wired on the dispatch tool, or not trusted, or the call's "
      "_meta or call token is not this launch's)";
  const std::optional<std::string> boot = current_boot_id();
  const auto read = boot ? read_handover(dir + "/" + call_file_name(call_id)) : std::nullopt;
  prune_calls(dir, now);
  if (!read) return {.status = Status::none, .caller = "", .problem = none};
  const Result<rapidjson::Document> parsed = parse_json_object(read->first);
  if (!parsed) return {.status = Status::none, .caller = "", .problem = none};
  const auto caller = string_member(*parsed, "caller");
  const auto call = string_member(*parsed, "call");
  const auto left_boot = string_member(*parsed, "boot_id");
  if (!caller || caller->empty() || call != call_id || left_boot != *boot ||
      !handover_counts(read->second, unix_ms(now)))
    return {.status = Status::none, .caller = "", .problem = none};
  return {.status = Status::found, .caller = std::string(*caller), .problem = ""};
}

std::optional<std::string> leave_state_handover(const std::string& dir, std::string_view caller,
                                                const std::string& state_dir,
                                                std::chrono::system_clock::time_point now) {
  if (const auto problem = id_problem("the caller's session id", caller)) return problem;
  if (!state_dir.starts_with("/")) return std::string("the state directory is not absolute");
  const std::optional<std::string> boot = current_boot_id();
  if (!boot) return std::string("the boot id cannot be read");
  const Result<std::string> place = private_directory(dir);
  if (!place) return place.problem();
  try {
    renew_or_replace(dir + "/" + state_file_name(caller),
                     handover_text(caller, "state_dir", state_dir, *boot), now);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

std::optional<std::string> state_dir_of_caller(const std::string& dir, std::string_view caller,
                                               std::chrono::system_clock::time_point now) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || private_problem(dir)) return std::nullopt;
  const std::optional<std::string> boot = current_boot_id();
  const auto read = boot ? read_handover(dir + "/" + state_file_name(caller)) : std::nullopt;
  if (!read) return std::nullopt;
  const Result<rapidjson::Document> parsed = parse_json_object(read->first);
  if (!parsed) return std::nullopt;
  const auto named = string_member(*parsed, "caller");
  const auto state_dir = string_member(*parsed, "state_dir");
  if (named != caller || !state_dir || !state_dir->starts_with("/") ||
      string_member(*parsed, "boot_id") != *boot || !handover_counts(read->second, unix_ms(now)))
    return std::nullopt;
  return std::string(*state_dir);
}

}  // namespace fleet
