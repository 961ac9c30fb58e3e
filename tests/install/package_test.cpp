// The packages as a user gets them: cpack on this build tree writes the .deb and the tarball;
// dpkg-deb shows the right metadata and paths; the tarball, unpacked into an empty directory,
// runs with an empty environment (the executables are static).

#include <doctest/doctest.h>
#include <filesystem>

#include "agents/agents.h"
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

const std::string kVersion = FLEET_VERSION_NUMBER;
using fleet::test::kSuiteBinaries;

// Runs argv under `env -i`: no PATH, no HOME, nothing inherited.
RunResult run_clean(const std::vector<std::string>& argv, const std::string& cwd,
                    const std::string& stdin_data = "") {
  RunOptions options;
  options.cwd = cwd;
  options.stdin_data = stdin_data;
  return fleet::test::run_with_only_env({}, argv, options);
}

}  // namespace

TEST_CASE("packages: cpack writes the .deb and the tarball and the tarball runs unpacked") {
  TempDir t;
  const RunResult cpack =
      run_process({FLEET_CPACK, "--config", std::string(FLEET_BINARY_DIR) + "/CPackConfig.cmake",
                   "-B", t / "out"});
  INFO("cpack: " << cpack.out << cpack.err);
  REQUIRE(cpack.exit_code == 0);
  const std::string deb = t / ("out/fleet-hooks_" + kVersion + "_amd64.deb");
  const std::string tarball = t / ("out/fleet-hooks-" + kVersion + "-linux-x86_64.tar.gz");
  REQUIRE(fs::exists(deb));
  REQUIRE(fs::exists(tarball));

  SUBCASE("dpkg-deb -I: the metadata") {
    const RunResult info = run_process({on_path("dpkg-deb"), "-I", deb});
    INFO(info.out);
    CHECK(info.exit_code == 0);
    CHECK(contains(info.out, " Package: fleet-hooks\n"));
    CHECK(contains(info.out, " Version: " + kVersion + "\n"));
    CHECK(contains(info.out, " Architecture: amd64\n"));
    CHECK(contains(info.out, " Maintainer: fleet-hooks authors"));
    CHECK(contains(info.out, " Section: utils\n"));
    CHECK(contains(info.out, " Priority: optional\n"));
    CHECK(contains(info.out, " Description: static hooks and launcher"));
    CHECK(contains(info.out, "  resume-guard (a pre-tool hook)"));
    // Written from the table: every CLI, with the project file install wires for it.
    for (const fleet::AgentCli* agent : fleet::agent_clis()) {
      CAPTURE(agent->name);
      CHECK(contains(info.out, std::string(agent->display_name)));
      CHECK(contains(info.out, std::string(agent->project_hook_file)));
    }
    CHECK_FALSE(contains(info.out, "Depends:"));  // static: nothing to depend on
  }

  SUBCASE("prerm: removing the package warns that wired projects will block, upgrading does not") {
    REQUIRE(run_process({on_path("dpkg-deb"), "-e", deb, t / "control"}).exit_code == 0);
    const std::string prerm = t / "control/prerm";
    REQUIRE(fs::exists(prerm));
    CHECK((fs::status(prerm).permissions() & fs::perms::owner_exec) != fs::perms::none);
    const RunResult removing = run_process({prerm, "remove"});
    CHECK(removing.exit_code == 0);
    CHECK(contains(removing.err, "will then BLOCK"));
    CHECK(contains(removing.err, "fleet-hooks uninstall --project DIR"));
    // Every CLI's wiring blocks (a line each, from the table), and one command unwires them all.
    for (const fleet::AgentCli* agent : fleet::agent_clis()) {
      CAPTURE(agent->name);
      CHECK(contains(removing.err, "    " + std::string(agent->display_name) + ": DIR/" +
                                       std::string(agent->project_hook_file) + "\n"));
    }
    CHECK(contains(removing.err, "it unwires every CLI there"));
    const RunResult upgrading = run_process({prerm, "upgrade", "0.1.0"});
    CHECK(upgrading.exit_code == 0);
    CHECK(upgrading.err.empty());
  }

  SUBCASE("dpkg-deb -c: binaries in /usr/bin and docs in /usr/share/doc owned by root") {
    const RunResult list = run_process({on_path("dpkg-deb"), "-c", deb});
    INFO(list.out);
    CHECK(list.exit_code == 0);
    for (const char* binary : kSuiteBinaries) {
      CHECK(contains(list.out, "-rwxr-xr-x root/root"));
      CHECK(contains(list.out, " ./usr/bin/" + std::string(binary) + "\n"));
    }
    for (const char* doc : {"README.md", "LICENSE", "copyright", "doc/launch-wrapper.md"}) {
      CHECK(contains(list.out, " ./usr/share/doc/fleet-hooks/" + std::string(doc) + "\n"));
    }
    for (const std::string& line : fleet::test::split_lines(list.out)) {
      CHECK(contains(line, " root/root "));
      CHECK(contains(line, " ./usr/"));  // nothing outside the prefix
    }
  }

  SUBCASE("the tarball unpacked into an empty directory runs with env -i") {
    fs::create_directories(t / "unpacked");
    REQUIRE(run_process({on_path("tar"), "-xzf", tarball, "-C", t / "unpacked"}).exit_code == 0);
    const std::string root = t / ("unpacked/fleet-hooks-" + kVersion + "-linux-x86_64");
    CHECK(fleet::test::run_ls(t / "unpacked").size() == 1);
    CHECK(fs::exists(root + "/README.md"));
    CHECK(fs::exists(root + "/doc/resume-guard.md"));  // the README's links resolve
    CHECK(fs::exists(root + "/LICENSE"));
    CHECK(fs::exists(root + "/share/doc/fleet-hooks/copyright"));
    fs::create_directories(t / "work");
    const std::string work = t / "work";

    for (const char* binary : kSuiteBinaries) {
      const std::string path = root + "/bin/" + binary;
      const RunResult version = run_clean({path, "--version"}, work);
      CHECK(version.exit_code == 0);
      CHECK(version.out.find(std::string(binary) + " " + kVersion + " (") == 0);
      CHECK((contains(version.out, "(commit ") || contains(version.out, "(unknown commit)")));
      // No dynamic loader, no shared libraries: runs on a machine without a toolchain.
      CHECK(contains(
          run_process({on_path("ldd"), path}).out + run_process({on_path("ldd"), path}).err,
          "not a dynamic executable"));
    }

    // A record at launch, then guard decisions against it.
    const std::string state = t / "state";
    CHECK(run_clean({root + "/bin/provenance-writer", "record", "--state-dir", state,
                     "--caller-session-id", "l3-owner", "--session-id", "worker-1", "--recipe-name",
                     "implement"},
                    work)
              .exit_code == 0);
    CHECK(run_clean({root + "/bin/fleet-hooks", "verify", "--state-dir", state}, work).exit_code ==
          0);
    const std::string stranger = R"({"session_id":"l3-stranger","hook_event_name":"PreToolUse",)"
                                 R"("tool_name":"mcp__kitchen__dispatch_food_truck",)"
                                 R"("tool_input":{"resume_session_id":"worker-1"}})";
    const RunResult deny =
        run_clean({root + "/bin/resume-guard", "--state-dir", state}, work, stranger);
    CHECK(deny.exit_code == 0);
    CHECK(contains(deny.out, R"("permissionDecision":"deny")"));
    const std::string owner =
        R"({"session_id":"l3-owner","hook_event_name":"PreToolUse",)"
        R"("tool_name":"dispatch_food_truck","tool_input":{"resume_session_id":"worker-1"}})";
    const RunResult pass =
        run_clean({root + "/bin/resume-guard", "--state-dir", state}, work, owner);
    CHECK(pass.exit_code == 0);
    CHECK(pass.out.empty());

    const RunResult launch =
        run_clean({root + "/bin/launch-wrapper", "--quiet", "--", "/bin/echo", "hello"}, work);
    CHECK(launch.exit_code == 0);
    CHECK(launch.out.rfind("FLEET_PID:", 0) == 0);
    CHECK(contains(launch.out, "\nhello\n"));
  }
}
