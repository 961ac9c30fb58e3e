// The version stamp (cmake/WriteVersion.cmake): the commit of the source tree's own git
// repository, "unknown commit" for a tree without one (an unpacked source tarball).

#include <doctest/doctest.h>
#include <filesystem>

#include "process.h"
#include "temp_dir.h"
#include "tree.h"

using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::TempDir;

namespace {

std::string write_version(const std::string& source_dir, const std::string& output) {
  const std::string source = FLEET_SOURCE_DIR;
  const RunResult r =
      run_process({FLEET_CMAKE, "-DSOURCE_DIR=" + source_dir, "-DVERSION=1.2.3",
                   "-DINPUT=" + source + "/common/version.h.in", "-DOUTPUT=" + output, "-P",
                   source + "/cmake/WriteVersion.cmake"});
  REQUIRE(r.exit_code == 0);
  return read_file(output);
}

}  // namespace

TEST_CASE("version stamp: a tree without .git says unknown commit") {
  TempDir t;
  std::filesystem::create_directories(t / "src");
  const std::string header = write_version(t / "src", t / "version.h");
  CHECK(header.find(R"x(kVersion = "1.2.3 (unknown commit)")x") != std::string::npos);
  // A tree unpacked inside some other repository does not take that repository's commit.
  const std::string nested =
      write_version(std::string(FLEET_SOURCE_DIR) + "/cmake", t / "nested.h");
  CHECK(nested.find("(unknown commit)") != std::string::npos);
}

TEST_CASE("version stamp: a git checkout names its commit") {
  const RunResult head = run_process(
      {fleet::test::on_path("git"), "-C", FLEET_SOURCE_DIR, "rev-parse", "--short=12", "HEAD"});
  if (!std::filesystem::exists(std::string(FLEET_SOURCE_DIR) + "/.git")) {
    MESSAGE("the source tree is not a git checkout; nothing to check");
    return;
  }
  REQUIRE(head.exit_code == 0);
  TempDir t;
  const std::string header = write_version(FLEET_SOURCE_DIR, t / "version.h");
  const std::string commit = head.out.substr(0, head.out.find('\n'));
  CHECK(header.find(R"x(kVersion = "1.2.3 (commit )x" + commit) != std::string::npos);
  CHECK(header.find(R"x(kCommit = ")x" + commit + "\"") != std::string::npos);
}
