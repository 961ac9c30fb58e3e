#include "process/caller_handover.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/paths.h"
#include "process/process_identity.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::run_ls;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

const std::string kCaller = "c0ffee00-0000-4000-8000-000000000001";

// A private handover directory in `tmp`.
std::string handover_dir(const TempDir& tmp) {
  const auto dir = private_directory(tmp / "handover");
  REQUIRE(dir);
  return *dir;
}

}  // namespace

TEST_CASE("caller_handover: a handover reaches a process under the same host") {
  TempDir tmp;
  const std::string dir = handover_dir(tmp);
  CHECK_FALSE(leave_caller_handover(dir, kCaller, ::getpid()));
  // This process stands in for both the hook and the launch: its parent is their host.
  const HandedOverCaller found = caller_from_handover(dir, launch_ancestry(::getpid()));
  CHECK(found.status == HandedOverCaller::Status::found);
  CHECK(found.caller == kCaller);
  const auto names = run_ls(dir);
  REQUIRE(names.size() == 1);
  struct stat st {};
  REQUIRE(::stat((dir + "/" + names[0]).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);

  SUBCASE("leaving it again replaces it") {
    CHECK_FALSE(leave_caller_handover(dir, kCaller, ::getpid()));
    CHECK(run_ls(dir).size() == 1);
  }
  SUBCASE("a second caller of the same host makes it uncertain") {
    CHECK_FALSE(leave_caller_handover(dir, "c0ffee00-0000-4000-8000-000000000002", ::getpid()));
    const HandedOverCaller several = caller_from_handover(dir, launch_ancestry(::getpid()));
    CHECK(several.status == HandedOverCaller::Status::several);
    CHECK(several.problem.find(kCaller) != std::string::npos);
  }
  SUBCASE("older than the age bound it has lapsed, and is pruned a day later") {
    const auto later = std::chrono::system_clock::now() + kHandoverMaxAge + std::chrono::seconds(1);
    const HandedOverCaller lapsed = caller_from_handover(dir, launch_ancestry(::getpid()), later);
    CHECK(lapsed.status == HandedOverCaller::Status::lapsed);
    CHECK_MESSAGE(lapsed.problem.find("10 minutes ago") != std::string::npos, lapsed.problem);
    const auto earlier =
        std::chrono::system_clock::now() - kHandoverMaxAge - std::chrono::seconds(1);
    CHECK(caller_from_handover(dir, launch_ancestry(::getpid()), earlier).status ==
          HandedOverCaller::Status::none);
    // Kept while its host runs: a lapsed handover tells "refuse" from "never handed over".
    CHECK_FALSE(leave_caller_handover(dir, "c0ffee00-0000-4000-8000-000000000002", ::getpid(),
                                      later + std::chrono::seconds(1)));
    CHECK(run_ls(dir).size() == 2);
    const auto next_day = later + std::chrono::hours(25);
    CHECK_FALSE(
        leave_caller_handover(dir, "c0ffee00-0000-4000-8000-000000000003", ::getpid(), next_day));
    CHECK(run_ls(dir).size() == 1);
  }
  SUBCASE("renewing it leaves the directory alone; writing a new one prunes it") {
    // A leftover that counts for nothing: the next handover written prunes it, a renewal
    // (each later dispatch call of the same caller) does not list the directory.
    const std::string stale = dir + "/left-by-a-killed-hook";
    write_file(stale, "{}\n");
    const auto old_time = timespec{::time(nullptr) - 2 * kHandoverMaxAge.count(), 0};
    const timespec times[2] = {old_time, old_time};
    REQUIRE(::utimensat(AT_FDCWD, stale.c_str(), times, 0) == 0);
    CHECK_FALSE(leave_caller_handover(dir, kCaller, ::getpid()));
    CHECK(run_ls(dir).size() == 2);
    CHECK_FALSE(leave_caller_handover(dir, "c0ffee00-0000-4000-8000-000000000002", ::getpid()));
    CHECK(run_ls(dir).size() == 2);  // the two callers' handovers, the leftover pruned
    CHECK(::access(stale.c_str(), F_OK) != 0);
  }
  SUBCASE("a handover of another boot counts for nothing") {
    const std::string path = dir + "/" + names[0];
    std::string text = read_file(path);
    const std::string boot = *current_boot_id();
    text.replace(text.find(boot), boot.size(), "00000000-0000-4000-8000-000000000000");
    write_file(path, text);
    CHECK(caller_from_handover(dir, launch_ancestry(::getpid())).status ==
          HandedOverCaller::Status::none);
  }
  SUBCASE("a file too large to be a handover counts for nothing") {
    write_file(dir + "/" + names[0], std::string(5000, ' ') + read_file(dir + "/" + names[0]));
    CHECK(caller_from_handover(dir, launch_ancestry(::getpid())).status ==
          HandedOverCaller::Status::none);
  }
}

TEST_CASE("caller_handover: an id that cannot be a session id is not handed over") {
  TempDir tmp;
  const std::string dir = handover_dir(tmp);
  const auto problem = leave_caller_handover(dir, "../x", ::getpid());
  REQUIRE(problem);
  CHECK(run_ls(dir).empty());
}

TEST_CASE("caller_handover: only a directory private to the user holds handovers") {
  TempDir tmp;
  SUBCASE("open to others") {
    const std::string dir = tmp / "open";
    REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
    REQUIRE(::chmod(dir.c_str(), 0777) == 0);
    const auto refused = private_directory(dir);
    REQUIRE_FALSE(refused);
    CHECK(refused.problem().find("open to group or others (mode 0777)") != std::string::npos);
    CHECK(leave_caller_handover(dir, kCaller, ::getpid()));
    CHECK(run_ls(dir).empty());
    CHECK(caller_from_handover(dir, launch_ancestry(::getpid())).status ==
          HandedOverCaller::Status::untrusted);
  }
  SUBCASE("a symbolic link") {
    const std::string target = handover_dir(tmp);
    CHECK_FALSE(leave_caller_handover(target, kCaller, ::getpid()));
    const std::string link = tmp / "link";
    REQUIRE(::symlink(target.c_str(), link.c_str()) == 0);
    const auto refused = private_directory(link);
    REQUIRE_FALSE(refused);
    CHECK(refused.problem().find("symbolic link") != std::string::npos);
    CHECK(caller_from_handover(link, launch_ancestry(::getpid())).status ==
          HandedOverCaller::Status::untrusted);
  }
  SUBCASE("the default is the user's own") {
    const std::string dir = handover_directory();
    CHECK((dir.starts_with("/run/user/" + std::to_string(::geteuid()) + "/") ||
           dir == fleet::env_value("HOME") + "/.local/state/fleet-hooks/handover"));
  }
}
