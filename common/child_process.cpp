#include "child_process.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include "error.h"

extern char** environ;

namespace fleet {
namespace {

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

void make_pipe(UniqueFd& read_end, UniqueFd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("cannot create a pipe");
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
}

// The paths execvp would try for `name`, in order: `name` itself when it holds a '/', else
// each $PATH entry (an empty entry is the current directory) joined with it.
std::vector<std::string> exec_candidates(const std::string& name) {
  if (name.find('/') != std::string::npos) return {name};
  const char* path = std::getenv("PATH");
  const std::string search = path != nullptr ? path : "/usr/local/bin:/bin:/usr/bin";
  std::vector<std::string> candidates;
  std::size_t start = 0;
  for (;;) {
    const std::size_t colon = search.find(':', start);
    const std::string directory = search.substr(start, colon - start);
    candidates.push_back((directory.empty() ? std::string(".") : directory) + "/" + name);
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return candidates;
}

// execvp without its /bin/sh fallback: ENOENT, ENOTDIR (and EACCES, remembered) go on to the
// next candidate; any other error ends the search. Returns the errno to report.
int exec_search(char* const* candidates, char* const* argv, char* const* envp) {
  int result = ENOENT;
  for (char* const* candidate = candidates; *candidate != nullptr; ++candidate) {
    ::execve(*candidate, argv, envp);
    const int error = errno;
    if (error == EACCES) {
      result = EACCES;
    } else if (error != ENOENT && error != ENOTDIR && error != ENAMETOOLONG) {
      return error;
    }
  }
  return result;
}

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void run_child(char* const* candidates, char* const* argv, char* const* envp, int out,
                            int err, int release, int exec_error, const sigset_t& mask,
                            bool keep_sigpipe_ignored, pid_t die_with,
                            const HeldChild& parent_ends) {
  // The parent's ends: the release pipe must see end of file if the parent dies.
  ::close(parent_ends.out.get());
  ::close(parent_ends.err.get());
  ::close(parent_ends.release.get());
  ::close(parent_ends.exec_error.get());
  ::setpgid(0, 0);
  if (die_with != 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != die_with) ::_exit(125);  // the wrapper died before the prctl
  }
  if (::dup2(out, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0) ::_exit(125);
  if (!keep_sigpipe_ignored) ::signal(SIGPIPE, SIG_DFL);
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
  char go = 0;
  ssize_t n;
  do {
    n = ::read(release, &go, 1);
  } while (n < 0 && errno == EINTR);
  if (n != 1) ::_exit(125);  // the wrapper gave up before releasing us
  const int error = exec_search(candidates, argv, envp);
  (void)!::write(exec_error, &error, sizeof error);
  ::_exit(exec_failure_exit_code(error));
}

}  // namespace

HeldChild spawn_held(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                     const sigset_t& child_mask, bool keep_sigpipe_ignored, bool die_with_parent,
                     int cgroup_fd) {
  if (argv.empty()) throw Error("no command to run");
  HeldChild child;
  UniqueFd out_write, err_write, release_read, error_write;
  make_pipe(child.out, out_write);
  make_pipe(child.err, err_write);
  make_pipe(release_read, child.release);
  make_pipe(child.exec_error, error_write);

  std::vector<std::string> args = argv;
  std::vector<std::string> vars = env;
  const std::vector<char*> c_args = c_strings(args);
  const std::vector<char*> c_env = c_strings(vars);
  std::vector<std::string> paths = exec_candidates(argv.front());
  const std::vector<char*> c_paths = c_strings(paths);
  const pid_t parent = ::getpid();

  pid_t pid = -1;
  if (cgroup_fd >= 0) {
    // The wrapper is single-threaded, and the child makes only async-signal-safe calls
    // before exec: a raw clone3 is as safe as fork here.
    struct clone_args clone {};
    clone.flags = CLONE_INTO_CGROUP;
    clone.exit_signal = SIGCHLD;
    clone.cgroup = static_cast<std::uint64_t>(cgroup_fd);
    pid = static_cast<pid_t>(::syscall(SYS_clone3, &clone, sizeof clone));
    child.in_cgroup = pid >= 0;
  }
  if (pid < 0) pid = ::fork();
  if (pid < 0) throw_errno("cannot fork");
  if (pid == 0) {
    run_child(c_paths.data(), c_args.data(), c_env.data(), out_write.get(), err_write.get(),
              release_read.get(), error_write.get(), child_mask, keep_sigpipe_ignored,
              die_with_parent ? parent : 0, child);
  }
  ::setpgid(pid, pid);  // also here, so the group exists before either side goes on
  child.pid = pid;
  return child;
}

int release_child(HeldChild& child) {
  const char go = 1;
  ssize_t n;
  do {
    n = ::write(child.release.get(), &go, 1);
  } while (n < 0 && errno == EINTR);
  child.release.reset();
  int error = 0;
  std::size_t got = 0;
  while (got < sizeof error) {
    const ssize_t r =
        ::read(child.exec_error.get(), reinterpret_cast<char*>(&error) + got, sizeof error - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  child.exec_error.reset();
  return got == sizeof error ? error : 0;
}

int wait_child(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

int exec_failure_exit_code(int error) {
  return error == ENOENT ? 127 : 126;
}

std::vector<std::string> environment_with(const std::vector<std::string>& overrides) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view var(*entry);
    const std::string_view name = var.substr(0, var.find('='));
    bool replaced = false;
    for (const auto& override_entry : overrides) {
      replaced =
          replaced || std::string_view(override_entry).substr(0, override_entry.find('=')) == name;
    }
    if (!replaced) env.emplace_back(var);
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

}  // namespace fleet
