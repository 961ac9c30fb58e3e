// freeze_cgroup, the fallback used to stop a launch's cgroup on kernels without cgroup.kill:
// it reports frozen only once cgroup.events says so, never just because the write worked.

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>

#include "process/cgroup_v2.h"
#include "temp_dir.h"

using fleet::test::TempDir;

namespace {

void put(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string get(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("freeze_cgroup: frozen only when cgroup.events says frozen 1") {
  TempDir dir;
  put(dir / "cgroup.freeze", "0\n");
  put(dir / "cgroup.events", "populated 1\nfrozen 0\n");
  CHECK_FALSE(fleet::freeze_cgroup(dir.path(), std::chrono::milliseconds(50)));
  CHECK(get(dir / "cgroup.freeze").starts_with("1"));

  put(dir / "cgroup.events", "populated 1\nfrozen 1\n");
  CHECK(fleet::freeze_cgroup(dir.path(), std::chrono::milliseconds(50)));

  fleet::thaw_cgroup(dir.path());
  CHECK(get(dir / "cgroup.freeze").starts_with("0"));
}

TEST_CASE("freeze_cgroup: a cgroup that cannot be frozen is reported, not assumed frozen") {
  TempDir dir;  // no cgroup.freeze: the write fails
  put(dir / "cgroup.events", "populated 1\nfrozen 1\n");
  CHECK_FALSE(fleet::freeze_cgroup(dir.path(), std::chrono::milliseconds(50)));
}
