// The README's tarball route, run exactly as written (the shell block after "The tarball into
// `~/.local`, on a fresh account:") by a fresh account: an empty HOME, PATH=/usr/bin:/bin, in
// the directory holding the tarball that cpack wrote from this build tree.

#include <doctest/doctest.h>
#include <filesystem>

#include "fixtures.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"

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
}
