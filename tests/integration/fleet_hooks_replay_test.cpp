// `fleet-hooks replay` as CI runs it: a fixture committed by one person, replayed on another
// person's checkout and on a CI runner, must give every case the same outcome.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "fixtures.h"
#include "process.h"
#include "suite.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::pre_tool_use;
using fleet::test::read_file;
using fleet::test::run_ls;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::TempDir;
using fleet::test::write_file;
using Env = std::vector<std::pair<std::string, std::string>>;

namespace {

// policy/ as the quick start makes it: a fixture store holding worker w-1 of orchestrator
// l3-a in kitchen k1, as committed (the store only: its index is not committed), and cases.
struct Policy {
  TempDir tmp;
  std::string state = tmp / "fixture-state";
  std::string cases = tmp / "ownership-cases.jsonl";

  explicit Policy(const std::string& case_lines) {
    fleet::test::write_record(state, "w-1", "l3-a", "k1");
    ::unlink((state + "/session_provenance.jsonl.idx").c_str());
    write_file(cases, case_lines);
  }
  RunResult replay(const Env& env = {}) const {
    return run_process({FLEET_HOOKS_CLI, "replay", cases, "--state-dir", state}, {"", env, ""});
  }
};

std::string replay_case(const std::string& name, const std::string& caller,
                        const std::string& expect, const std::string& more = "") {
  return R"({"name": ")" + name + R"(", "input": )" + pre_tool_use(caller, "w-1") +
         R"(, "expect": ")" + expect + "\"" + more + "}\n";
}

const std::string kCases =
    replay_case("a stranger cannot resume w-1", "l3-x", "deny",
                R"(, "reason_contains": "dispatched by l3-a")") +
    replay_case("its orchestrator can", "l3-a", "silent") +
    replay_case("its kitchen can", "l3-x", "silent", R"(, "kitchen_id": "k1")");

}  // namespace

TEST_CASE("fleet-hooks replay: a fixture checked out under umask 002 replays the same") {
  Policy policy(kCases);
  // What git makes of the committed fixture under umask 002: 0775 and 0664.
  REQUIRE(::chmod(policy.state.c_str(), 0775) == 0);
  REQUIRE(::chmod((policy.state + "/session_provenance.jsonl").c_str(), 0664) == 0);
  const RunResult r = policy.replay();
  CHECK_MESSAGE(r.exit_code == 0, r.out << r.err);
  CHECK(contains(r.out, "replay: 3 of 3 cases passed, 0 failed"));
  // Nothing is written beside the fixture (no index to commit or ignore), private or not.
  CHECK(run_ls(policy.state) == std::vector<std::string>{"session_provenance.jsonl"});
  REQUIRE(::chmod(policy.state.c_str(), 0700) == 0);
  REQUIRE(::chmod((policy.state + "/session_provenance.jsonl").c_str(), 0600) == 0);
  CHECK(policy.replay().exit_code == 0);
  CHECK(run_ls(policy.state) == std::vector<std::string>{"session_provenance.jsonl"});
}

TEST_CASE("fleet-hooks replay: a case decides the same whatever kitchen the environment sets") {
  Policy policy(kCases);
  for (const Env& env :
       {Env{}, Env{{"FLEET_HOOKS_KITCHEN_ID", "k1"}}, Env{{"AUTOSKILLIT_CAMPAIGN_ID", "k1"}},
        Env{{"FLEET_HOOKS_KITCHEN_ID", "k2"}, {"AUTOSKILLIT_CAMPAIGN_ID", "k1"}}}) {
    CAPTURE(env.size());
    const RunResult r = policy.replay(env);
    CHECK_MESSAGE(r.exit_code == 0, r.out << r.err);
    CHECK(contains(r.out, "replay: 3 of 3 cases passed, 0 failed"));
  }
}

TEST_CASE("fleet-hooks replay: a case's name cannot start a workflow command in a CI log") {
  // A pull request's case named "x\n::error::…": the Action prints replay's output into the job
  // log, where a line starting with "::" is a command to the runner.
  Policy policy(replay_case(R"(x\n::error title=forged::all good\r\n::warning::)", "l3-x", "silent",
                            R"(, "reason_contains": "\n::error::in a detail")"));
  const RunResult r = policy.replay();
  CHECK(r.exit_code == 1);  // the case fails: a stranger is denied
  CHECK(contains(r.out, R"(x\n::error title=forged::all good\r\n::warning::)"));
  for (const std::string& line : fleet::test::split_lines(r.out + r.err)) {
    CAPTURE(line);
    CHECK_FALSE(line.starts_with("::"));
    CHECK(line.find('\r') == std::string::npos);
  }
}
