#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace fleet::test {
namespace {

bool is_suite_variable(const char* entry) {
  for (const char* prefix : {"CLAUDE_", "FLEET_HOOKS_", "AUTOSKILLIT_"}) {
    if (std::strncmp(entry, prefix, std::strlen(prefix)) == 0) return true;
  }
  return false;
}

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

[[noreturn]] void exec_child(std::vector<std::string> argv, std::vector<std::string> env,
                             const std::string& cwd) {
  if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
  auto args = pointers(argv);
  auto envp = pointers(env);
  ::execve(args[0], args.data(), envp.data());
  ::_exit(127);
}

}  // namespace

RunResult run_process(const std::vector<std::string>& argv, const RunOptions& options) {
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe failed");
  }
  auto env = child_environment(options.env);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    exec_child(argv, env, options.cwd);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  // Feed stdin while draining stdout and stderr, so no pipe can fill up and deadlock.
  ::signal(SIGPIPE, SIG_IGN);
  ::fcntl(in[1], F_SETFL, O_NONBLOCK);
  std::size_t written = 0;
  int stdin_fd = in[1];
  if (options.stdin_data.empty()) {
    ::close(stdin_fd);
    stdin_fd = -1;
  }
  RunResult result;
  bool out_open = true, err_open = true;
  char buffer[65536];
  while (out_open || err_open) {
    struct pollfd fds[3] = {{out_open ? out[0] : -1, POLLIN, 0},
                            {err_open ? err[0] : -1, POLLIN, 0},
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
  ::close(out[0]);
  ::close(err[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
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
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe failed");
  }
  auto env = child_environment(options.env);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    exec_child(argv, env, options.cwd);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  ::close(in[1]);  // stdin: end of file at once
  out_ = out[0];
  err_ = err[0];
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
  auto child_env = child_environment(env);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int null_fd = ::open("/dev/null", O_RDWR);
    ::dup2(null_fd, 0);
    ::dup2(null_fd, 1);
    ::dup2(null_fd, 2);
    exec_child(argv, child_env, "");
  }
  return pid;
}

}  // namespace fleet::test
