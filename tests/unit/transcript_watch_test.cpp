#include "launch/transcript_watch.h"
#include "agents/agents.h"
#include "agents/claude/claude_session_file.h"
#include "agents/codex/codex_session_file.h"
#include "agents/gemini/gemini_session_file.h"

#include <doctest/doctest.h>
#include <poll.h>
#include <sys/stat.h>

#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

const std::string kDone =
    R"({"type":"assistant","message":{"content":[{"type":"text","text":"%%DONE%%"}]}})";
const std::string kUserDone = R"({"type":"user","message":{"content":"%%DONE%%"}})";

void append(const std::string& path, const std::string& text) {
  write_file(path, read_file(path) + text);
}

}  // namespace

TEST_CASE("transcript_watch: paths as Claude Code names them") {
  ScopedEnv home("HOME", "/home/me");
  {
    ScopedEnv config("CLAUDE_CONFIG_DIR", nullptr);
    CHECK(claude_session_file("s-1", "/w/p") == "/home/me/.claude/projects/-w-p/s-1.jsonl");
  }
  ScopedEnv config("CLAUDE_CONFIG_DIR", "/cfg");
  CHECK(claude_session_file("s-1", "/w/p") == "/cfg/projects/-w-p/s-1.jsonl");
}

TEST_CASE("transcript_watch: only what comes after the boundary counts") {
  for (const bool inotify : {true, false}) {
    TempDir tmp;
    const std::string path = tmp / "t.jsonl";
    write_file(path, kDone + "\n");  // the previous run's marker
    TranscriptWatch watch(path,
                          MarkerRule{"%%DONE%%", "", false, &fleet::claude_profile().completion},
                          std::chrono::milliseconds(50), inotify);
    watch.mark_boundary();
    CHECK(watch.boundary() == kDone.size() + 1);
    CHECK_FALSE(watch.check());
    append(path, kUserDone + "\n");
    CHECK_FALSE(watch.check());
    append(path, kDone.substr(0, 20));  // half a line
    CHECK_FALSE(watch.check());
    append(path, kDone.substr(20));
    CHECK_FALSE(watch.check());  // no newline yet
    append(path, "\n");
    CHECK(watch.check());
    CHECK(watch.check());  // stays seen
    CHECK((watch.fd() >= 0) == inotify);
  }
}

TEST_CASE("transcript_watch: inotify wakes the watcher - the wait is unbounded once armed") {
  TempDir tmp;
  const std::string path = tmp / "t.jsonl";
  write_file(path, "");
  TranscriptWatch watch(path,
                        MarkerRule{"%%DONE%%", "", false, &fleet::claude_profile().completion},
                        std::chrono::milliseconds(500), true);
  watch.mark_boundary();
  REQUIRE(watch.fd() >= 0);
  CHECK(watch.wait_ms() == -1);
  append(path, kDone + "\n");
  struct pollfd ready = {watch.fd(), POLLIN, 0};
  CHECK(::poll(&ready, 1, 5000) == 1);
  CHECK(watch.check());
}

TEST_CASE("transcript_watch: a file and a directory that appear later are read from byte 0") {
  TempDir tmp;
  const std::string dir = tmp / "projects/-w";
  const std::string path = dir + "/s.jsonl";
  TranscriptWatch watch(path,
                        MarkerRule{"%%DONE%%", "", false, &fleet::claude_profile().completion},
                        std::chrono::milliseconds(20), true);
  watch.mark_boundary();
  CHECK(watch.boundary() == 0);
  CHECK(watch.wait_ms() == 20);  // nothing to watch yet: poll
  CHECK_FALSE(watch.check());
  ::mkdir((tmp / "projects").c_str(), 0700);
  ::mkdir(dir.c_str(), 0700);
  CHECK_FALSE(watch.check());
  write_file(path, kDone + "\n");
  CHECK(watch.check());
}
