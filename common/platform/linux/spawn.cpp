// Starting a program (process/spawn.h; platform seam, Linux home: clone3, raw system calls).
#include "process/spawn.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "base/error.h"
#include "base/exit_status.h"
#include "base/files.h"

#if defined(__x86_64__)
#define FLEET_SPAWN_SHARES_MEMORY 1
// fleet_clone3_run(args, size, fn, arg): clone3; in the child (on the stack given in `args`)
// calls fn(arg), which never returns. Returns the child's pid, or -errno, in the parent.
// The kernel keeps every register but rax, rcx and r11 across the call, in both processes.
extern "C" long fleet_clone3_run(struct clone_args* args, std::size_t size, void (*fn)(void*),
                                 void* arg);
asm(R"(
  .pushsection .text
  .globl fleet_clone3_run
  .type fleet_clone3_run, @function
fleet_clone3_run:
  movq %rdx, %r8
  movq %rcx, %r9
  movl $435, %eax
  syscall
  testq %rax, %rax
  jz 1f
  ret
1:
  xorl %ebp, %ebp
  movq %r9, %rdi
  call *%r8
  hlt
  .size fleet_clone3_run, .-fleet_clone3_run
  .popsection
)");
#endif

namespace fleet {
namespace {

constexpr std::size_t kChildStack = 64 * 1024;

// What the child reads between clone and exec: written before the clone, never after.
struct ChildPlan {
  char* const* candidates = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  int fds[3] = {-1, -1, -1};  // for 0, 1, 2
  bool new_process_group = true;
  sigset_t mask{};
  unsigned long long default_signals = 0;  // bit N-1: signal N goes back to SIG_DFL
  pid_t die_with = 0;                      // the parent's pid with die_with_parent
  int release_read = -1;                   // held: the byte that lets it exec, or end of file
  int release_write = -1;                  // held: the parent's end, closed in the child
  int error_write = -1;                    // the exec's errno goes here
};

// The child's system calls: raw where it shares the parent's memory (errno is the parent's),
// returning -errno on failure either way.
#if FLEET_SPAWN_SHARES_MEMORY
[[gnu::always_inline]] inline long sys(long number, long a = 0, long b = 0, long c = 0,
                                       long d = 0) {
  long result;
  register long r10 asm("r10") = d;
  asm volatile("syscall"
               : "=a"(result)
               : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10)
               : "rcx", "r11", "memory");
  return result;
}
#else
inline long sys(long number, long a = 0, long b = 0, long c = 0, long d = 0) {
  const long result = ::syscall(number, a, b, c, d);
  return result < 0 ? -errno : result;
}
#endif

template <typename T>
long arg(T value) {
  return (long)value;  // NOLINT: the system call ABI takes every argument as a long
}

// The child's code runs without sanitizer instrumentation: it must not touch the parent's
// thread state (a sanitizer's fake stacks and reports live there).
#define FLEET_CHILD_CODE __attribute__((no_sanitize("address", "undefined")))

[[noreturn]] FLEET_CHILD_CODE void child_exit(int status) {
  for (;;) sys(SYS_exit_group, status);
}

// execvp without its /bin/sh fallback: ENOENT, ENOTDIR, ENAMETOOLONG (and EACCES,
// remembered) go on to the next candidate; any other error ends the search.
FLEET_CHILD_CODE int exec_search(const ChildPlan& plan) {
  int result = ENOENT;
  for (char* const* candidate = plan.candidates; *candidate != nullptr; ++candidate) {
    const int error =
        static_cast<int>(-sys(SYS_execve, arg(*candidate), arg(plan.argv), arg(plan.envp)));
    if (error == EACCES) {
      result = EACCES;
    } else if (error != ENOENT && error != ENOTDIR && error != ENAMETOOLONG) {
      return error;
    }
  }
  return result;
}

// The child, between clone and exec.
[[noreturn]] FLEET_CHILD_CODE void run_child(void* context) {
  const ChildPlan& plan = *static_cast<const ChildPlan*>(context);
  // The parent's end: the release pipe must see end of file when the parent dies.
  if (plan.release_write >= 0) sys(SYS_close, plan.release_write);
  if (plan.new_process_group) sys(SYS_setpgid, 0, 0);
  if (plan.die_with != 0) {
    sys(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL);
    if (sys(SYS_getppid) != plan.die_with) child_exit(exit_status::wrapper_failure);
  }
  for (int target = 0; target < 3; ++target) {
    const int fd = plan.fds[target];
    if (fd < 0) continue;
    const long done = fd == target ? sys(SYS_fcntl, fd, F_SETFD, 0) : sys(SYS_dup3, fd, target, 0);
    if (done < 0) child_exit(exit_status::wrapper_failure);
  }
  struct {
    __sighandler_t handler = SIG_DFL;
    unsigned long flags = 0;
    void* restorer = nullptr;
    unsigned long mask = 0;
  } default_action;
  for (int sig = 1; sig <= 64; ++sig) {
    if ((plan.default_signals >> (sig - 1) & 1) != 0)
      sys(SYS_rt_sigaction, sig, arg(&default_action), 0, NSIG / 8);
  }
  if (plan.release_read >= 0) {
    char go = 0;
    long n;
    do {
      n = sys(SYS_read, plan.release_read, arg(&go), 1);
    } while (n == -EINTR);
    if (n != 1) child_exit(exit_status::wrapper_failure);  // aborted, or the parent died
  }
  sys(SYS_rt_sigprocmask, SIG_SETMASK, arg(&plan.mask), 0, NSIG / 8);
  const int error = exec_search(plan);
  sys(SYS_write, plan.error_write, arg(&error), sizeof error);
  // As ExecFailure::exit_status(), written out: the child calls no instrumented code.
  child_exit(error == ENOENT ? exit_status::not_found : exit_status::not_executable);
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Creates the child running run_child(plan); returns its pid or -errno.
#if FLEET_SPAWN_SHARES_MEMORY
pid_t create_child(ChildPlan& plan, void* stack, int cgroup_fd, bool& in_cgroup) {
  struct clone_args clone {};
  clone.flags = CLONE_VM | (cgroup_fd >= 0 ? CLONE_INTO_CGROUP : 0);
  clone.exit_signal = SIGCHLD;
  clone.stack = reinterpret_cast<std::uint64_t>(stack);
  clone.stack_size = kChildStack;
  clone.cgroup = cgroup_fd >= 0 ? static_cast<std::uint64_t>(cgroup_fd) : 0;
  long pid = fleet_clone3_run(&clone, sizeof clone, run_child, &plan);
  in_cgroup = pid > 0 && cgroup_fd >= 0;
  if (pid < 0 && cgroup_fd >= 0 && pid != -ENOSYS) {
    clone.flags = CLONE_VM;  // the cgroup refused it: start it where we are
    clone.cgroup = 0;
    pid = fleet_clone3_run(&clone, sizeof clone, run_child, &plan);
  }
  if (pid == -ENOSYS) {  // Linux < 5.3
    pid = ::clone([](void* p) -> int { run_child(p); }, static_cast<char*>(stack) + kChildStack,
                  CLONE_VM | SIGCHLD, &plan);
    if (pid < 0) pid = -errno;
  }
  return static_cast<pid_t>(pid);
}
#else
pid_t create_child(ChildPlan& plan, void*, int cgroup_fd, bool& in_cgroup) {
  pid_t pid = -1;
  in_cgroup = false;
  if (cgroup_fd >= 0) {
    struct clone_args clone {};
    clone.flags = CLONE_INTO_CGROUP;
    clone.exit_signal = SIGCHLD;
    clone.cgroup = static_cast<std::uint64_t>(cgroup_fd);
    pid = static_cast<pid_t>(::syscall(SYS_clone3, &clone, sizeof clone));
    in_cgroup = pid >= 0;
  }
  if (pid < 0) pid = ::fork();
  if (pid == 0) run_child(&plan);
  return pid < 0 ? -errno : pid;
}
#endif

}  // namespace

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("cannot create a pipe");
  Pipe pipe;
  pipe.read_end.reset(fds[0]);
  pipe.write_end.reset(fds[1]);
  return pipe;
}

struct Spawned::State {
  std::vector<std::string> args, vars, paths;
  std::vector<char*> c_args, c_vars, c_paths;
  ChildPlan plan;
  void* stack = nullptr;  // the child's stack while it shares our memory
  pid_t pid = 0;
  bool in_cgroup = false;
  bool hold = false;
  UniqueFd release;     // held: our end of the release pipe
  UniqueFd exec_error;  // the child's exec errno, or end of file
  bool finished = false;

  ~State() {
    if (stack != nullptr) ::munmap(stack, kChildStack);
  }
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
  return state_ && state_->in_cgroup;
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
  // The errno when the exec failed; end of file once the child has exec'd or exited, that
  // is, once it no longer runs on our memory (the kernel lets go of the memory before it
  // closes the descriptors, at exec and at exit).
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
  if (state_->stack != nullptr) ::munmap(state_->stack, kChildStack);
  state_->stack = nullptr;
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
  state->hold = options.hold;

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
  for (int sig = 1; sig <= 64; ++sig) {
    if (sigismember(&options.default_signals, sig) == 1) plan.default_signals |= 1ULL << (sig - 1);
  }
  plan.die_with = options.die_with_parent ? ::getpid() : 0;
  plan.release_read = release_read.get();
  plan.release_write = state->release.get();
  plan.error_write = error_write.get();

#if FLEET_SPAWN_SHARES_MEMORY
  state->stack = ::mmap(nullptr, kChildStack, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (state->stack == MAP_FAILED) {
    state->stack = nullptr;
    throw_errno("cannot map a stack for the child");
  }
#endif
  // Every signal blocked from the clone until the child sets its own mask before exec: no
  // handler of ours can run in a child that shares our memory.
  sigset_t all, caller_mask;
  sigfillset(&all);
  ::sigprocmask(SIG_SETMASK, &all, &caller_mask);
  plan.mask = options.mask.value_or(caller_mask);
  const pid_t pid = create_child(plan, state->stack, options.cgroup_fd, state->in_cgroup);
  ::sigprocmask(SIG_SETMASK, &caller_mask, nullptr);
  if (pid < 0) throw Error(std::string("cannot start a process: ") + std::strerror(-pid));
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
  ::close_range(static_cast<unsigned>(first), ~0U, 0);
}

}  // namespace fleet
