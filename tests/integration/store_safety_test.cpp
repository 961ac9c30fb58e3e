// A provenance store that other users could write is not trusted: resume-guard only advises
// (with --strict it denies) and says why, provenance-writer refuses to append and says how
// to fix the mode, and `fleet-hooks check` reports store-unsafe.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <initializer_list>

#include "fixtures.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::kL3;
using fleet::test::kWorker;
using fleet::test::post_tool_use;
using fleet::test::pre_tool_use;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

struct State {
  TempDir tmp;
  std::string dir = tmp / "state";
  std::string store = dir + "/session_provenance.jsonl";

  State() {
    REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
    REQUIRE(record(kWorker).exit_code == 0);
  }

  RunResult record(const std::string& session) const {
    return run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", session,
                        "--caller-session-id", kL3, "--recipe-name", "implement", "--state-dir",
                        dir});
  }

  RunResult guard(const std::string& caller, bool strict = false) const {
    std::vector<std::string> argv = {FLEET_RESUME_GUARD, "--state-dir", dir};
    if (strict) argv.push_back("--strict");
    return run_process(argv, {pre_tool_use(caller, kWorker, "dispatch_food_truck"), {}, ""});
  }

  RunResult hook(const std::string& launched) const {
    return run_process(
        {FLEET_PROVENANCE_WRITER, "hook", "--state-dir", dir},
        {post_tool_use("{}", R"({"session_id":")" + launched + R"("})", "dispatch_food_truck"),
         {},
         ""});
  }
};

bool is_deny(const RunResult& r) {
  return r.out.find(R"("permissionDecision":"deny")") != std::string::npos;
}

}  // namespace

TEST_CASE("store safety: a store writable by group or others") {
  State s;
  const std::string stranger = "c0ffee00-0000-4000-8000-0000000000ff";
  REQUIRE(is_deny(s.guard(stranger)));
  for (const mode_t mode : std::initializer_list<mode_t>{0620, 0602, 0666}) {
    CAPTURE(mode);
    REQUIRE(::chmod(s.store.c_str(), mode) == 0);
    // The guard no longer decides on its records: it advises, naming the reason and the fix.
    RunResult r = s.guard(stranger);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(is_deny(r));
    CHECK(r.out.find("systemMessage") != std::string::npos);
    CHECK(r.out.find("writable by group or others") != std::string::npos);
    CHECK(r.out.find("chmod 600 " + s.store) != std::string::npos);
    CHECK_FALSE(is_deny(s.guard(kL3)));
    r = s.guard(stranger, true);
    CHECK(is_deny(r));
    CHECK(r.out.find("chmod 600") != std::string::npos);
    // The writer refuses and says how to fix it; nothing is written.
    const std::string before = read_file(s.store);
    r = s.record("1e07e5d0-0000-4000-8000-000000000002");
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("chmod 600 " + s.store) != std::string::npos);
    CHECK(r.err.find("nothing written") != std::string::npos);
    r = s.hook("1e07e5d0-0000-4000-8000-000000000002");
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("chmod 600 " + s.store) != std::string::npos);
    CHECK(read_file(s.store) == before);
  }
  REQUIRE(::chmod(s.store.c_str(), 0600) == 0);
  CHECK(is_deny(s.guard(stranger)));
  CHECK(s.record("1e07e5d0-0000-4000-8000-000000000002").exit_code == 0);
  REQUIRE(::chmod(s.store.c_str(), 0640) == 0);  // readable by the group is fine
  CHECK(is_deny(s.guard(stranger)));
}

TEST_CASE("store safety: a state directory writable by group or others") {
  State s;
  const std::string stranger = "c0ffee00-0000-4000-8000-0000000000ff";
  for (const mode_t mode : std::initializer_list<mode_t>{0770, 0707, 01777}) {
    CAPTURE(mode);
    REQUIRE(::chmod(s.dir.c_str(), mode) == 0);
    RunResult r = s.guard(stranger);
    CHECK_FALSE(is_deny(r));
    CHECK(r.out.find("chmod 700 " + s.dir) != std::string::npos);
    CHECK(is_deny(s.guard(stranger, true)));
    r = s.record("1e07e5d0-0000-4000-8000-000000000002");
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("chmod 700 " + s.dir) != std::string::npos);
    // check reports it too.
    r = run_process({FLEET_HOOKS_CLI, "check", "--project", s.tmp.path(), "--state-dir", s.dir});
    CHECK(r.out.find("store-unsafe") != std::string::npos);
    CHECK(r.out.find("chmod 700 " + s.dir) != std::string::npos);
  }
  REQUIRE(::chmod(s.dir.c_str(), 0755) == 0);
  CHECK(is_deny(s.guard(stranger)));
}

TEST_CASE("store safety: a store owned by another user") {
  if (::geteuid() != 0) {
    MESSAGE("skipped: only root can give a file to another user");
    return;
  }
  State s;
  REQUIRE(::chown(s.store.c_str(), 65534, 65534) == 0);
  RunResult r = s.guard("c0ffee00-0000-4000-8000-0000000000ff");
  CHECK_FALSE(is_deny(r));
  CHECK(r.out.find("owned by uid 65534") != std::string::npos);
  r = s.record("1e07e5d0-0000-4000-8000-000000000002");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("owned by uid 65534") != std::string::npos);
}

TEST_CASE("store safety: a state directory that is a symbolic link is judged by its target") {
  State s;
  const std::string stranger = "c0ffee00-0000-4000-8000-0000000000ff";
  const std::string link = s.tmp / "link";
  REQUIRE(::symlink(s.dir.c_str(), link.c_str()) == 0);
  const std::string fresh = "1e07e5d0-0000-4000-8000-000000000002";
  // FLEET_HOOKS_STATE_DIR naming a link to a private directory: recorded, and the guard
  // decides on the records (a stranger is denied).
  RunResult r = run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", fresh,
                             "--caller-session-id", kL3, "--recipe-name", "implement"},
                            {"", {{"FLEET_HOOKS_STATE_DIR", link}}, ""});
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(read_file(s.store).find(fresh) != std::string::npos);
  r = run_process({FLEET_RESUME_GUARD}, {pre_tool_use(stranger, fresh, "dispatch_food_truck"),
                                         {{"FLEET_HOOKS_STATE_DIR", link}},
                                         ""});
  CHECK(is_deny(r));
  // The default .autoskillit/temp as a link to a private directory: the hook records.
  const std::string project = s.tmp / "project";
  REQUIRE(::mkdir(project.c_str(), 0755) == 0);
  REQUIRE(::mkdir((project + "/.autoskillit").c_str(), 0755) == 0);
  REQUIRE(::symlink(s.dir.c_str(), (project + "/.autoskillit/temp").c_str()) == 0);
  r = run_process({FLEET_PROVENANCE_WRITER, "hook"},
                  {post_tool_use("{}", R"({"session_id":"w-linked"})", "dispatch_food_truck"),
                   {{"CLAUDE_PROJECT_DIR", project}},
                   ""});
  CHECK(r.err.empty());
  CHECK(read_file(s.store).find("w-linked") != std::string::npos);
  // A link to a directory others can write is refused, naming the link and its target.
  REQUIRE(::chmod(s.dir.c_str(), 0770) == 0);
  r = run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", "w-2", "--caller-session-id",
                   kL3, "--state-dir", link});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("symbolic link") != std::string::npos);
  CHECK(r.err.find("chmod 700 " + s.dir) != std::string::npos);
  r = run_process({FLEET_RESUME_GUARD, "--state-dir", link},
                  {pre_tool_use(stranger, fresh, "dispatch_food_truck"), {}, ""});
  CHECK_FALSE(is_deny(r));
  CHECK(r.out.find("symbolic link") != std::string::npos);
  REQUIRE(::chmod(s.dir.c_str(), 0700) == 0);
  // A link to something that is not a directory, or to nothing: refused as a symbolic link.
  const std::string to_file = s.tmp / "to-file";
  const std::string dangling = s.tmp / "dangling";
  write_file(s.tmp / "file", "x\n");
  REQUIRE(::symlink((s.tmp / "file").c_str(), to_file.c_str()) == 0);
  REQUIRE(::symlink((s.tmp / "nothing").c_str(), dangling.c_str()) == 0);
  for (const std::string& bad : {to_file, dangling}) {
    CAPTURE(bad);
    r = run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", "w-3",
                     "--caller-session-id", kL3, "--state-dir", bad});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("is a symbolic link to") != std::string::npos);
  }
}
