#include "process/process_identity.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <thread>
#include <vector>

#include "platform/process_table.h"

namespace fleet {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(10);

// True when a member of `pgid` that is not a zombie exists, by scanning the process table.
bool group_has_live_member(pid_t pgid) {
  const std::vector<pid_t> pids = platform::process_ids();
  if (pids.empty()) return true;  // cannot tell: assume alive
  for (pid_t pid : pids) {
    const auto entry = platform::read_process(pid);
    if (entry && entry->group == pgid && !entry->dead) return true;
  }
  return false;
}

// Waits until the group is empty (true) or `deadline` has passed (false).
bool wait_group_gone(pid_t pgid, std::chrono::steady_clock::time_point deadline, void (*reap)()) {
  for (;;) {
    if (reap != nullptr) reap();
    if (!group_alive(pgid)) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace

std::optional<std::string> current_boot_id() {
  static const std::optional<std::string> boot = platform::read_boot_id();
  return boot;
}

std::optional<ProcessIdentity> identify_process(pid_t pid) {
  const auto entry = platform::read_process(pid);
  if (!entry || entry->dead) return std::nullopt;
  // Without a boot id the identity is recorded with an empty one, which no reader of a
  // record accepts: such a process is never signalled on the record's word.
  return ProcessIdentity{pid, entry->start, current_boot_id().value_or("")};
}

std::optional<ProcessLink> process_link(pid_t pid) {
  const auto entry = platform::read_process(pid);
  if (!entry || entry->dead) return std::nullopt;
  return ProcessLink{pid, entry->start, entry->parent, entry->name, entry->owner};
}

std::vector<std::string> process_arguments(pid_t pid) {
  std::vector<std::string> arguments;
  const std::optional<std::string> text = platform::read_arguments(pid);
  if (!text) return arguments;
  for (std::size_t at = 0; at < text->size();) {
    const std::size_t end = std::min(text->find('\0', at), text->size());
    arguments.emplace_back(*text, at, end - at);
    at = end + 1;
  }
  return arguments;
}

std::optional<std::string> process_environment_variable(pid_t pid, std::string_view name) {
  const std::optional<std::string> text = platform::read_environment(pid);
  if (!text) return std::nullopt;
  for (std::size_t at = 0; at < text->size();) {
    const std::size_t end = std::min(text->find('\0', at), text->size());
    const std::string_view entry(text->data() + at, end - at);
    if (entry.size() > name.size() && entry.substr(0, name.size()) == name &&
        entry[name.size()] == '=')
      return std::string(entry.substr(name.size() + 1));
    at = end + 1;
  }
  return std::nullopt;
}

Liveness check_process(const ProcessIdentity& recorded) {
  const std::optional<std::string> boot = current_boot_id();
  if (!boot || recorded.boot_id != *boot) return Liveness::reused;
  const auto entry = platform::read_process(recorded.pid);
  if (!entry) return Liveness::gone;
  if (entry->start != recorded.starttime_ticks) return Liveness::reused;
  return entry->dead ? Liveness::exited : Liveness::same;
}

bool group_alive(pid_t pgid) {
  if (pgid <= 1) return false;
  if (::kill(-pgid, 0) != 0 && errno == ESRCH) return false;
  return group_has_live_member(pgid);
}

GroupStop::GroupStop(pid_t pgid, std::chrono::milliseconds grace, std::function<void(int)> send)
    : pgid_(pgid), grace_(grace), send_(std::move(send)) {}

void GroupStop::send(int sig) const {
  if (send_) {
    send_(sig);
  } else if (pgid_ > 1) {
    ::kill(-pgid_, sig);
  }
}

void GroupStop::begin() {
  if (begun_) return;
  begun_ = true;
  kill_due_ = Clock::now() + grace_;
  send(SIGTERM);
}

std::optional<GroupStop::Clock::time_point> GroupStop::kill_due() const {
  if (!begun_ || killed_) return std::nullopt;
  return kill_due_;
}

bool GroupStop::kill_if_due(Clock::time_point now) {
  if (!begun_ || killed_ || now < kill_due_) return false;
  kill();
  return true;
}

void GroupStop::kill() {
  if (killed_) return;
  begun_ = killed_ = true;
  send(SIGKILL);
}

StopResult stop_process_group(pid_t pgid, std::chrono::milliseconds grace,
                              std::chrono::milliseconds kill_wait, void (*reap)()) {
  StopResult result;
  if (pgid <= 1) {
    result.gone = true;
    return result;
  }
  result.was_alive = group_alive(pgid);
  if (!result.was_alive) {
    result.gone = true;
    return result;
  }
  GroupStop stop(pgid, grace);
  stop.begin();
  if (wait_group_gone(pgid, *stop.kill_due(), reap)) {
    result.gone = true;
    return result;
  }
  result.killed = true;
  stop.kill();
  result.gone = wait_group_gone(pgid, std::chrono::steady_clock::now() + kill_wait, reap);
  return result;
}

}  // namespace fleet
