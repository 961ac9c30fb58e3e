#include "guard/guard_log.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agents/agents.h"
#include "base/json.h"
#include "base/timestamp.h"
#include "fixtures.h"
#include "store/rotating_jsonl.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::kL3;
using fleet::test::read_file;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

struct Guarded {
  TempDir tmp;
  GuardOptions options;
  std::string state_dir = tmp / "state";
  Guarded() {
    options.state_dir = state_dir;
    options.kitchen_id = "kitchen-1";
    options.agent = &fleet::claude_code();
  }
  // Decides on `input` and logs the decision as resume-guard does: the verdict and the
  // stderr line of the log.
  std::pair<GuardDecision, std::optional<std::string>> run(const std::string& input) const {
    const HookInput hook(input, fleet::claude_code());
    const ResumeRequest request = read_resume_request(hook, options.tools);
    GuardDecision decision = decide_resume(request, options);
    auto problem = log_guard_decision(hook, request, decision, options);
    return {std::move(decision), std::move(problem)};
  }
  std::string log() const { return guard_log_path(state_dir); }
};

}  // namespace

TEST_CASE("guard_log: a line is one JSON object of the entry's fields, read back whole") {
  const GuardLogEntry entry{"2026-05-06T13:30:00.123456+00:00",
                            "deny",
                            "not-owner",
                            kL3,
                            "w-1",
                            "mcp__kitchen__dispatch_food_truck",
                            "codex",
                            "",
                            "Refused \"quoted\"\nand a second line"};
  const std::string line = guard_log_line(entry);
  CHECK(line.find('\n') == std::string::npos);
  const auto doc = parse_json_object(line);
  REQUIRE(doc);
  CHECK(doc->MemberCount() == 8);  // no kitchen: the key is left out
  CHECK_FALSE(member(*doc, "kitchen"));
  CHECK(string_member(*doc, "verdict").value_or("") == "deny");
  const auto back = parse_guard_log_line(line);
  REQUIRE(back);
  CHECK(back->reason == entry.reason);
  CHECK(back->agent == "codex");
  CHECK_FALSE(parse_guard_log_line("{\"time\":\"x\"}"));
  CHECK_FALSE(parse_guard_log_line("not json"));
  // A huge field is cut: the line stays far below the log's limit.
  GuardLogEntry huge = entry;
  huge.session.assign(1 << 20, 'a');
  huge.reason.assign(1 << 20, 'b');
  CHECK(guard_log_line(huge).size() < 8192);
}

TEST_CASE("guard_log: a deny and an advisory are logged, a silent pass is not") {
  Guarded g;
  const auto silent = g.run(fleet::test::pre_tool_use(kL3, ""));
  CHECK(silent.first.verdict == Verdict::silent);
  CHECK_FALSE(silent.second);
  CHECK(::access(g.state_dir.c_str(), F_OK) != 0);  // nothing to log: nothing created

  const auto advisory = g.run(fleet::test::pre_tool_use(kL3, "unknown-1"));
  CHECK(advisory.first.verdict == Verdict::advisory);
  CHECK_FALSE(advisory.second);
  struct stat st {};
  REQUIRE(::stat(g.state_dir.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  REQUIRE(::stat(g.log().c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);

  const auto deny = g.run(fleet::test::pre_tool_use(kL3, kL3));
  CHECK(deny.first.verdict == Verdict::deny);
  const auto lines = split_lines(read_file(g.log()));
  REQUIRE(lines.size() == 2);
  const auto first = parse_guard_log_line(lines[0]);
  const auto second = parse_guard_log_line(lines[1]);
  REQUIRE(first);
  REQUIRE(second);
  CHECK(first->verdict == "advisory");
  CHECK(first->rule == "store-missing");
  CHECK(first->session == "unknown-1");
  CHECK(first->reason == advisory.first.message);
  CHECK(second->verdict == "deny");
  CHECK(second->rule == "self-resume");
  CHECK(second->caller == kL3);
  CHECK(second->tool == fleet::test::kDispatchTool);
  CHECK(second->agent == "claude");
  CHECK(second->kitchen == "kitchen-1");
  CHECK(second->reason == deny.first.message);
  CHECK(parse_timestamp_micros(second->time));
}

TEST_CASE("guard_log: a log that cannot be written is a stderr line, the verdict stands") {
  Guarded g;
  REQUIRE(::mkdir(g.state_dir.c_str(), 0700) == 0);
  write_file(g.tmp / "elsewhere", "");
  REQUIRE(::symlink((g.tmp / "elsewhere").c_str(), g.log().c_str()) == 0);
  const auto deny = g.run(fleet::test::pre_tool_use(kL3, kL3));
  CHECK(deny.first.verdict == Verdict::deny);
  REQUIRE(deny.second);
  CHECK(deny.second->find("not written to the guard log") != std::string::npos);
  CHECK(deny.second->find("symbolic link") != std::string::npos);
  CHECK(read_file(g.tmp / "elsewhere").empty());
}

TEST_CASE("guard_log: the view prints a line for a person, filters by time, counts the rest") {
  GuardLogEntry entry{"2026-05-06T13:30:00.000000+00:00",
                      "deny",
                      "not-owner",
                      "l3-b",
                      "w-1",
                      "dispatch_food_truck",
                      "claude",
                      "k1",
                      "Refused to resume session 'w-1'."};
  const std::string early = guard_log_line(entry);
  entry.time = "2026-05-06T14:30:00.000000+00:00";
  entry.verdict = "advisory";
  const std::string late = guard_log_line(entry);
  GuardLogCounts counts;
  GuardLogView view;
  CHECK(view_guard_log_line(early, view, counts) ==
        "2026-05-06T13:30:00.000000+00:00 deny not-owner caller=l3-b session=w-1: Refused to "
        "resume session 'w-1'.\n");
  CHECK_FALSE(view_guard_log_line("{\"torn\":", view, counts));
  CHECK_FALSE(view_guard_log_line("", view, counts));
  view.json = true;
  view.since_micros = parse_timestamp_micros("2026-05-06T14:00:00Z");
  CHECK_FALSE(view_guard_log_line(early, view, counts));
  CHECK(view_guard_log_line(late, view, counts) == late + "\n");
  CHECK(counts.shown == 2);
  CHECK(counts.skipped == 1);
}
