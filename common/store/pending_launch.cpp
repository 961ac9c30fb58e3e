#include "store/pending_launch.h"

#include <unistd.h>
#include <cerrno>

#include "base/error.h"
#include "base/files.h"
#include "base/ids.h"
#include "base/paths.h"
#include "base/timestamp.h"
#include "store/provenance_store.h"
#include "store/state_directory.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxPendingBytes = 64 * 1024;
constexpr std::string_view kSuffix = ".json";
constexpr std::string_view kClaimed = ".claimed";

std::string claimed_path(const std::string& path) {
  return path + std::string(kClaimed);
}

// The uuid that names the pending file at `path` (<state dir>/pending/<uuid>.json); throws
// Error for any other path, so a variable set to something else claims nothing.
std::string pending_token(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string_view dir(path.data(), slash == std::string::npos ? 0 : slash);
  const std::string_view name =
      slash == std::string::npos ? std::string_view() : std::string_view(path).substr(slash + 1);
  const std::string_view token =
      name.ends_with(kSuffix) ? name.substr(0, name.size() - kSuffix.size()) : std::string_view();
  if (!path.starts_with("/") || !is_uuid(token) || !dir.ends_with("/pending")) {
    throw Error(std::string("$") + kPendingLaunchEnv + " is not a pending launch file (" + path +
                "): expected <state dir>/pending/<uuid>.json");
  }
  return std::string(token);
}

// The record in the file at `path`; throws Error when it holds none.
ProvenanceRecord read_record_file(const std::string& path) {
  const std::string text = read_regular_file(path, kMaxPendingBytes);
  auto record = parse_provenance_line(text);
  if (!record) throw Error(path + " does not hold a provenance record");
  return std::move(*record);
}

void remove_if_present(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) throw_errno("cannot remove " + path);
}

}  // namespace

std::string write_pending_launch(const std::string& state_dir, const ProvenanceRecord& record) {
  const std::string token = new_uuid_v4();
  ensure_state_directory(absolute_path(state_dir));
  const std::string dir = absolute_path(state_dir) + "/pending";
  ensure_directory(dir);
  const std::string path = dir + "/" + token + std::string(kSuffix);
  ProvenanceRecord pending = record;
  pending.session_id = token;  // a placeholder the claim replaces
  pending.timestamp = utc_timestamp_now();
  replace_file_atomically(path, to_json_line(pending) + "\n", Durability::process_lifetime);
  return path;
}

std::optional<ProvenanceRecord> claim_pending_launch(const std::string& path,
                                                     std::string_view session_id,
                                                     const AppendOptions& options) {
  const std::string token = pending_token(path);
  const std::string claimed = claimed_path(path);
  // The one claimer: whoever moves the pending file aside (a second claim finds no file).
  if (::rename(path.c_str(), claimed.c_str()) != 0) {
    if (errno == ENOENT) return std::nullopt;
    throw_errno("cannot claim " + path);
  }
  try {
    ProvenanceRecord record = read_record_file(claimed);
    record.session_id = std::string(session_id);
    record.timestamp = utc_timestamp_now();
    const std::string state_dir = parent_directory(parent_directory(path));
    append_record(provenance_store_path(state_dir), record, options);
    replace_file_atomically(claimed, to_json_line(record) + "\n", Durability::process_lifetime);
    return record;
  } catch (const Error&) {
    ::rename(claimed.c_str(), path.c_str());  // pending again: the launcher sees it unrecorded
    throw;
  }
}

PendingLaunch read_pending_launch(const std::string& path) {
  const std::string token = pending_token(path);
  PendingLaunch result;
  if (auto text = read_regular_file_if_exists(claimed_path(path), kMaxPendingBytes)) {
    auto record = parse_provenance_line(*text);
    // Until the claim has stored the record, the claimed file still holds the placeholder.
    if (record && record->session_id != token) {
      result.state = PendingLaunch::State::claimed;
      result.record = std::move(*record);
      return result;
    }
    result.state = PendingLaunch::State::pending;
    return result;
  }
  if (read_regular_file_if_exists(path, kMaxPendingBytes)) {
    result.state = PendingLaunch::State::pending;
  }
  return result;
}

void withdraw_pending_launch(const std::string& path) {
  pending_token(path);
  remove_if_present(path);
  remove_if_present(claimed_path(path));
}

}  // namespace fleet
