#include "process.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>

#include "base/exit_status.h"
#include "process/spawn.h"

extern char** environ;

namespace fleet::test {

bool is_suite_variable(const char* entry) {
  for (const char* prefix : {"CLAUDE_", "FLEET_HOOKS_", "AUTOSKILLIT_"}) {
    if (std::strncmp(entry, prefix, std::strlen(prefix)) == 0) return true;
  }
  return false;
}

namespace {

bool is_overridden(const char* entry,
                   const std::vector<std::pair<std::string, std::string>>& extra) {
  for (const auto& [name, value] : extra) {
    if (std::strncmp(entry, name.c_str(), name.size()) == 0 && entry[name.size()] == '=')
      return true;
  }
  return false;
}

std::vector<std::string> child_environment(
    const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (!is_suite_variable(*entry) && !is_overridden(*entry, extra)) env.emplace_back(*entry);
  }
  for (const auto& [name, value] : extra) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Forks and execs argv[0] with `stdio` as its stdin, stdout and stderr and the environment of
// child_environment(env), in `cwd` ("" keeps the current one); returns its pid.
pid_t fork_exec(std::vector<std::string> argv,
                const std::vector<std::pair<std::string, std::string>>& env, const std::string& cwd,
                const int (&stdio)[3]) {
  auto child_env = child_environment(env);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    for (int fd = 0; fd < 3; ++fd) {
      // dup2 onto itself keeps close-on-exec: clear it instead.
      if (stdio[fd] == fd)
        ::fcntl(fd, F_SETFD, 0);
      else
        ::dup2(stdio[fd], fd);
    }
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(exit_status::not_executable);
    auto args = pointers(argv);
    auto envp = pointers(child_env);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(exit_status::not_found);
  }
  return pid;
}

// A child started by fork_exec with a pipe on each of stdin, stdout and stderr; `in`, `out` and
// `err` are the parent's ends.
struct PipedChild {
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;
};

PipedChild start_piped(const std::vector<std::string>& argv, const RunOptions& options) {
  // Close-on-exec pipes as the platform makes them (make_pipe throws when it cannot).
  fleet::Pipe in = fleet::make_pipe(), out = fleet::make_pipe(), err = fleet::make_pipe();
  const pid_t pid = fork_exec(argv, options.env, options.cwd,
                              {in.read_end.get(), out.write_end.get(), err.write_end.get()});
  return {pid, in.write_end.release(), out.read_end.release(), err.read_end.release()};
}

}  // namespace

RunResult run_with_only_env(const std::vector<std::string>& env, std::vector<std::string> argv,
                            const RunOptions& options) {
  std::vector<std::string> prefix = {"/usr/bin/env", "-i"};
  prefix.insert(prefix.end(), env.begin(), env.end());
  argv.insert(argv.begin(), prefix.begin(), prefix.end());
  return run_process(argv, options);
}

std::vector<std::string> under_agent_cli(
    const std::string& dir, const std::string& cli,
    const std::vector<std::pair<std::string, std::string>>& variables,
    const std::vector<std::string>& argv) {
  const std::string folder = dir + "/stand-in";
  ::mkdir(folder.c_str(), 0700);
  const std::string program = folder + "/" + cli;
  if (::symlink("/usr/bin/timeout", program.c_str()) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot link " + program + ": " + std::strerror(errno));
  std::vector<std::string> command = {program, "300", "/usr/bin/env"};
  for (const auto& [name, value] : variables) command.push_back(name + "=" + value);
  command.insert(command.end(), argv.begin(), argv.end());
  return command;
}

RunResult run_process(const std::vector<std::string>& argv, const RunOptions& options) {
  const PipedChild child = start_piped(argv, options);
  // Feed stdin while draining stdout and stderr, so no pipe can fill up and deadlock.
  ::signal(SIGPIPE, SIG_IGN);
  ::fcntl(child.in, F_SETFL, O_NONBLOCK);
  std::size_t written = 0;
  int stdin_fd = child.in;
  if (options.stdin_data.empty()) {
    ::close(stdin_fd);
    stdin_fd = -1;
  }
  RunResult result;
  bool out_open = true, err_open = true;
  char buffer[65536];
  while (out_open || err_open) {
    struct pollfd fds[3] = {{out_open ? child.out : -1, POLLIN, 0},
                            {err_open ? child.err : -1, POLLIN, 0},
                            {stdin_fd, POLLOUT, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("poll failed");
    }
    if (stdin_fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(stdin_fd, options.stdin_data.data() + written,
                                options.stdin_data.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 && errno != EAGAIN) written = options.stdin_data.size();  // reader went away
      if (written == options.stdin_data.size()) {
        ::close(stdin_fd);
        stdin_fd = -1;
      }
    }
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        (i == 0 ? result.out : result.err).append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        (i == 0 ? out_open : err_open) = false;
      }
    }
  }
  if (stdin_fd >= 0) ::close(stdin_fd);
  ::close(child.out);
  ::close(child.err);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.term_signal = WTERMSIG(status);
  }
  return result;
}

BackgroundProcess::BackgroundProcess(const std::vector<std::string>& argv,
                                     const RunOptions& options) {
  const PipedChild child = start_piped(argv, options);
  ::close(child.in);  // stdin: end of file at once
  pid_ = child.pid;
  out_ = child.out;
  err_ = child.err;
}

BackgroundProcess::~BackgroundProcess() {
  if (!exited_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  if (out_ >= 0) ::close(out_);
  if (err_ >= 0) ::close(err_);
}

void BackgroundProcess::pump(int timeout_ms) {
  struct pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
  if (::poll(fds, 2, timeout_ms) <= 0) return;
  char buffer[65536];
  for (int i = 0; i < 2; ++i) {
    if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
    if (n > 0) {
      (i == 0 ? result_.out : result_.err).append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0) {
      ::close(fds[i].fd);
      (i == 0 ? out_ : err_) = -1;
    }
  }
}

bool BackgroundProcess::wait_for_output(const std::string& text, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (result_.out.find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() >= deadline || (out_ < 0 && err_ < 0)) return false;
    pump(50);
  }
  return true;
}

bool BackgroundProcess::wait(int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!exited_) {
    if (out_ >= 0 || err_ >= 0) pump(20);
    int status = 0;
    if (out_ < 0 && err_ < 0) {
      // Both streams closed: the exit is imminent (or the process closed them itself).
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == 0) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        ::usleep(5000);
        continue;
      }
    } else {
      const pid_t r = ::waitpid(pid_, &status, WNOHANG);
      if (r == 0) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        continue;
      }
    }
    exited_ = true;
    if (WIFEXITED(status)) result_.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) result_.term_signal = WTERMSIG(status);
  }
  // Collect what is still buffered (a left-behind descendant may hold the pipes open).
  const auto drain_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while ((out_ >= 0 || err_ >= 0) && std::chrono::steady_clock::now() < drain_deadline) pump(100);
  return true;
}

void BackgroundProcess::signal(int sig) const {
  ::kill(pid_, sig);
}

int spawn_detached(const std::vector<std::string>& argv,
                   const std::vector<std::pair<std::string, std::string>>& env) {
  const int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) throw std::runtime_error("cannot open /dev/null");
  const pid_t pid = fork_exec(argv, env, "", {null_fd, null_fd, null_fd});
  ::close(null_fd);
  return pid;
}

std::vector<int> fork_runners(
    int children, int runs_each,
    const std::function<std::vector<std::string>(int child, int run)>& argv_of) {
  std::vector<int> pids;
  for (int c = 0; c < children; ++c) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      int failures = 0;
      for (int i = 0; i < runs_each; ++i) {
        if (wait_exit(spawn_detached(argv_of(c, i))) != 0) ++failures;
      }
      ::_exit(failures == 0 ? 0 : 1);
    }
    pids.push_back(child);
  }
  return pids;
}

int wait_exit(int pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : exit_status::of_signal(WTERMSIG(status));
}

}  // namespace fleet::test
