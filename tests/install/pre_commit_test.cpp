// The repository's .pre-commit-hooks.yaml as a team uses it: `pre-commit try-repo` (Debian 12's
// pre-commit 3.0.4, or whichever is on PATH) with the suite installed on PATH (cmake --install),
// on a guarded project (fleet-hooks install, the quick start's policy cases) and on an
// unguarded one.

#include <doctest/doctest.h>
#include <filesystem>

#include "fixtures.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"
#include "tree.h"

using fleet::test::contains;
using fleet::test::on_path;
using fleet::test::run_process;
using fleet::test::RunOptions;
using fleet::test::RunResult;
using fleet::test::TempDir;

namespace {

namespace fs = std::filesystem;

struct Team {
  const TempDir& t;

  // Runs argv in `dir` with the installed suite first on PATH, a HOME and a pre-commit cache
  // of this test's own, and nothing else in the environment.
  RunResult run(const std::string& dir, const std::vector<std::string>& argv) const {
    RunOptions in_dir;
    in_dir.cwd = dir;
    return fleet::test::run_with_only_env(
        {"HOME=" + (t / "home"), "PRE_COMMIT_HOME=" + (t / "pre-commit-cache"),
         "PATH=" + (t / "prefix/bin") + ":" +
             fs::path(on_path("pre-commit")).parent_path().string() + ":" +
             fleet::test::kSystemPath},
        argv, in_dir);
  }
  // A git repository at `dir` with everything in it added (pre-commit reads the index).
  void commit_all(const std::string& dir) const {
    REQUIRE(run(dir, {on_path("git"), "init", "-q"}).exit_code == 0);
    REQUIRE(run(dir, {on_path("git"), "add", "-A"}).exit_code == 0);
    const RunResult committed =
        run(dir, {on_path("git"), "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit",
                  "-q", "--allow-empty", "-m", "state"});
    REQUIRE_MESSAGE(committed.exit_code == 0, committed.err);
  }
};

}  // namespace

TEST_CASE("pre-commit: try-repo of the hooks passes a guarded project and fails an unguarded one") {
  if (on_path("pre-commit") == "pre-commit" || on_path("git") == "git") {
    std::printf(
        "SKIPPED: pre-commit or git is not installed (./install.sh --test installs them)\n");
    std::fflush(stdout);
    std::_Exit(fleet::test::kSkipped);
  }
  TempDir t;
  const Team team{t};
  fs::create_directories(t / "home");
  REQUIRE(run_process({FLEET_CMAKE, "--install", FLEET_BINARY_DIR, "--prefix", t / "prefix"})
              .exit_code == 0);
  // The hooks repository: this tree's .pre-commit-hooks.yaml, committed.
  fs::create_directories(t / "hooks");
  fs::copy_file(std::string(FLEET_SOURCE_DIR) + "/.pre-commit-hooks.yaml",
                t / "hooks/.pre-commit-hooks.yaml");
  team.commit_all(t / "hooks");

  // Guarded: wired by fleet-hooks install, with the quick start's policy case (a deny).
  const std::string guarded = t / "guarded";
  fs::create_directories(guarded + "/policy");
  REQUIRE(team.run(guarded, {"fleet-hooks", "install", "--project", "."}).exit_code == 0);
  REQUIRE(team.run(guarded, {"provenance-writer", "record", "--state-dir", "policy/fixture-state",
                             "--caller-session-id", "l3-a", "--session-id", "w-1", "--recipe-name",
                             "implement"})
              .exit_code == 0);
  fleet::test::write_file(
      guarded + "/policy/ownership-cases.jsonl",
      R"({"name": "another L3 cannot resume w-1", "input": {"session_id": "l3-b", )"
      R"("tool_name": "dispatch_food_truck", "tool_input": {"resume_session_id": "w-1"}}, )"
      R"("expect": "deny"})"
      "\n");
  team.commit_all(guarded);
  const RunResult passed =
      team.run(guarded, {on_path("pre-commit"), "try-repo", t / "hooks", "--all-files"});
  INFO(passed.out << passed.err);
  CHECK(passed.exit_code == 0);
  CHECK(contains(passed.out, "fleet-hooks check"));
  CHECK(contains(passed.out, "fleet-hooks replay"));
  CHECK_FALSE(contains(passed.out, "Failed"));

  // Unguarded: a project nobody wired, with no policy cases. Both hooks fail the commit and
  // say why.
  const std::string unguarded = t / "unguarded";
  fs::create_directories(unguarded);
  fleet::test::write_file(unguarded + "/README.md", "an orchestrator project\n");
  team.commit_all(unguarded);
  const RunResult failed =
      team.run(unguarded, {on_path("pre-commit"), "try-repo", t / "hooks", "--all-files"});
  INFO(failed.out << failed.err);
  CHECK(failed.exit_code == 1);
  CHECK(contains(failed.out, "- hook id: fleet-hooks-check"));
  CHECK(contains(failed.out, "- hook id: fleet-hooks-replay"));
  CHECK(contains(failed.out, "guard-missing"));
  CHECK(contains(failed.out, "fleet-hooks replay: state directory"));
}
