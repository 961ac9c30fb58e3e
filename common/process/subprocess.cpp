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

namespace {

// The ends of the command's standard descriptors this process holds.
struct CommandPipes {
  UniqueFd in_write;
  UniqueFd out_read;
  UniqueFd err_read;
};

// Feeds `input` to the command and reads its stdout and stderr into `result` until both close
// or `deadline` passes (then kills its process group and sets timed_out).
void exchange(CommandPipes& pipes, pid_t pid, const std::string& input,
              std::chrono::steady_clock::time_point deadline, CommandResult& result) {
  std::size_t written = 0;
  char buffer[65536];
  while (pipes.out_read || pipes.err_read) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    struct pollfd fds[3] = {{pipes.out_read.get(), POLLIN, 0},
                            {pipes.err_read.get(), POLLIN, 0},
                            {pipes.in_write.get(), POLLOUT, 0}};
    if (::poll(fds, 3, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    if (pipes.in_write && fds[2].revents != 0) {
      const ssize_t n =
          ::write(pipes.in_write.get(), input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EAGAIN) || written == input.size()) pipes.in_write.reset();
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents == 0) continue;
      UniqueFd& fd = i == 0 ? pipes.out_read : pipes.err_read;
      const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
      if (n > 0) {
        (i == 0 ? result.out : result.err).append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fd.reset();
      }
    }
  }
}

}  // namespace

CommandResult run_shell_command(const std::string& command, const std::string& input,
                                const std::vector<std::string>& env,
                                std::chrono::milliseconds timeout) {
  Pipe in = make_pipe(), out = make_pipe(), err = make_pipe();
  CommandPipes pipes{std::move(in.write_end), std::move(out.read_end), std::move(err.read_end)};
  UniqueFd in_read = std::move(in.read_end);
  UniqueFd out_write = std::move(out.write_end), err_write = std::move(err.write_end);

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
  ::fcntl(pipes.in_write.get(), F_SETFL, O_NONBLOCK);
  if (input.empty()) pipes.in_write.reset();

  CommandResult result;
  exchange(pipes, pid, input, std::chrono::steady_clock::now() + timeout, result);
  pipes.in_write.reset();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGPIPE, &previous, nullptr);
  result.exit_code =
      WIFEXITED(status) ? WEXITSTATUS(status) : exit_status::of_signal(WTERMSIG(status));
  return result;
}

}  // namespace fleet
