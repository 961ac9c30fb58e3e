// Soak and fault tests: many writers racing compactions, a storm of launches killed at random,
// the guard under concurrent load on a large store, a full disk and a read-only state dir.
// Bounded in time; every check is about what a user would find afterwards.

#include <doctest/doctest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <set>

#include "base/json.h"
#include "fixtures.h"
#include "proc_table.h"
#include "process.h"
#include "store/provenance_record.h"
#include "temp_dir.h"

using fleet::test::BackgroundProcess;
using fleet::test::kSkipped;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::wait_exit;
using fleet::test::write_file;
using fleet::test::write_script;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<std::string> writer(const std::string& state, const std::string& session) {
  return {FLEET_PROVENANCE_WRITER, "record",    "--session-id", session,
          "--caller-session-id",   "l3",        "--kitchen-id", "k1",
          "--recipe-name",         "implement", "--state-dir",  state};
}

// Pids of live processes whose command line contains `needle`.
std::vector<pid_t> processes_with(const std::string& needle) {
  std::vector<pid_t> found;
  for (const pid_t pid : fleet::test::all_pids()) {
    if (pid == ::getpid()) continue;
    std::string cmdline = read_file("/proc/" + std::to_string(pid) + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    const auto stat = fleet::test::proc_stat(pid);
    const bool zombie = stat && stat->state == 'Z';
    if (!zombie && cmdline.find(needle) != std::string::npos) found.push_back(pid);
  }
  return found;
}

// A small tmpfs for fault tests, unmounted afterwards. Skips the test when mounting is not
// allowed (not root, or no mount privilege in this sandbox).
class SmallFilesystem {
 public:
  explicit SmallFilesystem(const std::string& path) : path_(path) {
    ::mkdir(path_.c_str(), 0755);
    if (::mount("tmpfs", path_.c_str(), "tmpfs", 0, "size=256k,mode=0755") != 0) {
      std::printf("SKIPPED: cannot mount a tmpfs for the full-disk test (%s); run as root\n",
                  std::strerror(errno));
      std::fflush(stdout);
      std::_Exit(kSkipped);
    }
  }
  ~SmallFilesystem() { ::umount2(path_.c_str(), MNT_DETACH); }
  void read_only() const {
    REQUIRE(::mount(nullptr, path_.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0);
  }
  void fill() const {
    std::ofstream filler(path_ + "/filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), static_cast<std::streamsize>(block.size()))) {
    }
  }

 private:
  std::string path_;
};

}  // namespace

TEST_CASE("reliability: 64 writers for 30 s with a compaction every second lose nothing") {
  TempDir tmp;
  const std::string state = tmp / "state";
  ::mkdir(state.c_str(), 0700);  // compact refuses a --state-dir that does not exist
  constexpr int kWriters = 64;
  const auto end = Clock::now() + std::chrono::seconds(30);
  std::vector<pid_t> writers;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      // Each writer logs the sessions it was told were stored.
      std::ofstream done(tmp / ("done-" + std::to_string(w)));
      for (int i = 0; Clock::now() < end; ++i) {
        const std::string session = "r-" + std::to_string(w) + "-" + std::to_string(i);
        if (wait_exit(fleet::test::spawn_detached(writer(state, session))) == 0)
          done << session << "\n" << std::flush;
      }
      ::_exit(0);
    }
    writers.push_back(child);
  }
  int compactions = 0;
  while (Clock::now() < end) {
    ::sleep(1);
    const RunResult r = run_process({FLEET_HOOKS_CLI, "compact", "--state-dir", state});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    ++compactions;
  }
  for (pid_t w : writers) wait_exit(w);

  std::set<std::string> acknowledged;
  for (int w = 0; w < kWriters; ++w) {
    for (const auto& session : split_lines(read_file(tmp / ("done-" + std::to_string(w)))))
      acknowledged.insert(session);
  }
  std::set<std::string> stored;
  for (const auto& line : split_lines(read_file(state + "/session_provenance.jsonl"))) {
    const auto record = fleet::parse_provenance_line(line);
    REQUIRE_MESSAGE(record, line);
    CHECK_MESSAGE(stored.insert(record->session_id).second, record->session_id);
  }
  MESSAGE(acknowledged.size() << " records acknowledged by 64 writers, " << compactions
                              << " compactions");
  CHECK(acknowledged.size() > 100);
  // One is started every second; under sanitizers on a loaded machine each takes longer, so
  // only require that many of them ran while the writers were appending.
  CHECK(compactions >= 5);
  std::size_t lost = 0;
  for (const auto& session : acknowledged) lost += stored.count(session) == 0 ? 1 : 0;
  CHECK(lost == 0);
  CHECK(run_process({FLEET_HOOKS_CLI, "verify", "--state-dir", state}).exit_code == 0);
}

TEST_CASE("reliability: 100 launches of one member with wrappers killed at random") {
  TempDir tmp;
  const std::string state = tmp / "state";
  const std::string alive = tmp / "alive";
  ::mkdir(alive.c_str(), 0755);
  // Each agent checks at start that no other agent of the member is alive.
  const std::string agent = tmp / "storm-agent";
  // A pid in alive/ counts only while it is still one of this test's agents (pid_max is small
  // and a long test run reuses pids) and is not the checking agent itself.
  write_script(agent,
               "for f in " + alive +
                   "/*; do\n"
                   "  p=${f##*/}; [ \"$p\" = '*' ] && continue; [ \"$p\" = \"$$\" ] && continue\n"
                   "  if [ -r /proc/$p/stat ] && ! grep -q '^[0-9]* (.*) Z' /proc/$p/stat && "
                   "grep -q " +
                   agent +
                   " /proc/$p/cmdline 2>/dev/null; then\n"
                   "    echo \"$$ started while $p was alive\" >> " +
                   tmp / "violations" +
                   "\n"
                   "  fi\n"
                   "done\n"
                   "touch " +
                   alive +
                   "/$$\n"
                   "sleep 300 &\nwait\n");
  std::mt19937 random(1122);
  std::vector<std::unique_ptr<BackgroundProcess>> wrappers;
  for (int i = 0; i < 100; ++i) {
    wrappers.push_back(std::make_unique<BackgroundProcess>(
        std::vector<std::string>{FLEET_LAUNCH_WRAPPER, "--quiet", "--member", "storm",
                                 "--state-dir", state, "--grace", "2", "--", agent}));
    ::usleep(std::uniform_int_distribution<unsigned>(0, 40000)(random));
    // Now and then TERM or KILL one of the wrappers started so far.
    if (random() % 3 == 0) {
      auto& victim = wrappers[random() % wrappers.size()];
      victim->signal(random() % 2 == 0 ? SIGTERM : SIGKILL);
    }
  }
  // Let the launches still waiting for the member's lock settle: then exactly the last one runs.
  for (int i = 0; i < 600; ++i) {
    int running = 0;
    for (auto& w : wrappers) running += w->wait(1) ? 0 : 1;
    if (running <= 1) break;
  }
  CHECK(read_file(tmp / "violations").empty());

  // The record names the live agent or nothing: never a dead or foreign process.
  const RunResult status =
      run_process({FLEET_LAUNCH_WRAPPER, "status", "--member", "storm", "--state-dir", state});
  CHECK_MESSAGE((status.out.find("\"state\":\"alive\"") != std::string::npos ||
                 status.out.find("\"state\":\"no_record\"") != std::string::npos),
                status.out);
  const std::string running_agent =
      "/bin/sh " + agent;  // not the wrappers, whose argv names it too
  CHECK(processes_with(running_agent).size() <= 1);
  CHECK(run_process({FLEET_LAUNCH_WRAPPER, "stop", "--member", "storm", "--state-dir", state})
            .exit_code == 0);
  for (auto& w : wrappers) CHECK(w->wait(60000));
  for (int i = 0; i < 500 && !processes_with(running_agent).empty(); ++i) ::usleep(10000);
  CHECK(processes_with(running_agent).empty());  // no orphan left
}

TEST_CASE("reliability: the guard under 200 concurrent calls against a 1M-record store") {
  TempDir tmp;
  const std::string state = tmp / "state";
  ::mkdir(state.c_str(), 0700);
  {
    std::ofstream store(state + "/session_provenance.jsonl", std::ios::binary);
    char line[512];
    for (int i = 0; i < 1000000; ++i) {
      const int n = std::snprintf(
          line, sizeof line,
          "{\"caller_session_id\": \"c%07x-1111-4000-8000-%012x\", \"dispatch_id\": \"d-%d\", "
          "\"kitchen_id\": "
          "\"kitchen-%d\", \"recipe_name\": \"implement\", \"session_id\": "
          "\"%08x-0000-4000-8000-%012x\", "
          "\"step_name\": \"build\", \"timestamp\": \"2026-05-06T13:30:00.123456+00:00\"}\n",
          i % 977, i % 977, i, i % 50, i, i);
      store.write(line, n);
    }
  }
  // One append through the writer builds the index, as for any store the suite maintains.
  REQUIRE(run_process(writer(state, "indexed")).exit_code == 0);
  const auto session = [](int i) {
    char id[40];
    std::snprintf(id, sizeof id, "%08x-0000-4000-8000-%012x", i, i);
    return std::string(id);
  };
  const auto caller = [](int i) {
    char id[40];
    std::snprintf(id, sizeof id, "c%07x-1111-4000-8000-%012x", i % 977, i % 977);
    return std::string(id);
  };
  struct Call {
    std::string input;
    std::string expect;  // "silent", "deny" or "advisory"
  };
  std::vector<Call> calls;
  std::mt19937 random(42);
  for (int c = 0; c < 200; ++c) {
    const int i = static_cast<int>(random() % 1000000);
    std::string who, resume, expect;
    switch (c % 4) {
      case 0:
        who = caller(i), resume = session(i), expect = "silent";
        break;  // the owner
      case 1:
        who = caller(i + 1), resume = session(i), expect = "deny";
        break;  // a stranger
      case 2:
        who = caller(i), resume = "ffffffff-0000-4000-8000-00000000abcd", expect = "advisory";
        break;
      default:
        who = session(i), resume = session(i).substr(0, 8), expect = "deny";
        break;  // self prefix
    }
    calls.push_back(
        {R"({"session_id":")" + who +
             R"(","hook_event_name":"PreToolUse","tool_name":"mcp__k__dispatch_food_truck","tool_input":{"resume_session_id":")" +
             resume + R"("}})",
         expect});
  }
  std::vector<pid_t> children;
  for (std::size_t c = 0; c < calls.size(); ++c) {
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      const RunResult r =
          run_process({FLEET_RESUME_GUARD, "--state-dir", state, "--kitchen-id", "none"},
                      {calls[c].input, {}, ""});
      const std::string& expect = calls[c].expect;
      bool ok = r.exit_code == 0;
      if (expect == "silent") ok = ok && r.out.empty();
      if (expect == "deny")
        ok = ok && r.out.find("\"permissionDecision\":\"deny\"") != std::string::npos;
      if (expect == "advisory") ok = ok && r.out.find("systemMessage") != std::string::npos;
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(child);
  }
  int wrong = 0;
  for (pid_t child : children) wrong += wait_exit(child) == 0 ? 0 : 1;
  CHECK(wrong == 0);
}

TEST_CASE("reliability: a full disk and a read-only state dir damage nothing") {
  TempDir tmp;
  const std::string mount_point = tmp / "small";
  SmallFilesystem fs(mount_point);
  const std::string state = mount_point + "/state";
  for (int i = 0; i < 20; ++i) {
    REQUIRE(run_process(writer(state, "kept-" + std::to_string(i))).exit_code == 0);
  }
  const std::string store = state + "/session_provenance.jsonl";
  // A valid record (extra keys are allowed) that makes the store end on a page boundary, so
  // the next append needs a page the full disk cannot give.
  std::string content = read_file(store);
  const std::string head =
      R"({"caller_session_id":"l3","kitchen_id":"k1","recipe_name":"implement","session_id":"padding","pad":")";
  const std::string tail = "\"}\n";
  std::size_t pad = 4096 - (content.size() + head.size() + tail.size()) % 4096;
  content += head + std::string(pad, 'p') + tail;
  REQUIRE(content.size() % 4096 == 0);
  write_file(store, content);
  const std::string before = read_file(store);
  fs.fill();

  RunResult full =
      run_process(writer(state, "does-not-fit-" + std::string(200, 'x').substr(0, 100)));
  CHECK(full.exit_code == 1);
  CHECK(full.err.find("No space left on device") != std::string::npos);
  const std::string hook_input =
      R"({"session_id":"l3","hook_event_name":"PostToolUse","tool_name":"dispatch_food_truck","tool_input":{},"tool_response":{"session_id":"late-1"}})";
  RunResult hook =
      run_process({FLEET_PROVENANCE_WRITER, "hook", "--state-dir", state}, {hook_input, {}, ""});
  CHECK(hook.exit_code == 0);
  CHECK_FALSE(hook.err.empty());
  CHECK(read_file(store) == before);  // nothing torn, nothing lost

  ::unlink((mount_point + "/filler").c_str());
  fs.read_only();
  full = run_process(writer(state, "read-only"));
  CHECK(full.exit_code == 1);
  CHECK(full.err.find("Read-only file system") != std::string::npos);
  hook = run_process({FLEET_PROVENANCE_WRITER, "hook", "--state-dir", state}, {hook_input, {}, ""});
  CHECK(hook.exit_code == 0);
  CHECK_FALSE(hook.err.empty());
  CHECK(read_file(store) == before);
  // The guard still reads the store.
  const RunResult guard = run_process(
      {FLEET_RESUME_GUARD, "--state-dir", state},
      {R"({"session_id":"stranger","hook_event_name":"PreToolUse","tool_name":"dispatch_food_truck","tool_input":{"resume_session_id":"kept-3"}})",
       {},
       ""});
  CHECK(guard.out.find("\"permissionDecision\":\"deny\"") != std::string::npos);
  const RunResult launch =
      run_process({FLEET_LAUNCH_WRAPPER, "--member", "m", "--state-dir", state, "--", "/bin/true"});
  CHECK(launch.exit_code == 125);
  CHECK(launch.err.find("Read-only file system") != std::string::npos);
}
