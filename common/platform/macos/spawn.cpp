// Starting a program (process/spawn.h; platform seam, macOS home): fork, then in the child
// only async-signal-safe calls until exec. No cgroup (in_cgroup() is false) and no
// PR_SET_PDEATHSIG: with die_with_parent the child only checks, before exec, that the caller
// is still its parent (else it exits 125); it is not killed when the caller dies later.
#include "process/spawn.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/files.h"

namespace fleet {
namespace {

// What the child reads between fork and exec: written before the fork.
struct ChildPlan {
  char* const* candidates = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  int fds[3] = {-1, -1, -1};  // for 0, 1, 2
  bool new_process_group = true;
  sigset_t mask{};
  sigset_t default_signals{};
  pid_t die_with = 0;
  int release_read = -1;
  int release_write = -1;
  int error_write = -1;
};

// execvp without its /bin/sh fallback, as on Linux: ENOENT, ENOTDIR, ENAMETOOLONG (and
// EACCES, remembered) go on to the next candidate; any other error ends the search.
int exec_search(const ChildPlan& plan) {
  int result = ENOENT;
  for (char* const* candidate = plan.candidates; *candidate != nullptr; ++candidate) {
    ::execve(*candidate, plan.argv, plan.envp);
    const int error = errno;
    if (error == EACCES) {
      result = EACCES;
    } else if (error != ENOENT && error != ENOTDIR && error != ENAMETOOLONG) {
      return error;
    }
  }
  return result;
}

[[noreturn]] void run_child(const ChildPlan& plan) {
  if (plan.release_write >= 0) ::close(plan.release_write);
  if (plan.new_process_group) ::setpgid(0, 0);
  if (plan.die_with != 0 && ::getppid() != plan.die_with) ::_exit(exit_status::wrapper_failure);
  for (int target = 0; target < 3; ++target) {
    const int fd = plan.fds[target];
    if (fd < 0) continue;
    const int done = fd == target ? ::fcntl(fd, F_SETFD, 0) : ::dup2(fd, target);
    if (done < 0) ::_exit(exit_status::wrapper_failure);
  }
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sigismember(&plan.default_signals, sig) == 1) ::sigaction(sig, &default_action, nullptr);
  }
  if (plan.release_read >= 0) {
    char go = 0;
    ssize_t n;
    do {
      n = ::read(plan.release_read, &go, 1);
    } while (n < 0 && errno == EINTR);
    if (n != 1) ::_exit(exit_status::wrapper_failure);  // aborted, or the parent died
  }
  ::sigprocmask(SIG_SETMASK, &plan.mask, nullptr);
  const int error = exec_search(plan);
  (void)!::write(plan.error_write, &error, sizeof error);
  ::_exit(error == ENOENT ? exit_status::not_found : exit_status::not_executable);
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

Pipe make_pipe() {
  int fds[2];
  if (::pipe(fds) != 0) throw_errno("cannot create a pipe");
  Pipe pipe;
  pipe.read_end.reset(fds[0]);
  pipe.write_end.reset(fds[1]);
  // No pipe2 on macOS: no other thread of the suite forks meanwhile.
  if (::fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0 || ::fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0)
    throw_errno("cannot create a pipe");
  return pipe;
}

struct Spawned::State {
  std::vector<std::string> args, vars, paths;
  std::vector<char*> c_args, c_vars, c_paths;
  ChildPlan plan;
  pid_t pid = 0;
  UniqueFd release;     // held: our end of the release pipe
  UniqueFd exec_error;  // the child's exec errno, or end of file
  bool finished = false;
};

Spawned::Spawned() = default;
Spawned::Spawned(std::unique_ptr<State> state) : state_(std::move(state)) {}
Spawned::Spawned(Spawned&&) noexcept = default;
Spawned& Spawned::operator=(Spawned&& other) noexcept {
  if (this != &other) {
    if (state_) finish(false);
    state_ = std::move(other.state_);
  }
  return *this;
}
Spawned::~Spawned() {
  if (state_) finish(false);
}

pid_t Spawned::pid() const {
  return state_ ? state_->pid : 0;
}

bool Spawned::in_cgroup() const {
  return false;
}

std::optional<ExecFailure> Spawned::release() {
  if (!state_ || state_->finished) return std::nullopt;
  if (state_->release) {
    const char go = 1;
    ssize_t n;
    do {
      n = ::write(state_->release.get(), &go, 1);
    } while (n < 0 && errno == EINTR);
  }
  state_->release.reset();
  int error = 0;
  std::size_t got = 0;
  char* bytes = reinterpret_cast<char*>(&error);
  char rest;
  // The errno when the exec failed; end of file once the child has exec'd or exited.
  for (;;) {
    const ssize_t r = got < sizeof error
                          ? ::read(state_->exec_error.get(), bytes + got, sizeof error - got)
                          : ::read(state_->exec_error.get(), &rest, 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    if (got < sizeof error) got += static_cast<std::size_t>(r);
  }
  finish(true);
  if (got != sizeof error || error == 0) return std::nullopt;
  return ExecFailure{error};
}

void Spawned::abort() {
  if (state_) finish(false);
}

void Spawned::finish(bool released) {
  if (state_->finished) return;
  state_->release.reset();  // a held child exits 125
  if (!released) {
    char buffer[64];
    for (;;) {
      const ssize_t r = ::read(state_->exec_error.get(), buffer, sizeof buffer);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
    }
  }
  state_->exec_error.reset();
  state_->finished = true;
}

Spawned spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
              const SpawnOptions& options) {
  if (argv.empty()) throw Error("no command to run");
  auto state = std::make_unique<Spawned::State>();
  state->args = argv;
  state->vars = env;
  state->paths = exec_candidates(argv.front());
  state->c_args = c_strings(state->args);
  state->c_vars = c_strings(state->vars);
  state->c_paths = c_strings(state->paths);

  Pipe error = make_pipe();
  state->exec_error = std::move(error.read_end);
  UniqueFd error_write = std::move(error.write_end), release_read;
  if (options.hold) {
    Pipe release = make_pipe();
    release_read = std::move(release.read_end);
    state->release = std::move(release.write_end);
  }

  ChildPlan& plan = state->plan;
  plan.candidates = state->c_paths.data();
  plan.argv = state->c_args.data();
  plan.envp = state->c_vars.data();
  plan.fds[0] = options.stdin_fd;
  plan.fds[1] = options.stdout_fd;
  plan.fds[2] = options.stderr_fd;
  plan.new_process_group = options.new_process_group;
  plan.default_signals = options.default_signals;
  plan.die_with = options.die_with_parent ? ::getpid() : 0;
  plan.release_read = release_read.get();
  plan.release_write = state->release.get();
  plan.error_write = error_write.get();

  // Every signal blocked from the fork until the child sets its own mask before exec: no
  // handler of ours runs in the child.
  sigset_t all, caller_mask;
  sigfillset(&all);
  ::sigprocmask(SIG_SETMASK, &all, &caller_mask);
  plan.mask = options.mask.value_or(caller_mask);
  const pid_t pid = ::fork();
  if (pid == 0) run_child(plan);
  const int fork_error = errno;
  ::sigprocmask(SIG_SETMASK, &caller_mask, nullptr);
  if (pid < 0) throw Error(std::string("cannot start a process: ") + std::strerror(fork_error));
  if (options.new_process_group) ::setpgid(pid, pid);  // so the group exists on both sides
  state->pid = pid;
  return Spawned(std::move(state));
}

int wait_child(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace fleet

namespace fleet {

void close_descriptors_from(int first) {
  // No close_range on macOS: each descriptor the process may have (getdtablesize() is its
  // RLIMIT_NOFILE limit).
  const int limit = ::getdtablesize();
  for (int fd = first; fd < limit; ++fd) ::close(fd);
}

}  // namespace fleet
