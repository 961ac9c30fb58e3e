// The Debian package installed by dpkg itself, as `apt install ./fleet-hooks_*.deb` does, but
// into a scratch root with a database of its own, so the host's dpkg database and log are not
// touched (checked): `dpkg --root=ROOT --log=FILE --force-not-root --force-script-chrootless`,
// ROOT holding only an empty var/lib/dpkg/ (status, info/, updates/). Then each binary runs from
// ROOT/usr/bin with a clean environment, wires and unwires a project for every CLI
// (round_trip.h), and `dpkg -r` removes it all again.
//
// Maintainer scripts: the package has a prerm and no preinst or postinst, so installing runs
// none. With --root, dpkg runs a script chrooted into ROOT, which has no /bin/sh (and chroot
// needs root); --force-script-chrootless runs it in place with DPKG_ROOT=ROOT instead, which
// suits this prerm: it only prints its warning (checked on `dpkg -r`). dpkg 1.21.22 (Debian
// 12), as root and as an unprivileged user (--force-not-root: the files are then the user's).

#include <doctest/doctest.h>
#include <filesystem>

#include "fixtures.h"
#include "process.h"
#include "round_trip.h"
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
using fleet::test::kSuiteBinaries;

// dpkg on the scratch root `root` with `args`, its log in `log`. dpkg wants the system
// directories on PATH (it looks for ldconfig and start-stop-daemon there).
RunResult dpkg(const std::string& root, const std::string& log,
               const std::vector<std::string>& args) {
  std::vector<std::string> argv = {on_path("dpkg"), "--root=" + root, "--log=" + log,
                                   "--force-not-root", "--force-script-chrootless"};
  argv.insert(argv.end(), args.begin(), args.end());
  return fleet::test::run_with_only_env({"PATH=/usr/sbin:/usr/bin:/sbin:/bin"}, argv);
}

// Runs argv with only HOME and PATH=<bin>:/usr/bin:/bin.
RunResult run_from(const std::string& bin, const std::string& home,
                   const std::vector<std::string>& argv, const std::string& cwd,
                   const std::string& stdin_data = "") {
  RunOptions options;
  options.cwd = cwd;
  options.stdin_data = stdin_data;
  return fleet::test::run_with_only_env(
      {"HOME=" + home, "PATH=" + bin + ":" + fleet::test::kSystemPath}, argv, options);
}

}  // namespace

TEST_CASE("packages: dpkg -i into a scratch root - every binary runs from there - dpkg -r") {
  if (on_path("dpkg") == "dpkg") {
    std::printf("SKIPPED: dpkg is not installed (the Debian package needs a Debian system)\n");
    std::fflush(stdout);
    std::_Exit(fleet::test::kSkipped);
  }
  TempDir t;
  const RunResult cpack =
      run_process({FLEET_CPACK, "--config", std::string(FLEET_BINARY_DIR) + "/CPackConfig.cmake",
                   "-G", "DEB", "-B", t / "out"});
  INFO("cpack: " << cpack.out << cpack.err);
  REQUIRE(cpack.exit_code == 0);
  const std::string deb = t / ("out/fleet-hooks_" + kVersion + "_" + FLEET_DEB_ARCH + ".deb");
  REQUIRE(fs::exists(deb));

  const std::string root = t / "root";
  fs::create_directories(root + "/var/lib/dpkg/info");
  fs::create_directories(root + "/var/lib/dpkg/updates");
  fleet::test::write_file(root + "/var/lib/dpkg/status", "");
  const std::string host_status = read_file("/var/lib/dpkg/status");
  const std::string host_log = read_file("/var/log/dpkg.log");

  const RunResult installed = dpkg(root, t / "dpkg.log", {"-i", deb});
  INFO("dpkg -i: " << installed.out << installed.err);
  REQUIRE(installed.exit_code == 0);
  CHECK(contains(installed.out, "Setting up fleet-hooks (" + kVersion + ")"));
  CHECK(contains(dpkg(root, t / "dpkg.log", {"-s", "fleet-hooks"}).out,
                 "Status: install ok installed\n"));

  const std::string bin = root + "/usr/bin";
  const std::string home = t / "home";
  fs::create_directories(home);
  fs::create_directories(t / "work");
  const std::string work = t / "work";
  for (const char* binary : kSuiteBinaries) {
    const RunResult version = run_from(bin, home, {binary, "--version"}, work);
    CHECK(version.exit_code == 0);
    CHECK(version.out.rfind(std::string(binary) + " " + kVersion + " (", 0) == 0);
  }

  const std::string state = t / "state";
  CHECK(run_from(bin, home,
                 {"provenance-writer", "record", "--state-dir", state, "--caller-session-id",
                  "l3-owner", "--session-id", "worker-1", "--recipe-name", "implement"},
                 work)
            .exit_code == 0);
  const RunResult deny = run_from(bin, home, {"resume-guard", "--state-dir", state}, work,
                                  fleet::test::pre_tool_use("l3-stranger", "worker-1"));
  CHECK(deny.exit_code == 0);
  CHECK(contains(deny.out, R"("permissionDecision":"deny")"));

  const RunResult launch =
      run_from(bin, home, {"launch-wrapper", "--quiet", "--", "/bin/echo", "hello"}, work);
  CHECK(launch.exit_code == 0);
  CHECK(launch.out.rfind("FLEET_PID:", 0) == 0);
  CHECK(contains(launch.out, "\nhello\n"));

  fs::create_directories(t / "orch");
  const RunResult wired =
      run_from(bin, home, {"fleet-hooks", "install", "--project", "."}, t / "orch");
  INFO(wired.out << wired.err);
  CHECK(wired.exit_code == 0);
  const RunResult checked =
      run_from(bin, home, {"fleet-hooks", "check", "--project", "."}, t / "orch");
  INFO(checked.out << checked.err);
  CHECK(checked.exit_code == 0);
  // The package's Claude Code plugin guards on its own (its selector runs the binary).
  fs::create_directories(t / "bare");
  const RunResult plugin = run_from(bin, home,
                                    {"fleet-hooks", "check", "--project", ".", "--plugin-dir",
                                     root + "/usr/share/fleet-hooks/claude-plugin"},
                                    t / "bare");
  INFO(plugin.out << plugin.err);
  CHECK(plugin.exit_code == 0);

  // Every CLI's wiring by the package's fleet-hooks, after the CLI ran once, comes out again.
  fleet::test::check_round_trip_every_cli(bin);

  // Removing it: the prerm's warning first, then nothing of the package is left: no file
  // under ROOT but dpkg's database, which no longer names it.
  const RunResult removed = dpkg(root, t / "dpkg.log", {"-r", "fleet-hooks"});
  INFO("dpkg -r: " << removed.out << removed.err);
  CHECK(removed.exit_code == 0);
  CHECK(contains(removed.err, "will then BLOCK"));
  CHECK(contains(removed.err, "fleet-hooks uninstall --project DIR"));
  CHECK_FALSE(fs::exists(root + "/usr"));
  CHECK(fleet::test::run_ls(root) == std::vector<std::string>{"var"});
  for (const std::string& left : fleet::test::suite_paths(root))
    FAIL_CHECK("dpkg -r left " << left);
  CHECK(contains(read_file(t / "dpkg.log"), " remove fleet-hooks:"));

  // The host's own dpkg database and log were not touched.
  CHECK(read_file("/var/lib/dpkg/status") == host_status);
  CHECK(read_file("/var/log/dpkg.log") == host_log);
}
