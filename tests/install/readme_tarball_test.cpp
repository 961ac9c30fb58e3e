// The README's tarball route, run exactly as written (the shell block after "The tarball into
// `~/.local`, on a fresh account:") by a fresh account: an empty HOME, PATH=/usr/bin:/bin, in
// the directory holding the tarball that cpack wrote from this build tree. Then every CLI's
// round trip with the installed fleet-hooks (round_trip.h), and the README's uninstall of the
// tarball: `fleet-hooks uninstall --project ~/orch` and its `rm -r` in ~/.local, after which
// nothing of the suite is left.

#include <doctest/doctest.h>
#include <algorithm>
#include <filesystem>

#include "fixtures.h"
#include "process.h"
#include "round_trip.h"
#include "temp_dir.h"
#include "text.h"
#include "tree.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunOptions;
using fleet::test::RunResult;
using fleet::test::TempDir;

namespace {

namespace fs = std::filesystem;

// The shell block that follows `intro` in README.md ("" when there is none).
std::string readme_block_after(const std::string& intro) {
  const std::string readme = read_file(std::string(FLEET_SOURCE_DIR) + "/README.md");
  const std::size_t at = readme.find(intro);
  if (at == std::string::npos) return "";
  const std::size_t open = readme.find("```sh\n", at);
  const std::size_t close = readme.find("\n```", open + 6);
  if (open == std::string::npos || close == std::string::npos) return "";
  return readme.substr(open + 6, close - open - 6) + "\n";
}

// The inline command that follows `intro` in README.md, its line breaks as spaces ("" when
// there is none).
std::string readme_command_after(const std::string& intro) {
  const std::string readme = read_file(std::string(FLEET_SOURCE_DIR) + "/README.md");
  const std::size_t at = readme.find(intro);
  if (at == std::string::npos) return "";
  const std::size_t open = readme.find('`', at + intro.size());
  const std::size_t close = readme.find('`', open + 1);
  if (open == std::string::npos || close == std::string::npos) return "";
  std::string command = readme.substr(open + 1, close - open - 1);
  std::replace(command.begin(), command.end(), '\n', ' ');
  return command;
}

}  // namespace

TEST_CASE("readme: the tarball commands work as written on a fresh account") {
  const std::string block = readme_block_after("The tarball into\n`~/.local`, on a fresh account:");
  REQUIRE_MESSAGE(!block.empty(), "README.md has no tarball block after its intro line");
  TempDir t;
  const RunResult cpack =
      run_process({FLEET_CPACK, "--config", std::string(FLEET_BINARY_DIR) + "/CPackConfig.cmake",
                   "-G", "TGZ", "-B", t / "downloads"});
  INFO("cpack: " << cpack.out << cpack.err);
  REQUIRE(cpack.exit_code == 0);
  fs::remove_all(t / "downloads/_CPack_Packages");
  fs::create_directories(t / "home");

  RunOptions in_downloads;
  in_downloads.cwd = t / "downloads";
  const RunResult run = fleet::test::run_with_only_env(
      {"HOME=" + (t / "home"), std::string("PATH=") + fleet::test::kSystemPath},
      {"/bin/bash", "-e", "-c", block}, in_downloads);
  INFO("block:\n" << block << "stdout: " << run.out << "\nstderr: " << run.err);
  CHECK(run.exit_code == 0);
  CHECK(fs::exists(t / "home/.local/bin/resume-guard"));
  CHECK(fs::exists(t / "home/orch/.claude/settings.json"));
  CHECK(contains(run.out, "ok: resume-guard guards dispatch_food_truck"));

  // Every CLI's wiring by the installed fleet-hooks, after the CLI ran once, comes out again.
  const std::string bin = t / "home/.local/bin";
  fleet::test::check_round_trip_every_cli(bin);

  // The README's uninstall for the tarball: unwire the project, then its rm -r in ~/.local.
  const std::string removal = readme_command_after("or for the tarball");
  REQUIRE_MESSAGE(contains(removal, "rm -r "), "README.md names no removal of the tarball");
  const RunResult removed = fleet::test::run_with_only_env(
      {"HOME=" + (t / "home"), "PATH=" + bin + ":" + fleet::test::kSystemPath},
      {"/bin/bash", "-e", "-c", "fleet-hooks uninstall --project ~/orch\n" + removal + "\n"},
      in_downloads);
  INFO("removal: " << removal << "\nstdout: " << removed.out << "\nstderr: " << removed.err);
  CHECK(removed.exit_code == 0);
  CHECK(fleet::test::snapshot_tree(t / "home/orch") == std::vector<std::string>{});
  for (const std::string& left : fleet::test::suite_paths(t / "home"))
    FAIL_CHECK("the README's removal left " << left);
}
