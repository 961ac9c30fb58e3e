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
#include "process/handover_file.h"
#include "process/process_identity.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxAncestors = 32;
// How far above a launch its agent CLI may be: the dispatcher, or a wrapper of it (npx, a
// shell) and the dispatcher. A process further up (a terminal, a login session) is never
// taken for the CLI, whatever hook ran beneath it.
constexpr std::size_t kMaxLaunchDepth = 4;
constexpr std::size_t kCallerDigits = 16;

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
  const std::int64_t slack_ms = kHandoverClockSlack.count() * 1000;
  if (left_at_ms < now_ms - max_age_ms || left_at_ms > now_ms + slack_ms) return std::nullopt;
  return Handover{std::string(*caller), static_cast<pid_t>(*pid),
                  static_cast<std::uint64_t>(*start)};
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

}  // namespace

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
