#pragma once
// The launch registry: launch/<member>.json names the live agent of one fleet member, so the
// next launch (or `launch-wrapper stop`) can stop exactly that process and nothing else.

#include <sys/types.h>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/files.h"
#include "base/result.h"
#include "launch/containment.h"
#include "process/process_identity.h"

namespace fleet {

struct LaunchRecord {
  std::string member;
  ProcessIdentity process;  // pid, starttime_ticks, boot_id
  pid_t pgid = 0;           // always the agent's pid: it leads its own group
  std::string session_id;   // "" when not known
  std::string started_at;   // ISO-8601 UTC
  std::vector<std::string> command;
  // How to find every process of the launch, even those that left the agent's group
  // ("token" and "cgroup" in the file; absent in records of older versions).
  Containment containment{};
  // Where the agent's output goes since the launcher's end of stdout closed ("" while it
  // is passed through).
  std::string output_spool{};

  bool operator==(const LaunchRecord&) const = default;
};

// The record as a JSON object (one line, with a trailing newline).
std::string launch_record_json(const LaunchRecord& record);

// Reads a record; a failure saying why when it is not valid JSON, lacks a field, has a field
// of the wrong type, names an impossible process (pid <= 1, pgid != pid), or names a
// containment that is not a launch's own (containment_problem).
Result<LaunchRecord> parse_launch_record(std::string_view text);

struct RegistryRead {
  enum class Status { missing, ok, corrupt };
  Status status = Status::missing;
  LaunchRecord record;  // when ok
  std::string problem;  // when corrupt: what is wrong, for the user
};

class LaunchRegistry {
 public:
  // `state_dir`/launch/ holds the records. Throws Error when `member` is not a valid id.
  LaunchRegistry(const std::string& state_dir, const std::string& member);

  const std::string& record_path() const { return record_path_; }
  const std::string& state_dir() const { return state_dir_; }
  const std::string& member() const { return member_; }

  // Serializes launches and stops of this member across processes: held from reading the
  // previous record until the new one is written.
  UniqueFd lock() const;
  // The same when the member has a lock file or a record; otherwise an empty descriptor and
  // no file created: no launch of the member ever ran here, so there is nothing to wait for.
  UniqueFd lock_if_known() const;

  RegistryRead read() const;
  void write(const LaunchRecord& record) const;  // atomic replace
  void remove() const;                           // missing is fine

 private:
  std::string state_dir_;
  std::string member_;
  std::string record_path_;
  std::string lock_path_;
};

// The registry of `member` in the state directory `state_dir_flag` names (--state-dir, else
// the environment or the project: paths.h), as an absolute path. Throws Error.
LaunchRegistry member_registry(const std::string& state_dir_flag, const std::string& member);

}  // namespace fleet
