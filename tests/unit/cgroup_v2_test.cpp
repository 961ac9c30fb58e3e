// freeze_cgroup, the fallback used to stop a launch's cgroup on kernels without cgroup.kill:
// it reports frozen only once cgroup.events says so, never just because the write worked.

#include <doctest/doctest.h>

#include <chrono>

#include "process/cgroup_v2.h"
#include "temp_dir.h"

using fleet::test::read_file;
using fleet::test::TempDir;
using fleet::test::write_file;

TEST_CASE("freeze_cgroup: frozen only when cgroup.events says frozen 1") {
  TempDir dir;
  write_file(dir / "cgroup.freeze", "0\n");
  write_file(dir / "cgroup.events", "populated 1\nfrozen 0\n");
  CHECK_FALSE(fleet::freeze_cgroup(dir.path(), std::chrono::milliseconds(50)));
  CHECK(read_file(dir / "cgroup.freeze").starts_with("1"));

  write_file(dir / "cgroup.events", "populated 1\nfrozen 1\n");
  CHECK(fleet::freeze_cgroup(dir.path(), std::chrono::milliseconds(50)));

  fleet::thaw_cgroup(dir.path());
  CHECK(read_file(dir / "cgroup.freeze").starts_with("0"));
}

TEST_CASE("freeze_cgroup: a cgroup that cannot be frozen is reported, not assumed frozen") {
  TempDir dir;  // no cgroup.freeze: the write fails
  write_file(dir / "cgroup.events", "populated 1\nfrozen 1\n");
  CHECK_FALSE(fleet::freeze_cgroup(dir.path(), std::chrono::milliseconds(50)));
}
