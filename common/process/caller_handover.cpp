#include "process/caller_handover.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
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
// How far above a launch an agent CLI that no recogniser knows may be: the dispatcher, or a
// wrapper of it (npx, a shell) and the dispatcher. A process further up (a terminal, a login
// session) is never taken for the CLI, whatever hook ran beneath it. A recognised CLI counts
// at any depth (`npx` and a shell put a real one five levels up).
constexpr std::size_t kMaxLaunchDepth = 4;
// How long the handover of a host that still runs is kept after it lapsed: long enough to
// tell "this CLI's handover lapsed" (refused) from "this CLI never handed one over".
constexpr std::chrono::hours kLapsedKept{24};
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
  while (link && link->parent > 1 && chain.size() < kMaxAncestors) {
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
  std::int64_t left_at_ms = 0;
};

std::optional<std::int64_t> integer_member(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* value = member(object, key);
  if (value == nullptr || !value->IsInt64()) return std::nullopt;
  return value->GetInt64();
}

// The handover in `text`, left at `left_at_ms`, when it is one of boot `boot_id` dated no later
// than `now_ms` allows (a clock set back); whether it still counts is the caller's question.
std::optional<Handover> parse_handover(std::string_view text, const std::string& boot_id,
                                       std::int64_t left_at_ms, std::int64_t now_ms) {
  const Result<rapidjson::Document> parsed = parse_json_object(text);
  if (!parsed) return std::nullopt;
  const auto caller = string_member(*parsed, "caller");
  const auto boot = string_member(*parsed, "boot_id");
  const auto pid = integer_member(*parsed, "host_pid");
  const auto start = integer_member(*parsed, "host_starttime_ticks");
  if (!caller || caller->empty() || !boot || *boot != boot_id || !pid || !start)
    return std::nullopt;
  if (left_at_ms > now_ms + kHandoverClockSlack.count() * 1000) return std::nullopt;
  return Handover{std::string(*caller), static_cast<pid_t>(*pid),
                  static_cast<std::uint64_t>(*start), left_at_ms};
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

// Removes the handovers in `dir` that tell nothing: of a host that is gone, lapsed longer than
// kLapsedKept ago, or temporary files a killed hook left.
void prune(const std::string& dir, std::chrono::system_clock::time_point now) {
  DIR* listing = ::opendir(dir.c_str());
  if (listing == nullptr) return;
  const auto lapsed = std::chrono::system_clock::to_time_t(now - kHandoverMaxAge);
  const auto oldest = std::chrono::system_clock::to_time_t(now - kHandoverMaxAge - kLapsedKept);
  while (const dirent* entry = ::readdir(listing)) {
    if (entry->d_name[0] == '.') continue;
    const std::string path = dir + "/" + entry->d_name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) continue;
    const auto host = named_host(entry->d_name);
    const bool temporary = std::strstr(entry->d_name, ".tmp.") != nullptr;
    bool gone = st.st_mtime < (host && !temporary ? oldest : lapsed);
    if (!gone && host && !temporary) {
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

LaunchAncestry launch_ancestry(pid_t self, const AgentRecognizer& recognize) {
  LaunchAncestry above;
  above.chain = ancestors(self, Walk::to_launch);
  for (std::size_t depth = 0; recognize && depth < above.chain.size(); ++depth) {
    std::string agent = recognize(above.chain[depth]);
    if (agent.empty()) continue;
    above.agent = std::move(agent);
    above.agent_pid = above.chain[depth].pid;
    above.chain.resize(depth + 1);
    return above;
  }
  if (above.chain.size() > kMaxLaunchDepth) above.chain.resize(kMaxLaunchDepth);
  return above;
}

HandedOverCaller caller_from_handover(const std::string& dir, const LaunchAncestry& above,
                                      std::chrono::system_clock::time_point now) {
  using Status = HandedOverCaller::Status;
  struct stat st {};
  const bool exists = ::lstat(dir.c_str(), &st) == 0;
  if (const auto problem = exists ? private_problem(dir) : std::nullopt) {
    return {.status = Status::untrusted,
            .caller = "",
            .problem = *problem + ", so no caller handover there is trusted"};
  }
  const std::vector<ProcessLink>& chain = above.chain;
  const std::optional<std::string> boot = current_boot_id();
  DIR* listing = exists && boot ? ::opendir(dir.c_str()) : nullptr;
  const std::int64_t now_ms = unix_ms(now);
  std::size_t nearest = chain.size();
  std::set<std::string> callers;  // of the nearest host, those that count
  std::int64_t last_left_ms = 0;  // the nearest host's latest handover
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
    const auto handover = parse_handover(read->first, *boot, read->second, now_ms);
    if (!handover || handover->host_pid != host->first ||
        handover->host_starttime_ticks != host->second)
      continue;
    if (depth < nearest) {
      callers.clear();
      last_left_ms = 0;
    }
    nearest = depth;
    last_left_ms = std::max(last_left_ms, handover->left_at_ms);
    if (handover_counts(handover->left_at_ms, now_ms)) callers.insert(handover->caller);
  }
  if (listing != nullptr) ::closedir(listing);
  HandedOverCaller handed{.status = Status::none, .caller = "", .problem = ""};
  const std::string minutes = std::to_string(kHandoverMaxAge.count() / 60) + " minutes";
  if (callers.size() == 1) {
    handed.status = Status::found;
    handed.caller = *callers.begin();
  } else if (callers.size() > 1) {
    std::string names;
    for (const std::string& caller : callers) names += (names.empty() ? "" : ", ") + caller;
    handed.status = Status::several;
    handed.problem = "the agent CLI process above this launch (pid " +
                     std::to_string(chain[nearest].pid) + ") handed over several callers (" +
                     names + ") in the last " + minutes +
                     ": it runs several sessions, and which one dispatched this launch is not "
                     "certain (pass the call on with --mcp-call, which names its caller where the "
                     "CLI allows it, or --caller-session-id)";
  } else if (nearest < chain.size()) {
    handed.status = Status::lapsed;
    handed.problem = "the agent CLI process above this launch (pid " +
                     std::to_string(chain[nearest].pid) + ") handed its caller over " +
                     std::to_string((now_ms - last_left_ms) / 60000) +
                     " minutes ago, more than the " + minutes +
                     " a handover counts: this launch is not certain to come from its dispatch "
                     "call, and a CLI further up is never taken instead (start the launch "
                     "within " +
                     minutes + " of the call, or pass --caller-session-id)";
  } else {
    handed.problem =
        (above.agent.empty() ? "no resume-guard hook of an agent CLI above this process"
                             : "the agent CLI above this launch, " + above.agent + " (pid " +
                                   std::to_string(above.agent_pid) + "),") +
        " handed over its caller in the last " + minutes +
        " (resume-guard not wired on the dispatch tool, or not trusted, or this "
        "launch was not started by that CLI's dispatch call)";
  }
  return handed;
}

}  // namespace fleet
