#include "child_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>

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

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void run_child(char* const* argv, char* const* envp, int out, int err, int release,
                            int exec_error, const sigset_t& mask, bool keep_sigpipe_ignored,
                            const HeldChild& parent_ends) {
  // The parent's ends: the release pipe must see end of file if the parent dies.
  ::close(parent_ends.out.get());
  ::close(parent_ends.err.get());
  ::close(parent_ends.release.get());
  ::close(parent_ends.exec_error.get());
  ::setpgid(0, 0);
  if (::dup2(out, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0) ::_exit(125);
  if (!keep_sigpipe_ignored) ::signal(SIGPIPE, SIG_DFL);
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
  char go = 0;
  ssize_t n;
  do {
    n = ::read(release, &go, 1);
  } while (n < 0 && errno == EINTR);
  if (n != 1) ::_exit(125);  // the wrapper gave up before releasing us
  ::execvpe(argv[0], argv, envp);
  const int error = errno;
  (void)!::write(exec_error, &error, sizeof error);
  ::_exit(exec_failure_exit_code(error));
}

}  // namespace

HeldChild spawn_held(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                     const sigset_t& child_mask, bool keep_sigpipe_ignored) {
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

  const pid_t pid = ::fork();
  if (pid < 0) throw_errno("cannot fork");
  if (pid == 0) {
    run_child(c_args.data(), c_env.data(), out_write.get(), err_write.get(), release_read.get(),
              error_write.get(), child_mask, keep_sigpipe_ignored, child);
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
