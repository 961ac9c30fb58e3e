// freeze_cgroup, the fallback used to stop a launch's cgroup on kernels without cgroup.kill:
// it reports frozen only once cgroup.events says so, never just because the write worked.
// wait_unpopulated, with which the guardian waits for a launch's cgroup to empty: woken when
// cgroup.events changes, not at its next look.

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

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

TEST_CASE("wait_unpopulated: woken when cgroup.events says populated 0, false once gone") {
  TempDir dir;
  write_file(dir / "cgroup.events", "populated 1\nfrozen 0\n");
  std::thread last_exit([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    write_file(dir / "cgroup.events", "populated 0\nfrozen 0\n");
  });
  const auto start = std::chrono::steady_clock::now();
  CHECK(fleet::wait_unpopulated(dir.path(), std::chrono::seconds(60)));
  // inotify woke it: long before its next look, a minute on
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
  last_exit.join();

  CHECK_FALSE(fleet::wait_unpopulated(dir / "gone", std::chrono::seconds(60)));
}
