#include "process/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>

#include "base/exit_status.h"
#include "base/files.h"
#include "process/spawn.h"

namespace fleet {

CommandResult run_shell_command(const std::string& command, const std::string& input,
                                const std::vector<std::string>& env,
                                std::chrono::milliseconds timeout) {
  Pipe in = make_pipe(), out = make_pipe(), err = make_pipe();
  UniqueFd in_read = std::move(in.read_end), in_write = std::move(in.write_end);
  UniqueFd out_read = std::move(out.read_end), out_write = std::move(out.write_end);
  UniqueFd err_read = std::move(err.read_end), err_write = std::move(err.write_end);

  SpawnOptions options;
  options.stdin_fd = in_read.get();
  options.stdout_fd = out_write.get();
  options.stderr_fd = err_write.get();
  sigaddset(&options.default_signals, SIGPIPE);
  Spawned child = spawn({"/bin/sh", "-c", command}, env, options);
  const pid_t pid = child.pid();
  child.release();  // a /bin/sh that cannot run exits 127 or 126, as a shell reports it
  in_read.reset();
  out_write.reset();
  err_write.reset();

  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  ::fcntl(in_write.get(), F_SETFL, O_NONBLOCK);
  if (input.empty()) in_write.reset();

  CommandResult result;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::size_t written = 0;
  char buffer[65536];
  while (out_read || err_read) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    struct pollfd fds[3] = {
        {out_read.get(), POLLIN, 0}, {err_read.get(), POLLIN, 0}, {in_write.get(), POLLOUT, 0}};
    if (::poll(fds, 3, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    if (in_write && fds[2].revents != 0) {
      const ssize_t n = ::write(in_write.get(), input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN) || written == input.size()) in_write.reset();
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents == 0) continue;
      UniqueFd& fd = i == 0 ? out_read : err_read;
      const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
      if (n > 0) {
        (i == 0 ? result.out : result.err).append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fd.reset();
      }
    }
  }
  in_write.reset();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGPIPE, &previous, nullptr);
  result.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : exit_status::of_signal(WTERMSIG(status));
  return result;
}

}  // namespace fleet
