// bench-exectime: runs a command N times (stdin from a file, stderr discarded) and prints the
// median and 90th percentile wall time in microseconds, the largest peak RSS, and with
// --first-output the median time until the first byte on stdout. With --floor PROGRAM, each
// run of the command is paired with a run of PROGRAM (no arguments, stdin /dev/null; the
// static no-op): it also prints the floor's median and the median of the per-pair ratios,
// which stays meaningful when other work on the machine changes its speed during the call.

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
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

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

struct Run {
  bool started = false;
  double elapsed_us = 0;
  double first_output_us = -1;  // -1: nothing was written on stdout
  long max_rss_kb = 0;
};

// One run of args (null-terminated) with stdin from stdin_path, stdout read through a pipe
// and thrown away, stderr on /dev/null.
Run run_once(const std::vector<char*>& args, const std::string& stdin_path) {
  Run run;
  const int in = open(stdin_path.c_str(), O_RDONLY | O_CLOEXEC);
  int out[2];
  if (in < 0 || pipe2(out, O_CLOEXEC) != 0) {
    std::perror("bench-exectime");
    if (in >= 0) close(in);
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const double start = now_us();
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  close(out[1]);
  char buffer[65536];
  ssize_t n;
  while ((n = read(out[0], buffer, sizeof buffer)) > 0) {
    if (run.first_output_us < 0) run.first_output_us = now_us() - start;
  }
  int status = 0;
  struct rusage usage {};
  if (rc == 0) wait4(pid, &status, 0, &usage);
  run.elapsed_us = now_us() - start;
  posix_spawn_file_actions_destroy(&actions);
  close(in);
  close(out[0]);
  if (rc != 0) {
    std::fprintf(stderr, "bench-exectime: cannot run %s\n", args[0]);
    return run;
  }
  run.started = true;
  run.max_rss_kb = usage.ru_maxrss;
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times repeated runs of a command", "bench-exectime"};
  int runs = 200;
  int warmup = 5;
  std::string stdin_path = "/dev/null";
  bool first_output = false;
  std::vector<std::string> command;
  std::string floor;
  app.add_option("--runs", runs, "Number of timed runs")->check(CLI::PositiveNumber);
  app.add_option("--stdin", stdin_path, "File fed to each run's stdin");
  app.add_flag("--first-output", first_output, "Also time the first byte on stdout");
  app.add_option("--warmup", warmup, "Untimed runs before the timed ones (default 5)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--floor", floor,
                 "Pair every run with a run of this program (no arguments, stdin /dev/null)");
  app.add_option("command", command, "The command to time (after --)")->required();
  CLI11_PARSE(app, argc, argv);

  std::vector<char*> args;
  for (auto& part : command) args.push_back(part.data());
  args.push_back(nullptr);

  std::vector<char*> floor_args = {floor.data(), nullptr};
  std::vector<double> times, first_bytes, floor_times, ratios;
  long max_rss_kb = 0;
  for (int i = 0; i < runs + warmup; ++i) {
    Run base;
    if (!floor.empty()) {
      base = run_once(floor_args, "/dev/null");
      if (!base.started) return 1;
    }
    const Run run = run_once(args, stdin_path);
    if (!run.started) return 1;
    if (i < warmup) continue;  // the first runs warm the caches
    times.push_back(run.elapsed_us);
    if (run.first_output_us >= 0) first_bytes.push_back(run.first_output_us);
    max_rss_kb = std::max(max_rss_kb, run.max_rss_kb);
    if (!floor.empty()) {
      floor_times.push_back(base.elapsed_us);
      ratios.push_back(run.elapsed_us / base.elapsed_us);
    }
  }
  std::sort(times.begin(), times.end());
  std::printf("median_us=%.0f p90_us=%.0f runs=%d max_rss_kb=%ld", median(times),
              times[times.size() * 9 / 10], runs, max_rss_kb);
  if (first_output) std::printf(" first_output_us=%.0f", median(first_bytes));
  if (!floor.empty()) {
    std::printf(" floor_median_us=%.0f ratio_median=%.3f", median(floor_times), median(ratios));
  }
  std::printf("\n");
  return 0;
}
