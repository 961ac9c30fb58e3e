// The npm packages as a user gets them: the main package "fleet-hooks" and the platform package
// "@fleet-hooks/linux-x64" (staged by cmake/NpmPackages.cmake from this build's executables,
// packed with `npm pack`), installed with `npm install -g --prefix` into an empty prefix and
// HOME, offline, with a clean environment: the commands are on the prefix's bin, a hook call
// execs the static binary itself (no Node, no shell in between), and the suite works from
// there — a guard deny, a launch with FLEET_PID, fleet-hooks install + check on a project,
// every CLI's round trip (round_trip.h) — and `npm uninstall -g` removes it.

#include <doctest/doctest.h>
#include <algorithm>
#include <filesystem>

#include "base/json.h"
#include "fixtures.h"
#include "process.h"
#include "round_trip.h"
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

const std::string kVersion = FLEET_VERSION_NUMBER;
using fleet::test::kSuiteBinaries;

// The packed packages: {main package, platform package}; skips the test without npm.
struct Tarballs {
  std::string main;
  std::string platform;
};

Tarballs pack_npm_packages(const TempDir& t) {
  const std::string npm = on_path("npm");
  if (npm == "npm") {
    std::printf("SKIPPED: npm is not installed (the npm packages need node and npm)\n");
    std::fflush(stdout);
    std::_Exit(fleet::test::kSkipped);
  }
  REQUIRE(
      run_process({FLEET_CMAKE, "--install", FLEET_BINARY_DIR, "--prefix", t / "built", "--strip"})
          .exit_code == 0);
  const RunResult staged = run_process(
      {FLEET_CMAKE, "-DSOURCE_DIR=" + std::string(FLEET_SOURCE_DIR), "-DVERSION=" + kVersion,
       "-DOUT_DIR=" + (t / "npm"), "-DBIN_x64=" + (t / "built/bin"), "-P",
       std::string(FLEET_SOURCE_DIR) + "/cmake/NpmPackages.cmake"});
  INFO(staged.out << staged.err);
  REQUIRE(staged.exit_code == 0);
  fs::create_directories(t / "packed");
  for (const char* package : {"linux-x64", "fleet-hooks"}) {
    RunOptions in_package;
    in_package.cwd = t / ("npm/" + std::string(package));
    const RunResult packed =
        run_process({npm, "pack", "--silent", "--pack-destination", t / "packed"}, in_package);
    INFO(packed.out << packed.err);
    REQUIRE(packed.exit_code == 0);
  }
  return {t / ("packed/fleet-hooks-" + kVersion + ".tgz"),
          t / ("packed/fleet-hooks-linux-x64-" + kVersion + ".tgz")};
}

// `npm <args> -g --prefix PREFIX`, offline, with HOME empty and only the system's PATH: what
// a person with node but no compiler runs.
RunResult npm_global(const TempDir& t, const std::string& prefix, std::vector<std::string> args) {
  fs::create_directories(t / "home");
  const std::vector<std::string> options = {"-g",        "--prefix",   prefix,
                                            "--offline", "--no-audit", "--no-fund"};
  args.insert(args.begin() + 1, options.begin(), options.end());
  args.insert(args.begin(), on_path("npm"));
  return fleet::test::run_with_only_env(
      {"HOME=" + (t / "home"),
       "PATH=" + fs::path(on_path("npm")).parent_path().string() + ":" + fleet::test::kSystemPath},
      args);
}

// `npm install -g --prefix PREFIX` of the tarballs (npm_global).
RunResult npm_install(const TempDir& t, const std::string& prefix,
                      const std::vector<std::string>& packages, bool ignore_scripts = false) {
  std::vector<std::string> args = {"install"};
  if (ignore_scripts) args.push_back("--ignore-scripts");
  args.insert(args.end(), packages.begin(), packages.end());
  return npm_global(t, prefix, args);
}

// Runs argv with nothing but PATH=<bin>:/usr/bin:/bin (and HOME) in the environment.
RunResult run_with_bin(const std::string& bin, const std::string& home,
                       const std::vector<std::string>& argv, const std::string& cwd,
                       const std::string& stdin_data = "") {
  RunOptions options;
  options.cwd = cwd;
  options.stdin_data = stdin_data;
  return fleet::test::run_with_only_env(
      {"HOME=" + home, "PATH=" + bin + ":" + fleet::test::kSystemPath}, argv, options);
}

const std::string kStranger = R"({"session_id":"l3-stranger","hook_event_name":"PreToolUse",)"
                              R"("tool_name":"mcp__kitchen__dispatch_food_truck",)"
                              R"("tool_input":{"resume_session_id":"worker-1"}})";

}  // namespace

TEST_CASE("npm: npm install -g of the packages puts the four static executables on PATH") {
  TempDir t;
  const Tarballs packed = pack_npm_packages(t);
  const std::string prefix = t / "global";
  const RunResult installed = npm_install(t, prefix, {packed.main, packed.platform});
  INFO(installed.out << installed.err);
  REQUIRE(installed.exit_code == 0);
  const std::string bin = prefix + "/bin";
  const std::string home = t / "home";
  fs::create_directories(t / "work");

  for (const char* binary : kSuiteBinaries) {
    const std::string path = bin + "/" + binary;
    CAPTURE(path);
    // The link npm made leads to the static executable itself: a hook call is one exec. The
    // install script hard-linked it from the platform package: one copy on disk.
    const std::string target = fs::canonical(path);
    CHECK(fleet::test::read_file(target).rfind("\x7f"
                                               "ELF",
                                               0) == 0);
    CHECK(fs::equivalent(
        target, prefix + "/lib/node_modules/@fleet-hooks/linux-x64/bin/" + std::string(binary)));
    const RunResult version = run_with_bin(bin, home, {binary, "--version"}, t / "work");
    CHECK(version.exit_code == 0);
    CHECK(version.out.rfind(std::string(binary) + " " + kVersion + " (", 0) == 0);
  }

  const std::string state = t / "state";
  CHECK(run_with_bin(bin, home,
                     {"provenance-writer", "record", "--state-dir", state, "--caller-session-id",
                      "l3-owner", "--session-id", "worker-1", "--recipe-name", "implement"},
                     t / "work")
            .exit_code == 0);
  const RunResult deny =
      run_with_bin(bin, home, {"resume-guard", "--state-dir", state}, t / "work", kStranger);
  CHECK(deny.exit_code == 0);
  CHECK(contains(deny.out, R"("permissionDecision":"deny")"));

  const RunResult launch =
      run_with_bin(bin, home, {"launch-wrapper", "--quiet", "--", "/bin/echo", "hi"}, t / "work");
  CHECK(launch.exit_code == 0);
  CHECK(launch.out.rfind("FLEET_PID:", 0) == 0);

  fs::create_directories(t / "orch");
  const RunResult wired =
      run_with_bin(bin, home, {"fleet-hooks", "install", "--project", "."}, t / "orch");
  INFO(wired.out << wired.err);
  CHECK(wired.exit_code == 0);
  const RunResult checked =
      run_with_bin(bin, home, {"fleet-hooks", "check", "--project", "."}, t / "orch");
  INFO(checked.out << checked.err);
  CHECK(checked.exit_code == 0);

  // npx finds the globally installed command as well (npm's prefix being this one).
  const RunResult npx = run_with_bin(
      bin + ":" + fs::path(on_path("npx")).parent_path().string(), home,
      {"env", "npm_config_prefix=" + prefix, "npx", "--offline", "fleet-hooks", "--version"},
      t / "orch");
  INFO(npx.out << npx.err);
  CHECK(npx.exit_code == 0);
  CHECK(contains(npx.out, "fleet-hooks " + kVersion));

  // Every CLI's wiring by the package's fleet-hooks, after the CLI ran once, comes out again.
  fleet::test::check_round_trip_every_cli(bin);

  // The README's `npm uninstall -g` of both packages leaves nothing of the suite in the prefix
  // but the folder of the scope, empty: npm 11.19.1 keeps that of any scoped package.
  const RunResult removed =
      npm_global(t, prefix, {"uninstall", "fleet-hooks", "@fleet-hooks/linux-x64"});
  INFO(removed.out << removed.err);
  CHECK(removed.exit_code == 0);
  const std::string scope = "lib/node_modules/@fleet-hooks";
  for (const std::string& left : fleet::test::suite_paths(prefix))
    if (left != scope) FAIL_CHECK("npm uninstall -g left " << left);
  CHECK((!fs::exists(prefix + "/" + scope) || fs::is_empty(prefix + "/" + scope)));
}

TEST_CASE("npm: without install scripts the launchers exec the platform package's binaries") {
  TempDir t;
  const Tarballs packed = pack_npm_packages(t);
  const std::string prefix = t / "global";
  REQUIRE(npm_install(t, prefix, {packed.main, packed.platform}, true).exit_code == 0);
  const std::string bin = prefix + "/bin";
  fs::create_directories(t / "work");
  const std::string state = t / "state";
  CHECK(run_with_bin(bin, t / "home",
                     {"provenance-writer", "record", "--state-dir", state, "--caller-session-id",
                      "l3-owner", "--session-id", "worker-1", "--recipe-name", "implement"},
                     t / "work")
            .exit_code == 0);
  const RunResult deny =
      run_with_bin(bin, t / "home", {"resume-guard", "--state-dir", state}, t / "work", kStranger);
  CHECK(deny.exit_code == 0);
  CHECK(contains(deny.out, R"("permissionDecision":"deny")"));

  // The launcher is one shell and nothing else: with no command on PATH (no readlink, dirname
  // or uname) it still finds this machine's binary, through npm's link in <prefix>/bin/ and
  // from its own place in the package (where the kernel names the machine in
  // /proc/sys/kernel/arch; elsewhere the launcher asks uname).
  if (!fs::exists("/proc/sys/kernel/arch")) return;
  for (const std::string& launcher :
       {bin + "/resume-guard", prefix + "/lib/node_modules/fleet-hooks/bin/resume-guard"}) {
    CAPTURE(launcher);
    CHECK(fleet::test::read_file(launcher).rfind("#!/bin/sh\n", 0) == 0);
    RunOptions input;
    input.stdin_data = kStranger;
    const RunResult bare = fleet::test::run_with_only_env(
        {"PATH=/nonexistent", "HOME=" + (t / "home")}, {launcher, "--state-dir", state}, input);
    INFO(bare.err);
    CHECK(contains(bare.out, R"("permissionDecision":"deny")"));
  }
}

TEST_CASE("npm: without its platform package the guard blocks the call and says what to install") {
  TempDir t;
  const Tarballs packed = pack_npm_packages(t);
  const std::string prefix = t / "global";
  REQUIRE(npm_install(t, prefix, {packed.main}).exit_code == 0);
  fs::create_directories(t / "work");
  const RunResult guard =
      run_with_bin(prefix + "/bin", t / "home", {"resume-guard"}, t / "work", kStranger);
  CHECK(guard.exit_code == 2);  // a PreToolUse hook's exit 2 blocks the call
  CHECK(contains(guard.err, "@fleet-hooks/linux-x64 is not installed"));
}

TEST_CASE("npm: npm publish --dry-run of each packed package passes, as the release publishes") {
  TempDir t;
  const Tarballs packed = pack_npm_packages(t);
  fs::create_directories(t / "home");
  // The release workflow's command (.github/workflows/release.yml) without --provenance, which
  // needs a CI identity: each tarball by a ./ path (npm reads dist/x.tgz as a GitHub repo),
  // the platform package first. Offline, HOME empty: nothing is sent.
  const std::pair<std::string, std::string> packages[] = {
      {packed.platform, "@fleet-hooks/linux-x64@" + kVersion},
      {packed.main, "fleet-hooks@" + kVersion}};
  for (const auto& [tarball, package] : packages) {
    CAPTURE(tarball);
    RunOptions in_packed;
    in_packed.cwd = fs::path(tarball).parent_path();
    const RunResult published = fleet::test::run_with_only_env(
        {"HOME=" + (t / "home"), "PATH=" + fs::path(on_path("npm")).parent_path().string() + ":" +
                                     fleet::test::kSystemPath},
        {on_path("npm"), "publish", "--dry-run", "--offline", "--no-update-notifier", "--access",
         "public", "./" + fs::path(tarball).filename().string()},
        in_packed);
    INFO(published.out << published.err);
    CHECK(published.exit_code == 0);
    CHECK(contains(published.out, "+ " + package));
    CHECK(contains(published.err, "(dry-run)"));
  }
}

TEST_CASE("npm: npm picks the platform package of the os and cpu it installs for") {
  // All five packages, the macOS ones staged from this build's executables (npm's choice reads
  // only the package.json of each; the release stages them from the macOS builds). A project
  // depends on the packed fleet-hooks, and `overrides` points each platform package at its
  // packed tarball, so that npm resolves the optional dependencies offline as it would from
  // the registry: `npm install --os O --cpu C` installs the one of O-C and no other.
  TempDir t;
  const std::string npm = on_path("npm");
  if (npm == "npm") {
    std::printf("SKIPPED: npm is not installed (the npm packages need node and npm)\n");
    std::fflush(stdout);
    std::_Exit(fleet::test::kSkipped);
  }
  REQUIRE(run_process({FLEET_CMAKE, "--install", FLEET_BINARY_DIR, "--prefix", t / "built"})
              .exit_code == 0);
  const std::string bin = t / "built/bin";
  const RunResult staged =
      run_process({FLEET_CMAKE, "-DSOURCE_DIR=" + std::string(FLEET_SOURCE_DIR),
                   "-DVERSION=" + kVersion, "-DOUT_DIR=" + (t / "npm"), "-DBIN_x64=" + bin,
                   "-DBIN_arm64=" + bin, "-DBIN_darwin_x64=" + bin, "-DBIN_darwin_arm64=" + bin,
                   "-P", std::string(FLEET_SOURCE_DIR) + "/cmake/NpmPackages.cmake"});
  INFO(staged.out << staged.err);
  REQUIRE(staged.exit_code == 0);
  const std::pair<std::string, std::string> platforms[] = {
      {"linux", "x64"}, {"linux", "arm64"}, {"darwin", "x64"}, {"darwin", "arm64"}};
  fs::create_directories(t / "packed");
  std::string overrides;
  for (const auto& [os, cpu] : platforms) {
    const std::string name = os + "-" + cpu;
    CAPTURE(name);
    RunOptions in_package;
    in_package.cwd = t / ("npm/" + name);
    REQUIRE(run_process({npm, "pack", "--silent", "--pack-destination", t / "packed"}, in_package)
                .exit_code == 0);
    const std::string tarball = t / ("packed/fleet-hooks-" + name + "-" + kVersion + ".tgz");
    // What the package holds and says: the four executables, its os and cpu.
    const RunResult listed = run_process({"/bin/tar", "-tzf", tarball});
    std::vector<std::string> files = fleet::test::split_lines(listed.out);
    std::sort(files.begin(), files.end());
    CHECK(files == std::vector<std::string>{"package/bin/fleet-hooks", "package/bin/launch-wrapper",
                                            "package/bin/provenance-writer",
                                            "package/bin/resume-guard", "package/package.json"});
    const auto manifest = fleet::parse_json_object(
        run_process({"/bin/tar", "-xzOf", tarball, "package/package.json"}).out);
    REQUIRE(manifest.ok());
    CHECK(std::string((*manifest)["name"].GetString()) == "@fleet-hooks/" + name);
    CHECK(std::string((*manifest)["version"].GetString()) == kVersion);
    CHECK(std::string((*manifest)["os"][0].GetString()) == os);
    CHECK((*manifest)["os"].Size() == 1);
    CHECK(std::string((*manifest)["cpu"][0].GetString()) == cpu);
    CHECK((*manifest)["cpu"].Size() == 1);
    overrides += std::string(overrides.empty() ? "" : ",") + "\"@fleet-hooks/" + name +
                 "\":\"file:" + tarball + "\"";
  }
  RunOptions in_main;
  in_main.cwd = t / "npm/fleet-hooks";
  REQUIRE(run_process({npm, "pack", "--silent", "--pack-destination", t / "packed"}, in_main)
              .exit_code == 0);
  const auto main_manifest =
      fleet::parse_json_object(fleet::test::read_file(t / "npm/fleet-hooks/package.json"));
  REQUIRE(main_manifest.ok());
  const auto& optional = (*main_manifest)["optionalDependencies"];
  CHECK(optional.MemberCount() == 4);
  for (const auto& [os, cpu] : platforms) {
    const std::string name = "@fleet-hooks/" + os + "-" + cpu;
    CAPTURE(name);
    REQUIRE(optional.HasMember(name.c_str()));
    CHECK(std::string(optional[name.c_str()].GetString()) == kVersion);
  }

  fs::create_directories(t / "home");
  for (const auto& [os, cpu] : platforms) {
    const std::string name = os + "-" + cpu;
    CAPTURE(name);
    const std::string project = t / ("project-" + name);
    fs::create_directories(project);
    fleet::test::write_file(
        project + "/package.json",
        R"({"name":"orch","version":"1.0.0","dependencies":{"fleet-hooks":"file:)" +
            (t / ("packed/fleet-hooks-" + kVersion + ".tgz")) + R"("},"overrides":{)" + overrides +
            "}}\n");
    RunOptions in_project;
    in_project.cwd = project;
    const RunResult installed = fleet::test::run_with_only_env(
        {"HOME=" + (t / "home"),
         "PATH=" + fs::path(npm).parent_path().string() + ":" + fleet::test::kSystemPath},
        {npm, "install", "--offline", "--no-audit", "--no-fund", "--no-update-notifier", "--os", os,
         "--cpu", cpu},
        in_project);
    INFO(installed.out << installed.err);
    REQUIRE(installed.exit_code == 0);
    CHECK(fleet::test::run_ls(project + "/node_modules/@fleet-hooks") ==
          std::vector<std::string>{name});
    for (const char* binary : kSuiteBinaries)
      CHECK(fs::exists(project + "/node_modules/@fleet-hooks/" + name + "/bin/" + binary));
  }
}
