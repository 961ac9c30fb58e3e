// The repository's action.yml (a composite GitHub Action) with its steps run as a runner runs
// them (tests/install/run_action.py: inputs substituted, bash -eo pipefail, GITHUB_ENV /
// GITHUB_PATH / GITHUB_OUTPUT files): it installs a release's tarball checked against the
// release's SHA256SUMS (a release made here from this build, served from file://), then runs
// check and replay on a project; failures are error annotations naming the file.

#include <doctest/doctest.h>
#include <filesystem>

#include "fixtures.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"
#include "tree.h"

using fleet::test::contains;
using fleet::test::on_path;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunOptions;
using fleet::test::RunResult;
using fleet::test::TempDir;

namespace {

namespace fs = std::filesystem;

const std::string kVersion = FLEET_VERSION_NUMBER;
const std::string kTarball =
    "fleet-hooks-" + kVersion + "-linux-" + std::string(FLEET_ARCH) + ".tar.gz";

struct Runner {
  const TempDir& t;

  // A release of this build in t/release: the tarball (one top directory) and SHA256SUMS.
  void make_release() const {
    const std::string top = "fleet-hooks-" + kVersion + "-linux-" + FLEET_ARCH;
    REQUIRE(run_process({FLEET_CMAKE, "--install", FLEET_BINARY_DIR, "--prefix",
                         t / ("stage/" + top), "--strip"})
                .exit_code == 0);
    fs::create_directories(t / "release");
    REQUIRE(run_process({"/bin/tar", "-czf", t / ("release/" + kTarball), "-C", t / "stage", top})
                .exit_code == 0);
    RunOptions in_release;
    in_release.cwd = t / "release";
    REQUIRE(
        run_process({"/bin/sh", "-c", "sha256sum *.tar.gz > SHA256SUMS"}, in_release).exit_code ==
        0);
  }
  // A project in t/<name>: wired by fleet-hooks install (when `wired`), with the quick start's
  // fixture store and one case expecting `expect` for a stranger's resume.
  std::string project(const std::string& name, bool wired, const std::string& expect) const {
    const std::string dir = t / name;
    fs::create_directories(dir + "/policy");
    const std::string bin = t / ("stage/fleet-hooks-" + kVersion + "-linux-" + FLEET_ARCH + "/bin");
    RunOptions in_dir;
    in_dir.cwd = dir;
    if (wired) {
      REQUIRE(run_process({bin + "/fleet-hooks", "install", "--project", "."}, in_dir).exit_code ==
              0);
    }
    REQUIRE(run_process({bin + "/provenance-writer", "record", "--state-dir",
                         "policy/fixture-state", "--caller-session-id", "l3-a", "--session-id",
                         "w-1", "--recipe-name", "implement"},
                        in_dir)
                .exit_code == 0);
    fleet::test::write_file(
        dir + "/policy/ownership-cases.jsonl",
        R"({"name": "another L3 and w-1", "input": {"session_id": "l3-b", )"
        R"("tool_name": "dispatch_food_truck", "tool_input": {"resume_session_id": "w-1"}}, )"
        R"("expect": ")" +
            expect + "\"}\n");
    return dir;
  }
  // The action's steps on `workspace` with the `with:` inputs, a fresh runner.temp, and only
  // the system's PATH (the suite must come from the action).
  RunResult run(const std::string& workspace, const std::vector<std::string>& with) const {
    const std::string temp = workspace + "-runner-temp";
    fs::create_directories(temp);
    std::vector<std::string> argv = {
        on_path("python3"), std::string(FLEET_SOURCE_DIR) + "/tests/install/run_action.py",
        std::string(FLEET_SOURCE_DIR) + "/action.yml", workspace, temp};
    argv.insert(argv.end(), with.begin(), with.end());
    return fleet::test::run_with_only_env(
        {"HOME=" + (t / "home"), "PATH=" + std::string(fleet::test::kSystemPath)}, argv);
  }
  std::string release_url() const { return "file://" + (t / "release"); }
};

}  // namespace

TEST_CASE("action: installs a checked release and passes a guarded project, fails as annotations") {
  if (run_process({on_path("python3"), "-c", "import yaml"}).exit_code != 0 ||
      on_path("curl") == "curl") {
    std::printf("SKIPPED: python3-yaml or curl is not installed (./install.sh --test has them)\n");
    std::fflush(stdout);
    std::_Exit(fleet::test::kSkipped);
  }
  TempDir t;
  fs::create_directories(t / "home");
  const Runner runner{t};
  runner.make_release();
  const std::vector<std::string> release = {"version=" + kVersion,
                                            "release-url=" + runner.release_url()};

  // Guarded, its case holding: every step passes; the suite came from the release.
  const std::string guarded = runner.project("guarded", true, "deny");
  RunResult r = runner.run(guarded, release);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "fleet-hooks " + kVersion + " ("));
  CHECK(contains(r.out, "run_action: step: fleet-hooks replay"));
  CHECK(contains(r.out, "run_action: output prefix=" + guarded + "-runner-temp/fleet-hooks"));
  CHECK_FALSE(contains(r.out, "::error"));
  CHECK(fs::exists(guarded + "-runner-temp/fleet-hooks/bin/resume-guard"));

  // Unwired: check fails the job with an annotation per finding (on the file it concerns, where
  // it names one: not for a guard that is missing everywhere).
  const std::string unwired = runner.project("unwired", false, "deny");
  r = runner.run(unwired, release);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out,
                 "::error title=fleet-hooks check guard-missing::no correctly configured "
                 "PreToolUse hook runs resume-guard"));
  CHECK(contains(r.out, "::warning title=fleet-hooks check writer-missing::"));
  CHECK(contains(r.out, "run_action: failed: fleet-hooks check (exit 1)"));

  // A case whose expectation no longer holds: replay fails with an annotation on the cases.
  const std::string changed = runner.project("changed", true, "allow");
  r = runner.run(changed, release);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "::error file=policy/ownership-cases.jsonl,title=fleet-hooks replay::"));
  CHECK(contains(r.out, "another L3 and w-1"));

  // A tarball that does not match SHA256SUMS is not installed, and says so.
  fleet::test::write_file(t / "release/SHA256SUMS", std::string(64, '0') + "  " + kTarball + "\n");
  const std::string tampered = runner.project("tampered", true, "deny");
  r = runner.run(tampered, release);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "::error title=fleet-hooks action::" + kTarball +
                            " does not match its SHA256SUMS entry"));
  CHECK_FALSE(fs::exists(tampered + "-runner-temp/fleet-hooks/bin/resume-guard"));

  // A version that is no version stops before downloading anything.
  r = runner.run(guarded, {"version=latest", "release-url=" + runner.release_url()});
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "::error title=fleet-hooks action::version 'latest' is not x.y.z"));
}
