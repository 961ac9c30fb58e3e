// install.sh as a newcomer runs it: from another directory with relative paths, wiring two
// projects, then --uninstall, which must leave the prefix and the projects as they were.

#include <doctest/doctest.h>
#include <unistd.h>
#include <filesystem>

#include "fixtures.h"
#include "install_sh.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"
#include "tree.h"

using fleet::test::contains;
using fleet::test::install_sh;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunOptions;
using fleet::test::RunResult;
using fleet::test::snapshot_tree;
using fleet::test::TempDir;
using fleet::test::user_path;
using fleet::test::write_file;

namespace {

namespace fs = std::filesystem;

using fleet::test::kSuiteBinaries;

}  // namespace

TEST_CASE("install.sh: a missing --project is refused before anything is built") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "home");
  // A cmake that leaves a trace: the check must come before any build step.
  const std::string path = fleet::test::path_with_tracing_cmake(t / "fakebin", t / "cmake-ran");

  const RunResult r = install_sh({"--prefix", "../prefix", "--project", "../no-such-project"},
                                 t / "work", t / "home", path);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "../no-such-project does not exist"));
  CHECK(contains(r.err, t / "work/../no-such-project"));  // where it looked
  CHECK(contains(r.err, "nothing was built or installed"));
  CHECK_FALSE(fs::exists(t / "cmake-ran"));
  CHECK_FALSE(fs::exists(t / "prefix"));

  write_file(t / "file", "not a directory\n");
  const RunResult not_dir = install_sh({"--project", "../file"}, t / "work", t / "home", path);
  CHECK(not_dir.exit_code == 2);
  CHECK_FALSE(fs::exists(t / "cmake-ran"));

  const RunResult unknown = install_sh({"--frobnicate"}, t / "work", t / "home");
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.err, "unknown option '--frobnicate'"));
  CHECK(contains(unknown.err, "--help"));
}

TEST_CASE("install.sh: a failed build prints its messages without the progress lines") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "orch");
  // A build that fails the way make does: progress lines, then a compiler error.
  fs::create_directories(t / "fakebin");
  write_file(t / "fakebin/cmake",
             "#!/bin/sh\n"
             "case \"$1\" in --build) ;; *) exit 0 ;; esac\n"
             "echo '[ 12%] Building CXX object common/CMakeFiles/fleet_common.dir/ids.cpp.o'\n"
             "echo 'common/ids.cpp:7:3: error: expected unqualified-id before return' >&2\n"
             "echo 'gmake: *** [Makefile:146: all] Error 2'\n"
             "exit 2\n");
  fs::permissions(t / "fakebin/cmake", fs::perms::owner_all);

  const RunResult r = install_sh({"--prefix", "../prefix", "--project", "../orch"}, t / "work",
                                 t / "home", t / "fakebin" + ":" + user_path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "common/ids.cpp:7:3: error: expected unqualified-id before return"));
  CHECK(contains(r.err, "gmake: *** [Makefile:146: all] Error 2"));
  CHECK_FALSE(contains(r.out + r.err, "[ 12%]"));
  CHECK(contains(r.err, "the build failed"));
  CHECK(contains(r.out, "building the four static executables"));  // said up front
  CHECK_FALSE(fs::exists(t / "prefix"));
  CHECK(fleet::test::run_ls(t / "orch").empty());
}

TEST_CASE("install.sh: the build's progress names each step and its count never goes back") {
  TempDir t;
  fs::create_directories(t / "work");
  // A build of three objects and a link as make logs it, whose percentages go from 100% back
  // to 93% (as make's do when it builds several targets), slow enough for two progress
  // lines; its dry run (-n -k) lists the objects, as make -n echoes them (it cannot link).
  fs::create_directories(t / "fakebin");
  write_file(
      t / "fakebin/cmake",
      "#!/bin/sh\n"
      "case \"$1\" in --build) ;; *) exit 0 ;; esac\n"
      "case \" $* \" in *' -n '*)\n"
      "  echo 'echo \"Building CXX object common/CMakeFiles/fleet_common.dir/base/cli.cpp.o\"'\n"
      "  echo 'echo \"Building CXX object common/CMakeFiles/fleet_common.dir/base/ids.cpp.o\"'\n"
      "  echo 'echo \"Building CXX object "
      "hooks/fleet-hooks/CMakeFiles/fleet-hooks.dir/main.cpp.o\"'\n"
      "  exit 0 ;;\n"
      "esac\n"
      "echo '[100%] Building CXX object common/CMakeFiles/fleet_common.dir/base/cli.cpp.o'\n"
      "sleep 12\n"
      "echo '[ 93%] Building CXX object common/CMakeFiles/fleet_common.dir/base/ids.cpp.o'\n"
      "echo '[ 95%] Building CXX object hooks/fleet-hooks/CMakeFiles/fleet-hooks.dir/main.cpp.o'\n"
      "echo '[ 97%] Linking CXX executable fleet-hooks'\n"
      "sleep 12\n"
      "echo 'collect2: error: ld returned 1 exit status' >&2\n"
      "exit 2\n");
  fs::permissions(t / "fakebin/cmake", fs::perms::owner_all);

  const RunResult r = install_sh({"--prefix", "../prefix"}, t / "work", t / "home",
                                 t / "fakebin" + ":" + user_path());
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 1);
  // The estimate is the CPU time bench/build_cpu.sh wrote into doc/install.md.
  const std::string page = read_file(std::string(FLEET_SOURCE_DIR) + "/doc/install.md");
  const std::size_t needs = page.find(" s of CPU time (user ");
  REQUIRE(needs != std::string::npos);
  const std::size_t number = page.rfind(' ', needs - 1) + 1;
  const std::string cpu = page.substr(number, needs - number);
  CHECK(contains(r.out, "a first build needs about " + cpu + " s of CPU time"));
  // Each progress line counts the objects begun, of all the build has, and names the step
  // begun last.
  CHECK(contains(r.out, ": 1 of 3 objects: compiling common/base/cli.cpp\n"));
  CHECK(contains(r.out, ": 3 of 3 objects: linking fleet-hooks\n"));
  int counted = 0;
  for (const std::string& line : fleet::test::split_lines(r.out)) {
    const std::size_t of = line.find(" of 3 objects");
    if (of == std::string::npos) continue;
    const int count = std::stoi(line.substr(line.rfind(' ', of - 1) + 1));
    CHECK(count >= counted);
    counted = count;
  }
  CHECK(counted == 3);
}

TEST_CASE("install.sh --uninstall: a prefix without an install is reported and nothing changes") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "prefix/bin");
  const auto before = snapshot_tree(t.path());
  const RunResult r = install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home");
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "found no fleet-hooks install in " + (t / "prefix")));
  CHECK(contains(r.err, "--prefix you installed with"));
  CHECK(snapshot_tree(t.path()) == before);
}

TEST_CASE(
    "install.sh: relative --prefix and --project land where the user meant and "
    "--uninstall restores both trees") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "home");
  // A prefix that already holds someone else's tool, a project without .claude/ and one
  // whose settings.json has content of its own.
  fs::create_directories(t / "prefix/bin");
  fleet::test::write_script(t / "prefix/bin/other-tool", "echo other\n");
  fs::create_directories(t / "orch-a");
  write_file(t / "orch-a/README.md", "orchestrator A\n");
  fs::create_directories(t / "orch-b/.claude");
  write_file(t / "orch-b/.claude/settings.json", "{\n  \"model\": \"opus\"\n}\n");
  const auto prefix_before = snapshot_tree(t / "prefix");
  const auto a_before = snapshot_tree(t / "orch-a");
  const auto b_before = snapshot_tree(t / "orch-b");

  const RunResult a =
      install_sh({"--prefix", "../prefix", "--project", "../orch-a"}, t / "work", t / "home");
  INFO("stdout: " << a.out << "\nstderr: " << a.err);
  REQUIRE(a.exit_code == 0);
  for (const char* binary : kSuiteBinaries) {
    const std::string path = t / ("prefix/bin/" + std::string(binary));
    CHECK(::access(path.c_str(), X_OK) == 0);
    const RunResult version = run_process({path, "--version"});
    CHECK(version.out.find(std::string(binary) + " " + FLEET_VERSION_NUMBER + " (") == 0);
  }
  CHECK(fs::exists(t / "prefix/share/fleet-hooks/install_manifest.txt"));
  // Nothing landed beside install.sh or in the directory it was run from.
  CHECK_FALSE(fs::exists(std::string(FLEET_SOURCE_DIR) + "/orch-a"));
  CHECK_FALSE(fs::exists(std::string(FLEET_SOURCE_DIR) + "/../prefix/bin/resume-guard"));
  CHECK(fleet::test::run_ls(t / "work").empty());
  const std::string settings_a = read_file(t / "orch-a/.claude/settings.json");
  CHECK(contains(settings_a, "resume-guard"));
  CHECK(contains(settings_a, "provenance-writer"));
  CHECK(contains(a.out, "ok: "));  // fleet-hooks check passed
  // What to do next.
  CHECK(contains(a.out, "Next steps"));
  CHECK(contains(a.out, "export PATH=\"" + (t / "prefix") + "/bin:$PATH\""));
  CHECK(contains(a.out, "commit .claude/settings.json"));
  CHECK(contains(a.out, ".claude/settings.json.bak"));
  CHECK(contains(a.out, "--record-provenance"));
  CHECK(contains(a.out, "--uninstall --prefix " + (t / "prefix")));
  // A quiet build: make's own lines stay in the log (a progress line may quote one).
  for (const std::string& line : fleet::test::split_lines(a.out))
    CHECK_FALSE(line.starts_with("["));

  const RunResult b =
      install_sh({"--prefix=../prefix", "--project=../orch-b"}, t / "work", t / "home");
  INFO("stdout: " << b.out << "\nstderr: " << b.err);
  REQUIRE(b.exit_code == 0);
  const std::string settings_b = read_file(t / "orch-b/.claude/settings.json");
  CHECK(contains(settings_b, "\"model\": \"opus\""));
  CHECK(contains(settings_b, "resume-guard"));

  // One uninstall removes the binaries, the records and both projects' wiring.
  const RunResult u = install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home");
  INFO("stdout: " << u.out << "\nstderr: " << u.err);
  CHECK(u.exit_code == 0);
  CHECK(snapshot_tree(t / "prefix") == prefix_before);
  CHECK(snapshot_tree(t / "orch-a") == a_before);
  CHECK(snapshot_tree(t / "orch-b") == b_before);
}

TEST_CASE("install.sh --uninstall keeps the binaries while a wired project cannot be unwired") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "orch");
  const RunResult install =
      install_sh({"--prefix", "../prefix", "--project", "../orch"}, t / "work", t / "home");
  REQUIRE(install.exit_code == 0);
  // Settings someone broke by hand: fleet-hooks refuses to rewrite them.
  write_file(t / "orch/.claude/settings.json", "{broken\n");

  const RunResult refused =
      install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home");
  CHECK(refused.exit_code == 1);
  CHECK(contains(refused.err, "could not unwire " + (t / "orch")));
  CHECK(contains(refused.err, "Nothing was removed"));
  CHECK(fs::exists(t / "prefix/bin/resume-guard"));
  CHECK(read_file(t / "orch/.claude/settings.json") == "{broken\n");

  write_file(t / "orch/.claude/settings.json", "{}\n");
  const RunResult done =
      install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home");
  CHECK(done.exit_code == 0);
  CHECK_FALSE(fs::exists(t / "prefix"));
  CHECK(fleet::test::run_ls(t / "orch").empty());
}

TEST_CASE("install.sh --package writes every package of every machine relative to the caller") {
  TempDir t;
  fs::create_directories(t / "work");
  const RunResult r = install_sh({"--package", "../dist"}, t / "work", t / "home");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 0);
  const std::string version = FLEET_VERSION_NUMBER;
  const std::vector<std::string> expected = {"SHA256SUMS",
                                             "fleet-hooks-" + version + "-darwin-arm64.tar.gz",
                                             "fleet-hooks-" + version + "-darwin-x64.tar.gz",
                                             "fleet-hooks-" + version + "-linux-aarch64.tar.gz",
                                             "fleet-hooks-" + version + "-linux-x86_64.tar.gz",
                                             "fleet-hooks-" + version + ".tgz",
                                             "fleet-hooks-claude-plugin-" + version + ".tar.gz",
                                             "fleet-hooks-darwin-arm64-" + version + ".tgz",
                                             "fleet-hooks-darwin-x64-" + version + ".tgz",
                                             "fleet-hooks-linux-arm64-" + version + ".tgz",
                                             "fleet-hooks-linux-x64-" + version + ".tgz",
                                             "fleet-hooks_" + version + "_amd64.deb",
                                             "fleet-hooks_" + version + "_arm64.deb"};
  CHECK(fleet::test::run_ls(t / "dist") == expected);  // and no CPack scratch left behind
  CHECK(contains(r.out, t / ("dist/fleet-hooks_" + version + "_amd64.deb")));
  CHECK(fleet::test::run_ls(t / "work").empty());
  // Every artifact is in SHA256SUMS, and the sums hold.
  RunOptions in_dist;
  in_dist.cwd = t / "dist";
  const RunResult sums = run_process({"/usr/bin/sha256sum", "-c", "SHA256SUMS"}, in_dist);
  INFO(sums.out << sums.err);
  CHECK(sums.exit_code == 0);
  CHECK(fleet::test::split_lines(sums.out).size() == expected.size() - 1);
  // The aarch64 tarball holds aarch64 executables (ELF e_machine 183, EM_AARCH64).
  fs::create_directories(t / "a64");
  REQUIRE(run_process({"/bin/tar", "-xzf",
                       t / ("dist/fleet-hooks-" + version + "-linux-aarch64.tar.gz"), "-C",
                       t / "a64", "--strip-components=1"})
              .exit_code == 0);
  for (const char* binary : kSuiteBinaries) {
    const std::string elf = read_file(t / ("a64/bin/" + std::string(binary)));
    REQUIRE(elf.size() > 20);
    CHECK(elf.compare(0, 4,
                      "\x7f"
                      "ELF") == 0);
    CHECK(static_cast<unsigned char>(elf[18]) == 183);
    CHECK(elf[19] == 0);
  }
  // The macOS tarballs: the layout of the Linux ones, Mach-O executables of their machine.
  for (const auto& [cpu, arch] : {std::pair{"arm64", "arm64"}, std::pair{"x64", "x86_64"}}) {
    CAPTURE(cpu);
    const std::string unpacked = t / ("darwin-" + std::string(cpu));
    fs::create_directories(unpacked);
    REQUIRE(run_process({"/bin/tar", "-xzf",
                         t / ("dist/fleet-hooks-" + version + "-darwin-" + cpu + ".tar.gz"), "-C",
                         unpacked})
                .exit_code == 0);
    const std::string top = unpacked + "/fleet-hooks-" + version + "-darwin-" + cpu;
    CHECK(fleet::test::run_ls(unpacked).size() == 1);
    CHECK(fleet::test::run_ls(top) ==
          std::vector<std::string>{"LICENSE", "README.md", "bin", "doc", "share"});
    std::vector<std::string> check = {FLEET_SOURCE_DIR "/tests/platform/check-macho.py", "--arch",
                                      arch};
    for (const char* binary : kSuiteBinaries) check.push_back(top + "/bin/" + binary);
    const RunResult macho = run_process(check);
    CHECK_MESSAGE(macho.exit_code == 0, macho.out << macho.err);
  }
}
