#include "process/caller_handover.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/error.h"
#include "base/files.h"
#include "base/ids.h"
#include "base/json.h"
#include "base/paths.h"
#include "base/sha256.h"
#include "process/process_identity.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxAncestors = 32;
// How far above a launch its agent CLI may be: the dispatcher, or a wrapper of it (npx, a
// shell) and the dispatcher. A process further up (a terminal, a login session) is never
// taken for the CLI, whatever hook ran beneath it.
constexpr std::size_t kMaxLaunchDepth = 4;
constexpr std::size_t kMaxHandoverBytes = 4096;
constexpr std::size_t kCallerDigits = 16;
// A handover dated this far after now (a clock set back) still counts; later, never.
constexpr std::chrono::seconds kClockSlack{5};

// Processes a hook command passes through on its way from the agent CLI (`sh -c …`): the
// host is the nearest ancestor that is none of these.
constexpr std::array<std::string_view, 8> kShells{"sh",  "dash",    "bash", "zsh",
                                                  "ksh", "busybox", "mksh", "fish"};

constexpr std::string_view kLaunchWrapper = "launch-wrapper";

bool is_shell(std::string_view name) {
  for (const std::string_view shell : kShells) {
    if (name == shell) return true;
  }
  return false;
}

enum class Walk {
  to_host,    // a hook's: up to its host, the nearest ancestor that is not a shell
  to_launch,  // a launch's: up to the launch-wrapper above it, if any (a worker's own dispatch
              // is never its launcher's caller's)
};

// The ancestors of `self`, nearest first: at most kMaxAncestors, and none from pid 1 or from
// a process of another user up.
std::vector<ProcessLink> ancestors(pid_t self, Walk walk) {
  std::vector<ProcessLink> chain;
  std::optional<ProcessLink> link = process_link(self);
  const uid_t me = ::geteuid();
  const std::size_t most = walk == Walk::to_launch ? kMaxLaunchDepth : kMaxAncestors;
  while (link && link->parent > 1 && chain.size() < most) {
    link = process_link(link->parent);
    if (!link || link->owner != me) break;
    if (walk == Walk::to_launch && link->name == kLaunchWrapper) break;
    chain.push_back(*link);
    if (walk == Walk::to_host && !is_shell(link->name)) break;
  }
  return chain;
}

std::int64_t unix_ms(std::chrono::system_clock::time_point time) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
}

// "<host pid>-<host start time>-<first digits of the caller's SHA-256>.json"
std::string file_name(const ProcessLink& host, std::string_view caller) {
  return std::to_string(host.pid) + "-" + std::to_string(host.starttime_ticks) + "-" +
         sha256_hex(caller).substr(0, kCallerDigits) + ".json";
}

// The handover's content: the same for a (host, caller) on one boot, so leaving it again only
// renews its time (the file's mtime) — replacing it each time would cost a rename, which a
// file system may flush (ext4's auto_da_alloc).
std::string handover_json(const ProcessLink& host, std::string_view caller,
                          const std::string& boot_id) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("caller");
  writer.String(caller.data(), static_cast<rapidjson::SizeType>(caller.size()));
  writer.Key("host_pid");
  writer.Int64(host.pid);
  writer.Key("host_starttime_ticks");
  writer.Uint64(host.starttime_ticks);
  writer.Key("boot_id");
  writer.String(boot_id.c_str());
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

timespec timespec_of(std::chrono::system_clock::time_point time) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch());
  return {static_cast<time_t>(ns.count() / 1000000000), static_cast<long>(ns.count() % 1000000000)};
}

// Leaves `content` at `path` with time `now`: renews the time of the same content (false),
// else replaces the file (true). Throws Error.
bool renew_or_replace(const std::string& path, const std::string& content,
                      std::chrono::system_clock::time_point now) {
  const timespec times[2] = {timespec_of(now), timespec_of(now)};
  OpenedFile opened = try_open_regular_file(path, O_RDONLY);
  if (opened.status == FileStatus::ok) {
    char buffer[kMaxHandoverBytes];
    const ssize_t n = ::read(opened.fd.get(), buffer, sizeof buffer);
    if (n > 0 && std::string_view(buffer, static_cast<std::size_t>(n)) == content &&
        ::futimens(opened.fd.get(), times) == 0)
      return false;
  }
  replace_file_atomically(path, content, Durability::process_lifetime, 0600);
  ::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW);
  return true;
}

struct Handover {
  std::string caller;
  pid_t host_pid = 0;
  std::uint64_t host_starttime_ticks = 0;
};

std::optional<std::int64_t> integer_member(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* value = member(object, key);
  if (value == nullptr || !value->IsInt64()) return std::nullopt;
  return value->GetInt64();
}

// The handover in `text`, left at `left_at`, when it counts at `now` on boot `boot_id`.
std::optional<Handover> counting_handover(std::string_view text, const std::string& boot_id,
                                          std::int64_t left_at_ms, std::int64_t now_ms) {
  const Result<rapidjson::Document> parsed = parse_json_object(text);
  if (!parsed) return std::nullopt;
  const auto caller = string_member(*parsed, "caller");
  const auto boot = string_member(*parsed, "boot_id");
  const auto pid = integer_member(*parsed, "host_pid");
  const auto start = integer_member(*parsed, "host_starttime_ticks");
  if (!caller || caller->empty() || !boot || *boot != boot_id || !pid || !start)
    return std::nullopt;
  const std::int64_t max_age_ms = kHandoverMaxAge.count() * 1000;
  const std::int64_t slack_ms = kClockSlack.count() * 1000;
  if (left_at_ms < now_ms - max_age_ms || left_at_ms > now_ms + slack_ms) return std::nullopt;
  return Handover{std::string(*caller), static_cast<pid_t>(*pid),
                  static_cast<std::uint64_t>(*start)};
}

// The content of the handover file at `path` (at most kMaxHandoverBytes) and its time.
std::optional<std::pair<std::string, std::int64_t>> read_handover(const std::string& path) {
  OpenedFile opened = try_open_regular_file(path, O_RDONLY);
  struct stat st {};
  if (opened.status != FileStatus::ok || ::fstat(opened.fd.get(), &st) != 0 ||
      st.st_size > static_cast<off_t>(kMaxHandoverBytes))
    return std::nullopt;
  char buffer[kMaxHandoverBytes];
  const ssize_t n = ::read(opened.fd.get(), buffer, sizeof buffer);
  if (n <= 0) return std::nullopt;
  const std::int64_t left_at_ms =
      static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
  return std::make_pair(std::string(buffer, static_cast<std::size_t>(n)), left_at_ms);
}

// The host pid and start time a handover's file name gives; nullopt for another name.
std::optional<std::pair<pid_t, std::uint64_t>> named_host(const char* name) {
  char* end = nullptr;
  const long pid = std::strtol(name, &end, 10);
  if (end == name || *end != '-' || pid <= 0) return std::nullopt;
  const char* start_text = end + 1;
  const unsigned long long start = std::strtoull(start_text, &end, 10);
  if (end == start_text || *end != '-' || std::strstr(end, ".json") == nullptr) return std::nullopt;
  return std::make_pair(static_cast<pid_t>(pid), static_cast<std::uint64_t>(start));
}

// Removes the handovers in `dir` that count for nothing: older than the age bound, of a host
// that is gone, or temporary files a killed hook left.
void prune(const std::string& dir, std::chrono::system_clock::time_point now) {
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) return;
  const auto oldest = std::chrono::system_clock::to_time_t(now - kHandoverMaxAge);
  while (const dirent* entry = ::readdir(listing)) {
    if (entry->d_name[0] == '.') continue;
    const std::string path = dir + "/" + entry->d_name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    const auto host = named_host(entry->d_name);
    bool gone = st.st_mtime < oldest;
    if (!gone && host && std::strstr(entry->d_name, ".tmp.") == nullptr) {
      const auto link = process_link(host->first);
      gone = !link || link->starttime_ticks != host->second;
    }
    if (gone) ::unlink(path.c_str());
  }
  ::closedir(listing);
}

std::string uid_text(uid_t uid) {
  return std::to_string(static_cast<unsigned long>(uid));
}

// Why `path` is not a directory private to this user; nullopt when it is.
std::optional<std::string> private_problem(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return path + " cannot be read: " + std::strerror(errno);
  if (S_ISLNK(st.st_mode)) return path + " is a symbolic link";
  if (!S_ISDIR(st.st_mode)) return path + " is not a directory";
  if (st.st_uid != ::geteuid()) {
    return path + " belongs to uid " + uid_text(st.st_uid) + ", not to this user (uid " +
           uid_text(::geteuid()) + ")";
  }
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return path + " is open to group or others (mode " + mode + ")";
  }
  return std::nullopt;
}

}  // namespace

std::string handover_directory() {
  const std::string runtime = "/run/user/" + uid_text(::geteuid());
  if (!private_problem(runtime)) return runtime + "/fleet-hooks";
  // No runtime directory of the user's (a container, a CI runner, su): the user's own state
  // directory, which no other user can create first, as they can any name in /tmp.
  const std::string home = env_value("HOME");
  struct stat st {};
  if (home.starts_with("/") && ::stat(home.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
      st.st_uid == ::geteuid()) {
    const std::string state = home + "/.local/state/fleet-hooks";
    try {
      ensure_directory(state);
    } catch (const Error&) {
      return state + "/handover";  // refused as not private, saying why, when used
    }
    return state + "/handover";
  }
  return "/tmp/fleet-hooks-" + uid_text(::geteuid());
}

Result<std::string> private_directory(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Result<std::string>::failure("cannot create " + dir + ": " + std::strerror(errno));
  }
  if (const auto problem = private_problem(dir)) {
    return Result<std::string>::failure(
        *problem +
        ", so it cannot hold caller handovers: remove it (the suite recreates it, "
        "mode 0700)");
  }
  return dir;
}

std::optional<std::string> leave_caller_handover(const std::string& dir, std::string_view caller,
                                                 pid_t self,
                                                 std::chrono::system_clock::time_point now) {
  if (const auto problem = id_problem("the caller's session id", caller)) return problem;
  const std::vector<ProcessLink> chain = ancestors(self, Walk::to_host);
  if (chain.empty() || is_shell(chain.back().name)) {
    return std::string("no agent CLI process was found among this hook's ancestors");
  }
  const std::optional<std::string> boot = current_boot_id();
  if (!boot) return std::string("the boot id cannot be read");
  const Result<std::string> place = private_directory(dir);
  if (!place) return place.problem();
  try {
    // Only a call that writes a new handover lists the directory: a renewal (each later call
    // of the same caller in the same CLI process) leaves no new file to prune for.
    if (renew_or_replace(dir + "/" + file_name(chain.back(), caller),
                         handover_json(chain.back(), caller, *boot), now))
      prune(dir, now);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

namespace {

constexpr std::string_view kCallPrefix = "call-";

// "call-<first digits of the call id's SHA-256>.json"
std::string call_file_name(std::string_view call_id) {
  return std::string(kCallPrefix) + sha256_hex(call_id).substr(0, 2 * kCallerDigits) + ".json";
}

std::string call_json(std::string_view caller, std::string_view call_id,
                      const std::string& boot_id) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("caller");
  writer.String(caller.data(), static_cast<rapidjson::SizeType>(caller.size()));
  writer.Key("call");
  writer.String(call_id.data(), static_cast<rapidjson::SizeType>(call_id.size()));
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
  const std::string path = dir + "/" + call_file_name(call_id);
  const std::string content = call_json(caller, call_id, *boot);
  try {
    // A call's id is new: one write into a new file is enough (its launch reads it only after
    // this hook has exited, and a torn file reads as none, which refuses). A file already there
    // (the same call's hook run twice) is renewed or replaced as the others are.
    UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.get() >= 0) {
      write_all(fd.get(), content, path);
      const timespec times[2] = {timespec_of(now), timespec_of(now)};
      ::futimens(fd.get(), times);
    } else {
      renew_or_replace(path, content, now);
    }
  } catch (const Error& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

namespace {

constexpr std::string_view kStatePrefix = "state-";

std::string state_file_name(std::string_view caller) {
  return std::string(kStatePrefix) + sha256_hex(caller).substr(0, 2 * kCallerDigits) + ".json";
}

}  // namespace

std::optional<std::string> leave_state_handover(const std::string& dir, std::string_view caller,
                                                const std::string& state_dir,
                                                std::chrono::system_clock::time_point now) {
  if (const auto problem = id_problem("the caller's session id", caller)) return problem;
  if (!state_dir.starts_with("/")) return std::string("the state directory is not absolute");
  const std::optional<std::string> boot = current_boot_id();
  if (!boot) return std::string("the boot id cannot be read");
  const Result<std::string> place = private_directory(dir);
  if (!place) return place.problem();
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("caller");
  writer.String(caller.data(), static_cast<rapidjson::SizeType>(caller.size()));
  writer.Key("state_dir");
  writer.String(state_dir.c_str(), static_cast<rapidjson::SizeType>(state_dir.size()));
  writer.Key("boot_id");
  writer.String(boot->c_str());
  writer.EndObject();
  try {
    renew_or_replace(dir + "/" + state_file_name(caller),
                     std::string(buffer.GetString(), buffer.GetSize()) + "\n", now);
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
  const std::int64_t age_ms = unix_ms(now) - read->second;
  if (named != caller || !state_dir || !state_dir->starts_with("/") ||
      string_member(*parsed, "boot_id") != *boot || age_ms > kHandoverMaxAge.count() * 1000 ||
      age_ms < -kClockSlack.count() * 1000)
    return std::nullopt;
  return std::string(*state_dir);
}

HandedOverCaller caller_of_call(const std::string& dir, std::string_view call_id,
                                std::chrono::system_clock::time_point now) {
  using Status = HandedOverCaller::Status;
  struct stat st {};
  if (::lstat(dir.c_str(), &st) == 0) {
    if (const auto problem = private_problem(dir))
      return {Status::untrusted, "", *problem + ", so no caller handover there is trusted"};
  }
  const std::string none =
      "no resume-guard hook handed over the caller of the dispatch call " + std::string(call_id) +
      " in the last " + std::to_string(kHandoverMaxAge.count() / 60) +
      " minutes (resume-guard not wired on the dispatch tool, or not trusted, or the call's "
      "_meta is not this launch's)";
  const std::optional<std::string> boot = current_boot_id();
  const auto read = boot ? read_handover(dir + "/" + call_file_name(call_id)) : std::nullopt;
  prune_calls(dir, now);
  if (!read) return {Status::none, "", none};
  const Result<rapidjson::Document> parsed = parse_json_object(read->first);
  if (!parsed) return {Status::none, "", none};
  const auto caller = string_member(*parsed, "caller");
  const auto call = string_member(*parsed, "call");
  const auto left_boot = string_member(*parsed, "boot_id");
  const std::int64_t age_ms = unix_ms(now) - read->second;
  if (!caller || caller->empty() || call != call_id || left_boot != *boot ||
      age_ms > kHandoverMaxAge.count() * 1000 || age_ms < -kClockSlack.count() * 1000)
    return {Status::none, "", none};
  return {Status::found, std::string(*caller), ""};
}

HandedOverCaller caller_from_handover(const std::string& dir, pid_t self,
                                      std::chrono::system_clock::time_point now) {
  using Status = HandedOverCaller::Status;
  struct stat st {};
  const bool exists = ::lstat(dir.c_str(), &st) == 0;
  if (const auto problem = exists ? private_problem(dir) : std::nullopt) {
    return {Status::untrusted, "", *problem + ", so no caller handover there is trusted"};
  }
  const std::vector<ProcessLink> chain = ancestors(self, Walk::to_launch);
  const std::optional<std::string> boot = current_boot_id();
  DIR* listing = exists && boot ? ::opendir(dir.c_str()) : nullptr;
  std::size_t nearest = chain.size();
  std::set<std::string> callers;
  while (const dirent* entry = listing != nullptr ? ::readdir(listing) : nullptr) {
    const auto host = named_host(entry->d_name);
    if (!host) continue;
    std::size_t depth = 0;
    while (depth < chain.size() &&
           (chain[depth].pid != host->first || chain[depth].starttime_ticks != host->second))
      ++depth;
    if (depth > nearest || depth == chain.size()) continue;
    const auto read = read_handover(dir + "/" + entry->d_name);
    if (!read) continue;
    const auto handover = counting_handover(read->first, *boot, read->second, unix_ms(now));
    if (!handover || handover->host_pid != host->first ||
        handover->host_starttime_ticks != host->second)
      continue;
    if (depth < nearest) callers.clear();
    nearest = depth;
    callers.insert(handover->caller);
  }
  if (listing != nullptr) ::closedir(listing);
  if (callers.size() == 1) return {Status::found, *callers.begin(), ""};
  if (callers.empty()) {
    return {Status::none, "",
            "no resume-guard hook of an agent CLI above this process handed over its caller in the "
            "last " +
                std::to_string(kHandoverMaxAge.count() / 60) +
                " minutes (resume-guard not wired on the dispatch tool, or not trusted, or this "
                "launch was not started by that CLI's dispatch call)"};
  }
  std::string names;
  for (const std::string& caller : callers) names += (names.empty() ? "" : ", ") + caller;
  return {Status::several, "",
          "the agent CLI process above this launch handed over several callers (" + names +
              "), so which one dispatched this launch is not certain"};
}

}  // namespace fleet
