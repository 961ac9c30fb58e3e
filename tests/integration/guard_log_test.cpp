// The guard log as a user finds it: resume-guard, run as an agent CLI runs it, leaves each deny
// and advisory (never a silent pass) in guard_log.jsonl, and `fleet-hooks log` shows them —
// also under 32 guards at once, across rotations, and as they come (--follow).

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <csignal>
#include <set>

#include "base/files.h"
#include "base/json.h"
#include "guard/guard_log.h"
#include "store/rotating_jsonl.h"
#include "suite.h"

using fleet::test::kL3;
using fleet::test::pre_tool_use;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

struct LogDir {
  TempDir tmp;
  std::string state = tmp / "state";
  std::string log() const { return fleet::guard_log_path(state); }

  RunResult guard(const std::string& caller, const std::string& session) const {
    const RunResult r = run_process({FLEET_RESUME_GUARD, "--state-dir", state},
                                    {pre_tool_use(caller, session), {}, ""});
    REQUIRE(r.exit_code == 0);
    return r;
  }
  RunResult show(std::vector<std::string> args) const {
    args.insert(args.begin(), {FLEET_HOOKS_CLI, "log", "--state-dir", state});
    return run_process(args);
  }
  // Every entry of the log and its rotated file, oldest first; REQUIREs that each line is one.
  std::vector<fleet::GuardLogEntry> entries() const {
    std::vector<fleet::GuardLogEntry> all;
    for (const std::string& path : {fleet::rotated_path(log()), log()}) {
      if (::access(path.c_str(), F_OK) != 0) continue;
      for (const std::string& line : split_lines(read_file(path))) {
        auto entry = fleet::parse_guard_log_line(line);
        REQUIRE_MESSAGE(entry, line);
        all.push_back(std::move(*entry));
      }
    }
    return all;
  }
  // Fills the log with old entries up to `below` bytes short of its limit.
  void fill_log(std::uint64_t below) const {
    ::mkdir(state.c_str(), 0700);
    const std::string line =
        fleet::guard_log_line({"2020-01-01T00:00:00.000000+00:00", "deny", "filler", "old", "old",
                               "dispatch_food_truck", "claude", "", std::string(300, 'f')});
    std::string content;
    while (content.size() + line.size() + 1 < fleet::kGuardLogLimitBytes - below)
      content += line + "\n";
    write_file(log(), content);
    REQUIRE(::chmod(log().c_str(), 0600) == 0);
  }
};

// The permissionDecisionReason of a deny, the systemMessage of an advisory.
std::string said(const RunResult& r) {
  const rapidjson::Document doc = fleet::test::json_document(r.out);
  if (const auto* specific = fleet::member(doc, "hookSpecificOutput"))
    return std::string(fleet::string_member(*specific, "permissionDecisionReason").value_or(""));
  return std::string(fleet::string_member(doc, "systemMessage").value_or(""));
}

// The argv of a resume-guard reading `input_file` on stdin.
std::vector<std::string> guard_reading(const std::string& state, const std::string& input_file) {
  return {"/bin/sh",          "-c",  "exec \"$0\" --state-dir \"$1\" < \"$2\"",
          FLEET_RESUME_GUARD, state, input_file};
}

}  // namespace

TEST_CASE("guard log: a deny and an advisory leave a trace, a silent pass none") {
  LogDir d;
  fleet::test::write_record(d.state, "w-1", "l3-a", "k1");
  const RunResult deny = d.guard("l3-b", "w-1");
  const RunResult advisory = d.guard("l3-b", "unknown-1");
  const RunResult silent = d.guard("l3-a", "w-1");
  REQUIRE(silent.out.empty());
  const std::string denied = said(deny);
  const std::string advised = said(advisory);
  REQUIRE(denied.starts_with("Refused to resume session 'w-1'"));
  REQUIRE(advised.find("unknown-1") != std::string::npos);

  const RunResult human = d.show({});
  CHECK(human.exit_code == 0);
  const auto lines = split_lines(human.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].find(" deny not-owner caller=l3-b session=w-1: " + denied) != std::string::npos);
  CHECK(lines[1].find(" advisory unrecorded caller=l3-b session=unknown-1: " + advised) !=
        std::string::npos);
  CHECK(human.err.empty());

  const RunResult json = d.show({"--json"});
  const auto objects = split_lines(json.out);
  REQUIRE(objects.size() == 2);
  const auto first = fleet::parse_guard_log_line(objects[0]);
  const auto second = fleet::parse_guard_log_line(objects[1]);
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->verdict == "deny");
  CHECK(first->reason == denied);
  CHECK(first->tool == fleet::test::kDispatchTool);
  CHECK(second->verdict == "advisory");
  CHECK(second->reason == advised);

  CHECK(split_lines(d.show({"--since", "1h"}).out).size() == 2);
  CHECK(split_lines(d.show({"--since", "2999-01-01"}).out).empty());
  const auto since_second = split_lines(d.show({"--since", second->time, "--json"}).out);
  CHECK(since_second == std::vector<std::string>{objects[1]});
  const RunResult bad = d.show({"--since", "yesterday"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--since takes") != std::string::npos);
}

TEST_CASE("guard log: replay and query decide without logging") {
  LogDir d;
  fleet::test::write_record(d.state, "w-1", "l3-a", "k1");
  CHECK(fleet::test::query_verdict(d.state, "l3-b", "", "w-1") == "deny");
  write_file(d.tmp / "cases.jsonl",
             R"({"name": "stranger", "input": {"session_id": "l3-b", "tool_name": )"
             R"("dispatch_food_truck", "tool_input": {"resume_session_id": "w-1"}}, )"
             R"("expect": "deny"})"
             "\n");
  CHECK(run_process({FLEET_HOOKS_CLI, "replay", d.tmp / "cases.jsonl", "--state-dir", d.state})
            .exit_code == 0);
  CHECK(::access(d.log().c_str(), F_OK) != 0);
}

TEST_CASE("guard log: no log yet, and unreadable lines skipped and counted") {
  LogDir d;
  REQUIRE(::mkdir(d.state.c_str(), 0700) == 0);
  RunResult r = d.show({});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK(split_lines(r.err).size() == 1);
  CHECK(r.err.find("no guard log yet") != std::string::npos);
  d.guard(kL3, kL3);
  write_file(d.log(), read_file(d.log()) + "garbage\n{\"torn\":\n");
  d.guard(kL3, kL3);
  r = d.show({});
  CHECK(r.exit_code == 0);
  CHECK(split_lines(r.out).size() == 2);
  CHECK(r.err.find("skipped 2 unreadable line(s)") != std::string::npos);
}

TEST_CASE("guard log: 32 resume-guards denying at once lose no line, across a rotation") {
  LogDir d;
  d.fill_log(16 * 1024);  // the race crosses the limit
  const std::size_t filler = d.entries().size();
  constexpr int kGuards = 32;
  const int kRuns = fleet::test::full_or_reduced(8, 3);
  for (int g = 0; g < kGuards; ++g) {
    for (int i = 0; i < kRuns; ++i) {
      const std::string caller = "l3-" + std::to_string(g) + "-" + std::to_string(i);
      write_file(d.tmp / (caller + ".json"), pre_tool_use(caller, caller));  // a self-resume
    }
  }
  const auto guards = fleet::test::fork_runners(kGuards, kRuns, [&](int g, int i) {
    return guard_reading(d.state,
                         d.tmp / ("l3-" + std::to_string(g) + "-" + std::to_string(i) + ".json"));
  });
  for (const int pid : guards) CHECK(fleet::test::wait_exit(pid) == 0);
  REQUIRE(::access(fleet::rotated_path(d.log()).c_str(), F_OK) == 0);
  std::set<std::string> sessions;
  std::size_t old = 0;
  for (const fleet::GuardLogEntry& entry : d.entries()) {
    if (entry.rule == "filler") {
      ++old;
      continue;
    }
    CHECK(entry.rule == "self-resume");
    CHECK(entry.caller == entry.session);
    CHECK_MESSAGE(sessions.insert(entry.session).second, entry.session);
  }
  CHECK(old == filler);
  CHECK(sessions.size() == static_cast<std::size_t>(kGuards * kRuns));
}

TEST_CASE("guard log: many denies keep the log bounded") {
  LogDir d;
  d.fill_log(4 * 1024);
  constexpr int kGuards = 8;
  const int kRuns = fleet::test::full_or_reduced(100, 12);
  write_file(d.tmp / "input.json", pre_tool_use(kL3, kL3));
  const auto guards = fleet::test::fork_runners(
      kGuards, kRuns, [&](int, int) { return guard_reading(d.state, d.tmp / "input.json"); });
  for (const int pid : guards) CHECK(fleet::test::wait_exit(pid) == 0);
  struct stat current {};  // none when the last deny rotated the log
  struct stat rotated {};
  if (::stat(d.log().c_str(), &current) == 0) CHECK((current.st_mode & 0777) == 0600);
  REQUIRE(::stat(fleet::rotated_path(d.log()).c_str(), &rotated) == 0);
  CHECK((rotated.st_mode & 0777) == 0600);
  const auto entries = d.entries();
  REQUIRE_FALSE(entries.empty());
  CHECK(entries.back().rule == "self-resume");
  const auto line_size = static_cast<off_t>(fleet::guard_log_line(entries.back()).size() + 1);
  const auto limit = static_cast<off_t>(fleet::kGuardLogLimitBytes);
  CHECK(current.st_size < limit);
  CHECK(rotated.st_size < limit + line_size);
}

TEST_CASE("guard log: --follow prints entries as they come, across a rotation") {
  LogDir d;
  d.guard(kL3, "first-1");
  fleet::test::BackgroundProcess follow(
      {FLEET_HOOKS_CLI, "log", "--follow", "--state-dir", d.state});
  REQUIRE(follow.wait_for_output("session=first-1:"));
  d.guard(kL3, "second-1");
  CHECK(follow.wait_for_output("session=second-1:"));
  // Fill the log up to its limit: the next deny rotates it, the one after starts a new file.
  const std::string filler =
      fleet::guard_log_line({"2020-01-01T00:00:00.000000+00:00", "deny", "filler", "old", "old",
                             "dispatch_food_truck", "claude", "", std::string(300, 'f')});
  std::string more;
  const std::size_t size = read_file(d.log()).size();
  while (size + more.size() < fleet::kGuardLogLimitBytes) more += filler + "\n";
  const fleet::UniqueFd log(::open(d.log().c_str(), O_WRONLY | O_APPEND | O_CLOEXEC));
  REQUIRE(log);
  fleet::write_all(log.get(), more, d.log());
  d.guard(kL3, "third-1");
  REQUIRE(::access(fleet::rotated_path(d.log()).c_str(), F_OK) == 0);
  d.guard(kL3, "fourth-1");
  CHECK(follow.wait_for_output("session=fourth-1:"));
  CHECK(follow.result().out.find("session=third-1:") != std::string::npos);
  follow.signal(SIGTERM);
  REQUIRE(follow.wait());
  CHECK(follow.result().exit_code == 0);
  const std::string out = follow.result().out;
  CHECK(out.find("session=first-1:") < out.find("session=second-1:"));
  CHECK(out.find("session=third-1:") < out.find("session=fourth-1:"));
}
