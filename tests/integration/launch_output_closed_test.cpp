// launch-wrapper when the launcher's end of its stdout closes mid-run (an SSH channel that
// drops): noticed at once, the agent runs on with its output spooled to the state directory
// (or, with --on-output-closed stop, is stopped at once); the summary says output_closed.

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <chrono>
#include <csignal>

#include "base/json.h"
#include "fixtures.h"
#include "process.h"
#include "process/spawn.h"
#include "temp_dir.h"

using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_file;
using fleet::test::write_script;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;

// The wrapper with its stdout on a pipe the test holds (as a launcher does) and its stderr
// in a file, or (without one) on a second pipe the test holds.
struct Launch {
  pid_t pid = -1;
  int out = -1;
  int err = -1;

  Launch(std::vector<std::string> argv, const std::string& err_file) {
    // Close-on-exec pipes (fleet::make_pipe: no pipe2 on macOS).
    fleet::Pipe out_pipe = fleet::make_pipe();
    int fds[2] = {out_pipe.read_end.release(), out_pipe.write_end.release()};
    int err_fds[2] = {-1, -1};
    if (err_file.empty()) {
      fleet::Pipe err_pipe = fleet::make_pipe();
      err_fds[0] = err_pipe.read_end.release();
      err_fds[1] = err_pipe.write_end.release();
    }
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(fds[1], STDOUT_FILENO);
      const int err_fd = err_file.empty()
                             ? err_fds[1]
                             : ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(err_fd, STDERR_FILENO);
      const int null = ::open("/dev/null", O_RDONLY);
      ::dup2(null, STDIN_FILENO);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(fds[1]);
    out = fds[0];
    if (err_file.empty()) {
      ::close(err_fds[1]);
      err = err_fds[0];
    }
  }
  ~Launch() {
    if (out >= 0) ::close(out);
    if (err >= 0) ::close(err);
    if (pid > 0 && ::waitpid(pid, nullptr, WNOHANG) == 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  }

  // Reads stdout until `text` was seen.
  bool read_until(const std::string& text) {
    std::string seen;
    char buffer[4096];
    while (seen.find(text) == std::string::npos) {
      const ssize_t n = ::read(out, buffer, sizeof buffer);
      if (n <= 0) return false;
      seen.append(buffer, static_cast<std::size_t>(n));
    }
    return true;
  }

  void drop_stdout() {
    ::close(out);
    out = -1;
  }

  void drop_stderr() {
    ::close(err);
    err = -1;
  }

  // The wrapper's exit code, -1 on timeout.
  int wait(int timeout_ms = 60000) {
    for (int waited = 0; waited < timeout_ms; waited += 10) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      ::usleep(10000);
    }
    return -1;
  }
};

rapidjson::Document json_of(const std::string& text) {
  rapidjson::Document doc = fleet::test::json_document(text);
  return doc;
}

std::string status_of(const TempDir& tmp) {
  return run_process({kWrapper, "status", "--member", "m", "--state-dir", tmp.path()}).out;
}

// Waits until `status` shows the output spool; returns the status line.
std::string wait_for_spool(const TempDir& tmp, int timeout_ms) {
  std::string status;
  for (int waited = 0; waited < timeout_ms; waited += 20) {
    status = status_of(tmp);
    if (status.find("output_spool") != std::string::npos) return status;
    ::usleep(20000);
  }
  return status;
}

}  // namespace

TEST_CASE("output closed: the agent runs on and its output is spooled") {
  for (const std::string kind : {"writes often", "writes only at the end"}) {
    for (int run = 0; run < 3; ++run) {
      TempDir tmp;
      const std::string agent = tmp / "agent";
      const std::string body = kind == "writes often"
                                   ? "echo started\nwhile [ ! -e " + tmp / "finish" +
                                         " ]; do echo tick; sleep 0.01; done\necho result-line\n"
                                   : "echo started\nwhile [ ! -e " + tmp / "finish" +
                                         " ]; do sleep 0.01; done\n" + "echo result-line\n";
      write_script(agent, body);
      Launch launch({kWrapper, "--member", "m", "--state-dir", tmp.path(), "--summary-file",
                     tmp / "summary", "--", agent},
                    tmp / "err");
      REQUIRE(launch.read_until("started"));
      launch.drop_stdout();
      // Noticed without waiting for a write: status shows it alive and where its output is.
      const std::string status = wait_for_spool(tmp, 60000);
      auto doc = json_of(status);
      CHECK_MESSAGE(std::string(doc["state"].GetString()) == "alive", kind);
      REQUIRE(doc["record"].HasMember("output_spool"));
      const std::string spool = doc["record"]["output_spool"].GetString();
      write_file(tmp / "finish", "");
      CHECK_MESSAGE(launch.wait() == 0, read_file(tmp / "err"));
      CHECK(read_file(spool).find("result-line\n") != std::string::npos);
      auto summary = json_of(read_file(tmp / "summary"));
      CHECK(std::string(summary["kill_reason"].GetString()) == "output_closed");
      CHECK(std::string(summary["output_spool"].GetString()) == spool);
      CHECK(summary["exit_code"].GetInt() == 0);
    }
  }
}

TEST_CASE("output closed: the next launch of the member still stops the spooling agent") {
  TempDir tmp;
  const std::string agent = tmp / "agent";
  write_script(agent, "echo started\nexec sleep 1000\n");
  Launch launch({kWrapper, "--member", "m", "--state-dir", tmp.path(), "--", agent}, tmp / "err");
  REQUIRE(launch.read_until("started"));
  launch.drop_stdout();
  REQUIRE(wait_for_spool(tmp, 60000).find("\"alive\"") != std::string::npos);
  const RunResult next = run_process(
      {kWrapper, "--quiet", "--member", "m", "--state-dir", tmp.path(), "--", "/bin/true"});
  CHECK(next.exit_code == 0);
  CHECK(next.err.find("was stopped") != std::string::npos);
  CHECK(launch.wait() == 128 + SIGTERM);
}

TEST_CASE("output closed: --on-output-closed stop stops the agent at once") {
  for (const std::string kind : {"writes often", "writes only at the end"}) {
    TempDir tmp;
    const std::string agent = tmp / "agent";
    write_script(agent,
                 "echo started\n" + std::string(kind == "writes often"
                                                    ? "while :; do echo tick; sleep 0.01; done\n"
                                                    : "sleep 1000\necho result\n"));
    Launch launch({kWrapper, "--on-output-closed", "stop", "--grace", "2", "--summary-file",
                   tmp / "summary", "--", agent},
                  tmp / "err");
    REQUIRE(launch.read_until("started"));
    const auto dropped = Clock::now();
    launch.drop_stdout();
    const int code = launch.wait(30000);
    CHECK_MESSAGE(code != -1, kind);
    CHECK(std::chrono::duration<double>(Clock::now() - dropped).count() < 20.0);
    auto summary = json_of(read_file(tmp / "summary"));
    CHECK(std::string(summary["kill_reason"].GetString()) == "output_closed");
  }
}

TEST_CASE(
    "output closed: stdout and stderr gone - the wrapper still exits with the agent's status") {
  // The summary line and any last notice are written after the agent has exited: a launcher
  // that closed its end of stderr must not turn the agent's status into death by SIGPIPE.
  for (const bool quiet : {false, true}) {
    CAPTURE(quiet);
    TempDir tmp;
    const std::string agent = tmp / "agent";
    write_script(agent, "echo started\nwhile [ ! -e " + tmp / "finish" +
                            " ]; do sleep 0.01; done\nexit 3\n");
    std::vector<std::string> argv = {kWrapper, "--state-dir", tmp.path(), "--summary-file",
                                     tmp / "summary"};
    if (quiet) argv.push_back("--quiet");
    argv.insert(argv.end(), {"--", agent});
    Launch launch(argv, "");
    REQUIRE(launch.read_until("started"));
    launch.drop_stdout();
    launch.drop_stderr();
    write_file(tmp / "finish", "");
    CHECK(launch.wait() == 3);
    auto summary = json_of(read_file(tmp / "summary"));
    CHECK(summary["exit_code"].GetInt() == 3);
  }
}

TEST_CASE("output closed: with --stdout final the attempt's stdout so far goes to the spool too") {
  TempDir tmp;
  const std::string agent = write_script(
      tmp / "agent", "echo started\ntouch " + tmp / "started" + "\nwhile [ ! -e " + tmp / "finish" +
                         " ]; do sleep 0.01; done\necho result-line\n");
  Launch launch({kWrapper, "--member", "m", "--state-dir", tmp.path(), "--summary-file",
                 tmp / "summary", "--stdout", "final", "--", agent},
                tmp / "err");
  REQUIRE(launch.read_until("FLEET_PID:"));
  for (int waited = 0; waited < 60000 && ::access((tmp / "started").c_str(), F_OK) != 0;
       waited += 10) {
    ::usleep(10000);
  }
  launch.drop_stdout();
  auto doc = json_of(wait_for_spool(tmp, 60000));
  REQUIRE(doc["record"].HasMember("output_spool"));
  const std::string spool = doc["record"]["output_spool"].GetString();
  write_file(tmp / "finish", "");
  CHECK_MESSAGE(launch.wait() == 0, read_file(tmp / "err"));
  CHECK(read_file(spool) == "started\nresult-line\n");
  auto summary = json_of(read_file(tmp / "summary"));
  CHECK(std::string(summary["kill_reason"].GetString()) == "output_closed");
  REQUIRE(summary.HasMember("final_stdout"));
  CHECK(summary["final_stdout"]["bytes"].GetUint64() == 0);
  CHECK(std::string(summary["final_stdout"]["problem"].GetString()).find(spool) !=
        std::string::npos);
}
