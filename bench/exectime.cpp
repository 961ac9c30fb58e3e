// bench-exectime: runs a command N times (stdin from a file, stdout and stderr discarded) and
// prints the median and 90th percentile wall time in microseconds.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

#include <CLI/CLI.hpp>

extern char** environ;

namespace {

double now_us() {
  struct timespec ts {};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times repeated runs of a command", "bench-exectime"};
  int runs = 200;
  std::string stdin_path = "/dev/null";
  std::vector<std::string> command;
  app.add_option("--runs", runs, "Number of timed runs")->check(CLI::PositiveNumber);
  app.add_option("--stdin", stdin_path, "File fed to each run's stdin");
  app.add_option("command", command, "The command to time")->required();
  CLI11_PARSE(app, argc, argv);

  std::vector<char*> args;
  for (auto& part : command) args.push_back(part.data());
  args.push_back(nullptr);

  std::vector<double> times;
  for (int i = 0; i < runs + 5; ++i) {
    const int in = open(stdin_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in < 0) {
      std::perror("bench-exectime: stdin");
      return 1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const double start = now_us();
    const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    int status = 0;
    if (rc == 0) waitpid(pid, &status, 0);
    const double elapsed = now_us() - start;
    posix_spawn_file_actions_destroy(&actions);
    close(in);
    if (rc != 0) {
      std::fprintf(stderr, "bench-exectime: cannot run %s\n", args[0]);
      return 1;
    }
    if (i >= 5) times.push_back(elapsed);  // the first runs warm the caches
  }
  std::sort(times.begin(), times.end());
  std::printf("median_us=%.0f p90_us=%.0f runs=%d\n", times[times.size() / 2],
              times[times.size() * 9 / 10], runs);
  return 0;
}
