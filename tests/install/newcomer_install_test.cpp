// install.sh as a newcomer met it: run by its path from another directory, into a prefix
// whose bin/ is not on PATH yet, then --uninstall (twice).

#include <doctest/doctest.h>
#include <unistd.h>
#include <filesystem>

#include "install_sh.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"
#include "tree.h"

using fleet::test::contains;
using fleet::test::install_sh;
using fleet::test::kInstallSh;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::TempDir;
using fleet::test::user_path;

namespace {

namespace fs = std::filesystem;

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("install.sh run by its path: a usage error names that path for --help") {
  TempDir t;
  fs::create_directories(t / "work");
  const RunResult r = install_sh({"--frobnicate"}, t / "work", t / "home", user_path());
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "Run " + kInstallSh + " --help for the options."));
  CHECK_FALSE(contains(r.err, "./install.sh"));
  const RunResult help = install_sh({"--help"}, t / "work", t / "home", user_path());
  CHECK(help.exit_code == 0);
  CHECK(contains(help.out, "Usage: " + kInstallSh + " [--prefix DIR] [--project DIR [--agent"));
}

TEST_CASE(
    "install.sh: check's ok for a prefix not on PATH says the dispatches are blocked until it "
    "is - --uninstall lists what it removed from the project and suggests what exists") {
  REQUIRE_MESSAGE(
      run_process({"/bin/sh", "-c", "command -v resume-guard"}, {"", {{"PATH", user_path()}}, ""})
              .exit_code != 0,
      "resume-guard is on this PATH; this test needs a PATH without it");
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "home");
  fs::create_directories(t / "orch");
  const std::string prefix = t / "prefix";
  const std::string path_line = "export PATH=\"" + prefix + "/bin:$PATH\"";

  RunResult r = install_sh({"--prefix", "../prefix", "--project", "../orch"}, t / "work",
                           t / "home", user_path());
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const std::size_t ok = r.out.find("ok: resume-guard guards");
  REQUIRE(ok != std::string::npos);
  // Said before the check's ok, not after it.
  const std::size_t warning =
      r.out.find("install.sh: WARNING: the check below runs with " + prefix +
                 "/bin on PATH; until your PATH\n  includes it, every dispatch is BLOCKED");
  CHECK(warning != std::string::npos);
  CHECK(warning < ok);
  // The same PATH line next to the warning and in the next steps.
  CHECK(count(r.out, path_line) == 2);

  // With the prefix on PATH: the ok stands alone, no PATH step.
  r = install_sh({"--prefix", "../prefix", "--project", "../orch"}, t / "work", t / "home",
                 prefix + "/bin:" + user_path());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "ok: resume-guard guards"));
  CHECK_FALSE(contains(r.out, "WARNING"));
  CHECK_FALSE(contains(r.out, path_line));

  // --uninstall says what it took away from the project, not only from the prefix.
  r = install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home", user_path());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "removed 2 fleet-hooks entries from " + (t / "orch") +
                            "/.claude/settings.json; it held nothing else, so it is removed"));
  CHECK(fleet::test::run_ls(t / "orch").empty());
  CHECK_FALSE(fs::exists(prefix));

  // Again: nothing installed there. The advice names a fleet-hooks that exists (the one this
  // source tree built), not the one just removed.
  r = install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home", user_path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "found no fleet-hooks install in " + prefix));
  CHECK(contains(r.err, "apt remove fleet-hooks"));
  const std::string built =
      std::string(FLEET_SOURCE_DIR) + "/build/install/hooks/fleet-hooks/fleet-hooks";
  REQUIRE(::access(built.c_str(), X_OK) == 0);
  CHECK(contains(r.err, "  " + built + " uninstall --project DIR\n"));
  CHECK_FALSE(contains(r.err, "\n  fleet-hooks uninstall"));
}
