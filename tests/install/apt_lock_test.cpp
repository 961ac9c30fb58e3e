// install.sh run as root while another apt holds apt's and dpkg's locks (unattended-upgrades
// after boot, an apt in another shell). apt-get is a stand-in on PATH that behaves as apt 2.6
// does with its locks taken: `update` fails at once on the lists lock (exit 100, "E: Could not
// get lock /var/lib/apt/lists/lock. It is held by process …"), `install` waits for the dpkg
// frontend lock up to `-o DPkg::Lock::Timeout=N` seconds and fails the same way after. The
// other apt is this test holding an flock on the stand-in's lock file. Stand-ins for
// dpkg-query (every build dependency missing) and id (root) make install.sh install them.

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>

#include "install_sh.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::TempDir;

namespace {

namespace fs = std::filesystem;

// Writes the stand-ins for apt-get, dpkg-query and id into `bin`: apt-get's locks are the
// file `lock`, and it appends each command it completes to `log`.
void write_apt_stand_ins(const std::string& bin, const std::string& lock, const std::string& log) {
  fleet::test::write_script(
      bin + "/apt-get",
      "timeout=0\n"
      "for arg; do case \"$arg\" in DPkg::Lock::Timeout=*) timeout=\"${arg#*=}\" ;; esac; done\n"
      "for arg; do case \"$arg\" in update|install) command=\"$arg\" ;; esac; done\n"
      "wait=-n; [ \"$command\" = install ] && [ \"$timeout\" -gt 0 ] && wait=\"-w $timeout\"\n"
      "if ! flock $wait '" +
          lock +
          "' true; then\n"
          "  if [ \"$command\" = update ]; then\n"
          "    echo 'E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 "
          "(apt-get)' >&2\n"
          "    echo 'E: Unable to lock directory /var/lib/apt/lists/' >&2\n"
          "  else\n"
          "    echo 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 "
          "(apt-get)' >&2\n"
          "    echo 'E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is "
          "another process using it?' >&2\n"
          "  fi\n"
          "  exit 100\n"
          "fi\n"
          "echo \"$command\" \"$@\" >>'" +
          log + "'\n");
  fleet::test::write_script(bin + "/dpkg-query", "exit 1\n");
  fleet::test::write_script(bin + "/id", "echo 0\n");
}

}  // namespace

TEST_CASE("install.sh: waits while another apt holds its lock, says so, then installs and builds") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "home");
  fs::create_directories(t / "orch");
  const std::string path = fleet::test::path_with_tracing_cmake(t / "fakebin", t / "cmake-ran");
  write_apt_stand_ins(t / "fakebin", t / "apt.lock", t / "apt.log");

  // The other apt: holds the lock until this test lets go (close-on-exec, so install.sh and
  // its children never hold it).
  const int other_apt = ::open((t / "apt.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  REQUIRE(other_apt >= 0);
  REQUIRE(::flock(other_apt, LOCK_EX) == 0);

  fleet::test::RunOptions options;
  options.cwd = t / "work";
  options.env = {{"HOME", t / "home"}, {"PATH", path}};
  fleet::test::BackgroundProcess install(
      {fleet::test::kInstallSh, "--prefix", "../prefix", "--project", "../orch"}, options);
  const bool said_waiting = install.wait_for_output("waiting for it to finish", 60000);
  INFO("stdout: " << install.result().out << "\nstderr: " << install.result().err);
  REQUIRE(said_waiting);
  // It names what it waits for, and goes no further while the lock is held.
  CHECK(contains(install.result().out, "Could not get lock /var/lib/apt/lists/lock"));
  CHECK(contains(install.result().out, "up to 300 s"));
  CHECK_FALSE(fs::exists(t / "apt.log"));
  CHECK_FALSE(fs::exists(t / "cmake-ran"));

  ::close(other_apt);
  REQUIRE(install.wait(120000));
  INFO("stdout: " << install.result().out << "\nstderr: " << install.result().err);
  // The dependencies were installed once the lock was free, and the build started (the
  // stand-in cmake then fails it).
  const std::string log = read_file(t / "apt.log");
  CHECK(contains(log, "update"));
  CHECK(contains(log, "install"));
  CHECK(contains(log, "rapidjson-dev"));
  CHECK(fs::exists(t / "cmake-ran"));
  CHECK_FALSE(contains(install.result().err, "apt-get could not install"));
}
