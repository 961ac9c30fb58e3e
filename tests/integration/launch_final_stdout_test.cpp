// launch-wrapper --stdout final: a launcher that parses the whole stdout once the launch has
// ended (apra-fleet's parseResponse) sees only the final attempt's output, spooled, bounded.

#include <doctest/doctest.h>
#include <unistd.h>

#include "base/json.h"
#include "launch_output.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::announced_pids;
using fleet::test::BackgroundProcess;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::wrapper_summary;
using fleet::test::write_file;
using fleet::test::write_script;
using Args = std::vector<std::string>;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;

// What a launcher makes of the stream once the launch has ended, as apra-fleet's
// parseResponse does for Claude Code: line by line, a JSON line of type "result" gives the
// result, whether it is an error, and the session id. apra-fleet takes the first such line,
// other launchers the last: `last` picks which.
struct ParsedResult {
  bool found = false;
  bool is_error = false;
  std::string result;
  std::string session_id;
};

ParsedResult launcher_parse(const std::string& out, bool last) {
  ParsedResult parsed;
  for (const std::string& line : split_lines(out)) {
    const auto parsed_line = fleet::parse_json_object(line);
    if (!parsed_line || fleet::string_member(*parsed_line, "type") != "result") continue;
    const rapidjson::Document& doc = *parsed_line;
    parsed.found = true;
    parsed.is_error = doc["is_error"].GetBool();
    parsed.result = doc["result"].GetString();
    parsed.session_id = doc["session_id"].GetString();
    if (!last) break;
  }
  return parsed;
}

// Claude Code -p --output-format stream-json, overloaded on its first attempt: each attempt
// is a new session with its own id; `progress_lines` lines come before the result.
std::string overloaded_once(const TempDir& tmp, int progress_lines = 0) {
  const std::string count = tmp / "count";
  return write_script(
      tmp / "claude",
      "n=$(cat " + count + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + count + "\n" +
          "echo '{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"sess-'$n'\"}'\n" +
          (progress_lines > 0
               ? "seq -f 'progress line %05g' 1 " + std::to_string(progress_lines) + "\n"
               : std::string()) +
          "if [ $n -eq 1 ]; then\n"
          "  echo '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":true,"
          "\"result\":\"API Error: 529 "
          "{\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":\\\"overloaded_error\\\"}}\","
          "\"session_id\":\"sess-1\"}'\n"
          "  echo 'API Error: 529 Overloaded' >&2; exit 1\nfi\n"
          "echo '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
          "\"result\":\"done\",\"session_id\":\"sess-'$n'\"}'\n");
}

Args launch(const std::string& claude, Args options) {
  Args argv = {kWrapper, "--announce", "wrapper", "--retries", "2", "--backoff", "0"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"--", claude, "-p", "work", "--output-format", "stream-json"});
  return argv;
}

}  // namespace

TEST_CASE("final stdout: a launcher that parses the stream at the end sees the final attempt") {
  TempDir tmp;
  SUBCASE("streamed (the default): the failed attempt's result comes first") {
    const RunResult r = run_process(launch(overloaded_once(tmp), {}));
    CHECK(r.exit_code == 0);
    const ParsedResult first = launcher_parse(r.out, false);
    CHECK(first.is_error);
    CHECK(first.session_id == "sess-1");
    CHECK_FALSE(wrapper_summary(r.err).HasMember("final_stdout"));
  }
  SUBCASE("--stdout final: only the final attempt's output, after the announce line") {
    const RunResult r = run_process(launch(overloaded_once(tmp), {"--stdout", "final"}));
    CHECK(r.exit_code == 0);
    const auto lines = split_lines(r.out);
    REQUIRE(lines.size() == 3);
    CHECK(announced_pids(r.out).size() == 1);
    CHECK(lines[0].starts_with("FLEET_PID:"));
    CHECK(lines[1] == R"({"type":"system","subtype":"init","session_id":"sess-2"})");
    for (const bool last : {false, true}) {
      const ParsedResult parsed = launcher_parse(r.out, last);
      REQUIRE(parsed.found);
      CHECK_FALSE(parsed.is_error);
      CHECK(parsed.result == "done");
      CHECK(parsed.session_id == "sess-2");
    }
    // The failed attempt's stderr still streamed; the summary says what stdout carries.
    CHECK(r.err.find("API Error: 529 Overloaded") != std::string::npos);
    const auto summary = wrapper_summary(r.err);
    CHECK(summary["attempts"].GetUint() == 2);
    REQUIRE(summary.HasMember("final_stdout"));
    const auto& final_stdout = summary["final_stdout"];
    CHECK(final_stdout["attempt"].GetUint() == 2);
    CHECK(final_stdout["bytes"].GetUint64() == r.out.size() - lines[0].size() - 1);
    CHECK_FALSE(final_stdout["truncated"].GetBool());
  }
}

TEST_CASE(
    "final stdout: past --stdout-limit the oldest lines are dropped and the summary says so") {
  TempDir tmp;
  const RunResult r = run_process(
      launch(overloaded_once(tmp, 2000), {"--stdout", "final", "--stdout-limit", "4096"}));
  CHECK(r.exit_code == 0);
  const auto lines = split_lines(r.out);
  REQUIRE(lines.size() > 2);
  CHECK(lines[0].starts_with("FLEET_PID:"));
  // Whole lines only, ending with the final result.
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    CHECK_MESSAGE(lines[i].size() == std::string("progress line 00001").size(), lines[i]);
    CHECK(lines[i].starts_with("progress line "));
  }
  const ParsedResult parsed = launcher_parse(r.out, false);
  CHECK_FALSE(parsed.is_error);
  CHECK(parsed.session_id == "sess-2");
  const auto summary = wrapper_summary(r.err);
  REQUIRE(summary.HasMember("final_stdout"));
  const auto& final_stdout = summary["final_stdout"];
  CHECK(final_stdout["truncated"].GetBool());
  const std::uint64_t bytes = final_stdout["bytes"].GetUint64();
  CHECK(bytes == r.out.size() - lines[0].size() - 1);
  CHECK(bytes <= 4096);
  CHECK(bytes > 4096 - 64);
  // All of the attempt's output: the init line, 2,000 progress lines and the result.
  const std::string init = R"({"type":"system","subtype":"init","session_id":"sess-2"})";
  const std::uint64_t total = init.size() + 1 + 2000 * 20 + lines.back().size() + 1;
  CHECK(bytes + final_stdout["dropped_bytes"].GetUint64() == total);
}

TEST_CASE("final stdout: nothing of an attempt reaches stdout before it has ended") {
  TempDir tmp;
  const std::string agent =
      write_script(tmp / "agent", "echo early\necho ready >&2\nwhile [ ! -f " + tmp / "go" +
                                      " ]; do sleep 0.05; done\necho late\n");
  BackgroundProcess w({kWrapper, "--stdout", "final", "--", agent});
  for (int i = 0; i < 1000 && w.result().err.find("ready") == std::string::npos; ++i) {
    w.wait_for_output("never printed", 20);
  }
  REQUIRE(w.result().err.find("ready") != std::string::npos);
  w.wait_for_output("early", 300);
  CHECK(w.result().out.find("early") == std::string::npos);
  write_file(tmp / "go", "");
  REQUIRE(w.wait());
  CHECK(w.result().exit_code == 0);
  const auto lines = split_lines(w.result().out);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].starts_with("FLEET_PID:"));
  CHECK(lines[1] == "early");
  CHECK(lines[2] == "late");
}

TEST_CASE("final stdout: --stdout takes live or final") {
  const RunResult r = run_process({kWrapper, "--stdout", "last", "--", "/bin/true"});
  CHECK(r.exit_code == 125);
  CHECK(r.err.find("--stdout") != std::string::npos);
  CHECK(r.err.find("final") != std::string::npos);
}
