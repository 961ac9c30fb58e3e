// launch-wrapper's cgroup containment on both layouts of cgroup v2: the unified one (cgroup2
// at /sys/fs/cgroup) and systemd's hybrid one (cgroup2 at /sys/fs/cgroup/unified, beside the
// v1 controllers). Each test runs on the layout this host has, as it is, and on the other one
// in a private mount namespace (`unshare -m`: the same hierarchy mounted where that layout
// puts it), so a root host tests both. Every launch runs inside a private parent cgroup of
// its own, so that no other launch on the machine (another test, another suite: each sweeps
// the abandoned cgroups beside it) removes its cgroup for it.
// Skipped where no cgroup can be made (not root, no cgroup2 mount), and a namespaced layout
// where no mount namespace can be made, each saying why.

#include <doctest/doctest.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <chrono>
#include <csignal>
#include <functional>
#include <random>

#include "emulator.h"
#include "launch_output.h"
#include "proc_table.h"
#include "process.h"
#include "process/cgroup_v2.h"
#include "temp_dir.h"

using fleet::test::announced_pids;
using fleet::test::BackgroundProcess;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::running;
using fleet::test::TempDir;
using fleet::test::write_script;
using Args = std::vector<std::string>;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

bool is_cgroup2(const char* path) {
  struct statfs fs {};
  return ::statfs(path, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC;
}

// Milliseconds until `done`, or -1 when it is not done within `timeout_ms`.
long wait_until(const std::function<bool()>& done, int timeout_ms = 20000) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - start)
                                 .count());
  };
  while (!done()) {
    if (elapsed() >= timeout_ms) return -1;
    ::usleep(10000);
  }
  return elapsed();
}

// The value after "token=" in `out`.
std::string announced_token(const std::string& out) {
  const std::size_t at = out.find("token=");
  return at == std::string::npos ? "" : out.substr(at + 6, 32);
}

// util-linux's unshare(1); "" when there is none.
std::string unshare_program() {
  for (const char* path : {"/usr/bin/unshare", "/bin/unshare"}) {
    if (::access(path, X_OK) == 0) return path;
  }
  return "";
}

struct Layout {
  std::string name;
  const char* mount_point;  // of cgroup2 in this layout
  const char* make;         // shell commands that make the layout in a new mount namespace
};

const Layout kLayouts[] = {
    {"unified (cgroup2 at /sys/fs/cgroup)", "/sys/fs/cgroup",
     "mount -t cgroup2 cgroup2 /sys/fs/cgroup"},
    {"hybrid (cgroup2 at /sys/fs/cgroup/unified)", "/sys/fs/cgroup/unified",
     "mount -t tmpfs tmpfs /sys/fs/cgroup && mkdir /sys/fs/cgroup/unified && "
     "mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified"},
};

// A private parent cgroup for the launches of one test on one layout, below this process's
// own cgroup; removed with whatever is left in it.
class ParentCgroup {
 public:
  // Empty `why_not()` when launches can run in it on `layout`.
  explicit ParentCgroup(const Layout& layout) : layout_(layout) {
    const std::optional<std::string> own = fleet::own_cgroup_directory();
    const std::optional<std::string> own_path = fleet::cgroup_of(::getpid());
    if (::geteuid() != 0 || !own || !own_path) {
      why_not_ = "no cgroup can be made here (needs root and a cgroup2 mount)";
      return;
    }
    std::random_device random;
    const std::string name = "fleet-test-" + std::to_string(random());
    here_ = *own + "/" + name;
    if (::mkdir(here_.c_str(), 0755) != 0) {
      why_not_ = "cannot create " + here_ + ": " + std::strerror(errno);
      here_.clear();
      return;
    }
    there_ = std::string(layout.mount_point) + (*own_path == "/" ? "" : *own_path) + "/" + name;
    namespaced_ = !is_cgroup2(layout.mount_point);
    if (namespaced_ && unshare_program().empty()) {
      why_not_ = "no unshare(1) (util-linux) to make it in a private mount namespace";
    } else if (namespaced_) {
      const fleet::test::RunResult probe =
          run_process(wrap({"/bin/sh", "-c", "test -e " + there_ + "/cgroup.procs"}));
      if (probe.exit_code != 0) {
        why_not_ =
            "cannot make this layout in a private mount namespace (`unshare -m` as root, "
            "then mount cgroup2): " +
            probe.err;
      }
    }
  }

  ~ParentCgroup() {
    if (here_.empty()) return;
    for (const std::string& child : fleet::test::run_ls(here_)) {
      if (!child.starts_with("fleet-launch-")) continue;
      fleet::write_pseudo_file(here_ + "/" + child + "/cgroup.kill", "1");
      wait_until([&] { return ::rmdir((here_ + "/" + child).c_str()) == 0; }, 5000);
    }
    fleet::write_pseudo_file(here_ + "/cgroup.kill", "1");
    wait_until([&] { return ::rmdir(here_.c_str()) == 0; }, 5000);
  }

  ParentCgroup(const ParentCgroup&) = delete;
  ParentCgroup& operator=(const ParentCgroup&) = delete;

  const std::string& why_not() const { return why_not_; }
  // The launch cgroup of `token` as this test sees it.
  std::string launch_cgroup(const std::string& token) const {
    return here_ + "/fleet-launch-" + token;
  }

  // `argv` run in this cgroup, in the layout's mount namespace when the host has the other
  // layout. The pid stays the same from here to argv[0] (each step execs the next).
  Args wrap(const Args& argv) const {
    std::string script = "echo $$ > " + there_ + "/cgroup.procs && exec \"$0\" \"$@\"";
    Args wrapped;
    if (namespaced_) {
      wrapped = {unshare_program(), "-m", "--propagation", "private"};
      script = std::string(layout_.make) + " && " + script;
    }
    wrapped.insert(wrapped.end(), {"/bin/sh", "-c", script});
    wrapped.insert(wrapped.end(), argv.begin(), argv.end());
    return wrapped;
  }

 private:
  const Layout& layout_;
  std::string why_not_;
  std::string here_;   // its directory as this process sees it
  std::string there_;  // its directory where the layout mounts cgroup2
  bool namespaced_ = false;
};

}  // namespace

TEST_CASE("cgroup layouts: a SIGKILLed wrapper's cgroup goes once its agent has exited") {
  for (const Layout& layout : kLayouts) {
    ParentCgroup parent(layout);
    if (!parent.why_not().empty()) {
      MESSAGE("skipped on ", layout.name, ": ", parent.why_not());
      continue;
    }
    TempDir tmp;
    const std::string go = tmp / "go";
    const std::string agent =
        write_script(tmp / "agent", "echo \"token=$FLEET_LAUNCH_TOKEN\"\nwhile [ ! -e " + go +
                                        " ]; do sleep 0.01; done\n");
    // The default announce mode: the agent runs on after its wrapper is killed.
    BackgroundProcess w(parent.wrap({kWrapper, "--quiet", "--", agent}));
    REQUIRE_MESSAGE(w.wait_for_output("token="), layout.name, w.result().err);
    const std::string cgroup = parent.launch_cgroup(announced_token(w.result().out));
    REQUIRE_MESSAGE(exists(cgroup), layout.name, ": no ", cgroup);
    const std::vector<pid_t> pids = announced_pids(w.result().out);
    REQUIRE(pids.size() == 1);
    w.signal(SIGKILL);
    REQUIRE(w.wait());
    CHECK_MESSAGE(running(pids[0]), layout.name);
    fleet::test::write_file(go, "");
    REQUIRE(wait_until([&] { return !running(pids[0]); }) >= 0);
    // No other launch runs in this parent cgroup: nothing sweeps it but the launch's own.
    const long gone_ms = wait_until([&] { return !exists(cgroup); });
    CHECK_MESSAGE(gone_ms >= 0, layout.name, ": ", cgroup, " is still there 20 s after its agent");
    if (gone_ms >= 0)
      MESSAGE(layout.name, ": the cgroup was gone ", gone_ms, " ms after the agent");
  }
}

TEST_CASE("cgroup layouts: kill -9 of the wrapper announced by --announce wrapper stops all") {
  fleet::test::skip_under_emulator(
      "an escapee is not handed to the wrapper as subreaper (PR_SET_CHILD_SUBREAPER) and clone3 "
      "is not emulated (seen with qemu-user 7.2)");
  for (const Layout& layout : kLayouts) {
    ParentCgroup parent(layout);
    if (!parent.why_not().empty()) {
      MESSAGE("skipped on ", layout.name, ": ", parent.why_not());
      continue;
    }
    TempDir tmp;
    // The escapee leaves the agent's session and drops the launch token: only the cgroup
    // holds it.
    const std::string agent = write_script(
        tmp / "agent", "setsid env -u FLEET_LAUNCH_TOKEN sh -c 'echo $$ > " + tmp / "escapee" +
                           "; exec sleep 1000' &\nwhile [ ! -s " + tmp / "escapee" +
                           " ]; do sleep 0.01; done\necho \"token=$FLEET_LAUNCH_TOKEN\"\n"
                           "exec sleep 1000\n");
    BackgroundProcess w(parent.wrap({kWrapper, "--quiet", "--announce", "wrapper", "--", agent}));
    REQUIRE_MESSAGE(w.wait_for_output("token="), layout.name, w.result().err);
    const std::string cgroup = parent.launch_cgroup(announced_token(w.result().out));
    const pid_t escapee = std::stoi(read_file(tmp / "escapee"));
    REQUIRE(running(escapee));
    CHECK_MESSAGE(
        read_file("/proc/" + std::to_string(escapee) + "/cgroup").find("/fleet-launch-") !=
            std::string::npos,
        layout.name, ": the escapee is not in the launch's cgroup");
    w.signal(SIGKILL);
    REQUIRE(w.wait());
    CHECK_MESSAGE(wait_until([&] { return !running(escapee); }) >= 0, layout.name);
    CHECK_MESSAGE(wait_until([&] { return !exists(cgroup); }) >= 0, layout.name, ": ", cgroup,
                  " is still there");
  }
}

TEST_CASE("cgroup layouts: a run's end stops the escapee only the cgroup holds, and removes it") {
  fleet::test::skip_under_emulator(
      "an escapee is not handed to the wrapper as subreaper (PR_SET_CHILD_SUBREAPER) and clone3 "
      "is not emulated (seen with qemu-user 7.2)");
  for (const Layout& layout : kLayouts) {
    ParentCgroup parent(layout);
    if (!parent.why_not().empty()) {
      MESSAGE("skipped on ", layout.name, ": ", parent.why_not());
      continue;
    }
    TempDir tmp;
    const std::string agent =
        write_script(tmp / "agent",
                     "echo \"token=$FLEET_LAUNCH_TOKEN\"\nsetsid env -u FLEET_LAUNCH_TOKEN sh "
                     "-c 'echo $$ > " +
                         tmp / "escapee" + "; exec sleep 1000' &\nwhile [ ! -s " + tmp / "escapee" +
                         " ]; do sleep 0.01; done\n");
    const fleet::test::RunResult r =
        run_process(parent.wrap({kWrapper, "--quiet", "--grace", "1", "--", agent}));
    CHECK_MESSAGE(r.exit_code == 0, layout.name, r.err);
    const pid_t escapee = std::stoi(read_file(tmp / "escapee"));
    CHECK_MESSAGE(wait_until([&] { return !running(escapee); }) >= 0, layout.name);
    CHECK_MESSAGE(!exists(parent.launch_cgroup(announced_token(r.out))), layout.name);
  }
}
