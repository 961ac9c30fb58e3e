#include "process/handover_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/error.h"
#include "base/files.h"
#include "base/paths.h"
#include "platform/file_times.h"
#include "platform/system_facts.h"

namespace fleet {
namespace {

timespec timespec_of(std::chrono::system_clock::time_point time) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch());
  return {static_cast<time_t>(ns.count() / 1000000000), static_cast<long>(ns.count() % 1000000000)};
}

std::string uid_text(uid_t uid) {
  return std::to_string(static_cast<unsigned long>(uid));
}

}  // namespace

std::int64_t unix_ms(std::chrono::system_clock::time_point time) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
}

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

std::string handover_directory() {
  const std::optional<std::string> runtime = platform::user_runtime_directory();
  if (runtime && !private_problem(*runtime)) return *runtime + "/fleet-hooks";
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
  static std::string found_private;
  if (!dir.empty() && dir == found_private) return dir;
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Result<std::string>::failure("cannot create " + dir + ": " + std::strerror(errno));
  }
  if (const auto problem = private_problem(dir)) {
    return Result<std::string>::failure(
        *problem +
        ", so it cannot hold caller handovers: remove it (the suite recreates it, "
        "mode 0700)");
  }
  found_private = dir;
  return dir;
}

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

void leave_new_file(const std::string& path, const std::string& content,
                    std::chrono::system_clock::time_point now) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (fd.get() < 0) {
    renew_or_replace(path, content, now);
    return;
  }
  write_all(fd.get(), content, path);
  const timespec times[2] = {timespec_of(now), timespec_of(now)};
  ::futimens(fd.get(), times);
}

std::optional<std::pair<std::string, std::int64_t>> read_handover(const std::string& path) {
  OpenedFile opened = try_open_regular_file(path, O_RDONLY);
  struct stat st {};
  if (opened.status != FileStatus::ok || ::fstat(opened.fd.get(), &st) != 0 ||
      st.st_size > static_cast<off_t>(kMaxHandoverBytes))
    return std::nullopt;
  char buffer[kMaxHandoverBytes];
  const ssize_t n = ::read(opened.fd.get(), buffer, sizeof buffer);
  if (n <= 0) return std::nullopt;
  const platform::FileTimes times = platform::file_times(st);
  const std::int64_t left_at_ms = times.mtime_sec * 1000 + times.mtime_nsec / 1000000;
  return std::make_pair(std::string(buffer, static_cast<std::size_t>(n)), left_at_ms);
}

bool handover_counts(std::int64_t left_at_ms, std::int64_t now_ms) {
  return left_at_ms >= now_ms - kHandoverMaxAge.count() * 1000 &&
         left_at_ms <= now_ms + kHandoverClockSlack.count() * 1000;
}

}  // namespace fleet
