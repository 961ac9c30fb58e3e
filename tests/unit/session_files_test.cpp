#include "agents/agents.h"
#include "agents/claude/claude_session_file.h"
#include "agents/codex/codex_session_file.h"
#include "agents/copilot/copilot_session_file.h"
#include "agents/gemini/gemini_session_file.h"

#include <doctest/doctest.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <functional>
#include <vector>

#include "agent/agent_profile.h"
#include "base/files.h"
#include "launch/transcript_watch.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

constexpr const char* kCodexId = "01a21293-b600-7f20-9a4e-3c2d1b0a9f88";
constexpr const char* kGeminiId = "5f2c9a10-3b4d-4e6f-8a7b-1c2d3e4f5a6b";

void make_dirs(const std::string& path) {
  std::string at;
  for (std::size_t i = 1; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') ::mkdir(path.substr(0, i).c_str(), 0700);
  }
}

void append(const std::string& path, const std::string& text) {
  write_file(path, read_file(path) + text);
}

// A Codex rollout of kCodexId under `home`/.codex, started on 2026-11-25.
std::string codex_rollout(const std::string& home) {
  const std::string day = home + "/.codex/sessions/2026/11/25";
  make_dirs(day);
  return day + "/rollout-2026-11-25T23-59-01-" + kCodexId + ".jsonl";
}

// A Gemini session file of `id` for project /w/proj under `home`/.gemini, its header line in.
std::string gemini_session(const std::string& home, const std::string& id,
                           const std::string& slug = "proj") {
  const std::string project = home + "/.gemini/tmp/" + slug;
  make_dirs(project + "/chats");
  write_file(project + "/.project_root", "/w/proj");
  const std::string path =
      project + "/chats/session-2026-11-25T23-59-" + id.substr(0, 8) + ".jsonl";
  write_file(path, R"({"sessionId":")" + id +
                       R"(","projectHash":"h","startTime":"t"})"
                       "\n");
  return path;
}

std::string codex_done(const std::string& text) {
  return R"({"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","last_agent_message":")" +
         text + "\"}}\n";
}

}  // namespace

TEST_CASE("session_files: a Codex rollout is found by its id in its day's folder") {
  TempDir tmp;
  ScopedEnv home("HOME", tmp.path().c_str());
  ScopedEnv codex_home("CODEX_HOME", nullptr);
  CHECK(codex_session_file(kCodexId, "/w") == "");
  const std::string rollout = codex_rollout(tmp.path());
  CHECK(codex_session_file(kCodexId, "/w") == "");  // not written yet
  write_file(rollout, "{}\n");
  CHECK(codex_session_file(kCodexId, "/w") == rollout);
  CHECK(codex_session_file("019a8d2e-0000-7000-8000-000000000000", "/w") == "");
  ScopedEnv moved("CODEX_HOME", (tmp / "elsewhere").c_str());
  CHECK(codex_session_file(kCodexId, "/w") == "");
}

TEST_CASE("session_files: a Copilot session's events are named by its id, under COPILOT_HOME") {
  TempDir tmp;
  ScopedEnv home("HOME", tmp.path().c_str());
  ScopedEnv copilot_home("COPILOT_HOME", nullptr);
  const std::string id = "0cb916db-26aa-40f2-86b5-1ba81b225fd2";
  CHECK(copilot_session_file(id, "/any") ==
        tmp / (".copilot/session-state/" + id + "/events.jsonl"));
  ScopedEnv moved("COPILOT_HOME", (tmp / "elsewhere").c_str());
  CHECK(copilot_session_file(id, "/any") ==
        tmp / ("elsewhere/session-state/" + id + "/events.jsonl"));
  CHECK(copilot_session_file("", "/any").empty());
}

TEST_CASE("session_files: a Gemini session is found through its project's short name") {
  TempDir tmp;
  ScopedEnv home("HOME", tmp.path().c_str());
  ScopedEnv gemini_home("GEMINI_CLI_HOME", nullptr);
  CHECK(gemini_session_file(kGeminiId, "/w/proj") == "");
  // Another project's folder, and another session sharing the first 8 characters.
  const std::string other_project = tmp.path() + "/.gemini/tmp/proj-1";
  make_dirs(other_project);
  write_file(other_project + "/.project_root", "/elsewhere/proj");
  gemini_session(tmp.path(), "5f2c9a10-ffff-4fff-8fff-ffffffffffff");
  CHECK(gemini_session_file(kGeminiId, "/w/proj") == "");
  const std::string path = gemini_session(tmp.path(), kGeminiId);
  CHECK(gemini_session_file(kGeminiId, "/w/proj") == path);
  CHECK(gemini_session_file(kGeminiId, "/elsewhere/proj") == "");
  ScopedEnv cli_home("GEMINI_CLI_HOME", (tmp / "h2").c_str());
  CHECK(gemini_session_file(kGeminiId, "/w/proj") == "");
}

TEST_CASE("session_files: a resumed session's old completion record does not count") {
  TempDir tmp;
  ScopedEnv home("HOME", tmp.path().c_str());
  ScopedEnv codex_home("CODEX_HOME", nullptr);
  ScopedEnv gemini_home("GEMINI_CLI_HOME", nullptr);
  struct Case {
    const AgentProfile* agent;
    std::string id;
    std::string path;
    std::string done;
    std::string resumed;  // what a resume appends before its turn
  };
  const std::string rollout = codex_rollout(tmp.path());
  write_file(rollout, R"({"timestamp":"t","type":"session_meta","payload":{}})"
                      "\n");
  const Case cases[] = {
      {find_agent_profile("codex"), kCodexId, rollout, codex_done("%%DONE%%"),
       R"({"timestamp":"t","type":"turn_context","payload":{}})"
       "\n"},
      {find_agent_profile("gemini"), kGeminiId, gemini_session(tmp.path(), kGeminiId),
       R"({"id":"m2","timestamp":"t","type":"gemini","content":"%%DONE%%"})"
       "\n",
       R"({"$set":{"sessionId":")" + std::string(kGeminiId) + "\"}}\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.agent->name);
    append(c.path, c.done);  // the previous run's completion
    TranscriptWatch watch([&c] { return c.agent->session_file(c.id, "/w/proj"); },
                          MarkerRule{"%%DONE%%", "", false, &c.agent->completion},
                          std::chrono::milliseconds(20), true);
    watch.mark_boundary();
    CHECK(watch.path() == c.path);
    CHECK_FALSE(watch.check());
    append(c.path, c.resumed);
    CHECK_FALSE(watch.check());
    append(c.path, c.done);
    CHECK(watch.check());
  }
}

TEST_CASE("session_files: a session file that appears after the boundary is read from its start") {
  TempDir tmp;
  ScopedEnv home("HOME", tmp.path().c_str());
  ScopedEnv codex_home("CODEX_HOME", nullptr);
  std::string id;  // learned later, as a captured id is
  const AgentProfile& codex = *find_agent_profile("codex");
  TranscriptWatch watch([&] { return id.empty() ? "" : codex.session_file(id, "/w"); },
                        MarkerRule{"%%DONE%%", "", false, &codex.completion},
                        std::chrono::milliseconds(20), true);
  watch.mark_boundary();
  CHECK(watch.boundary() == 0);
  CHECK(watch.wait_ms() == 20);  // polls while the file is not found
  CHECK_FALSE(watch.check());
  id = kCodexId;
  const std::string rollout = codex_rollout(tmp.path());
  write_file(rollout, codex_done("%%DONE%%"));
  CHECK(watch.check());
  CHECK(watch.path() == rollout);
}

namespace {

// How many times a file or folder in `folders` is opened while `look` runs (inotify IN_OPEN).
int opens_during(const std::vector<std::string>& folders, const std::function<void()>& look) {
  const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  REQUIRE(fd >= 0);
  for (const std::string& folder : folders)
    REQUIRE(::inotify_add_watch(fd, folder.c_str(), IN_OPEN) >= 0);
  look();
  int opens = 0;
  alignas(inotify_event) char events[64 * 1024];
  for (ssize_t n; (n = ::read(fd, events, sizeof events)) > 0;) {
    for (ssize_t at = 0; at < n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(events + at);
      opens += (event->mask & IN_OPEN) != 0;
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
  ::close(fd);
  return opens;
}

// Codex history below `home`/.codex/sessions from `first_year` on, `years` years of it (a few
// days a month, a rollout in each): every folder of it.
std::vector<std::string> codex_history(const std::string& home, int first_year, int years) {
  std::vector<std::string> folders;
  for (int year = first_year; year < first_year + years; ++year) {
    const std::string year_folder = home + "/.codex/sessions/" + std::to_string(year);
    folders.push_back(year_folder);
    for (int month = 10; month <= 12; ++month) {
      const std::string month_folder = year_folder + "/" + std::to_string(month);
      folders.push_back(month_folder);
      for (int day = 1; day <= 5; ++day) {
        folders.push_back(month_folder + "/0" + std::to_string(day));
        make_dirs(folders.back());
        write_file(folders.back() + "/rollout-" + std::to_string(year) + "-old.jsonl", "{}\n");
      }
    }
  }
  return folders;
}

}  // namespace

TEST_CASE("session_files: looking for a session file does not read the user's whole history") {
  TempDir tmp;
  ScopedEnv home("HOME", tmp.path().c_str());
  ScopedEnv codex_home("CODEX_HOME", nullptr);
  ScopedEnv gemini_home("GEMINI_CLI_HOME", nullptr);
  // Codex: the rollout of a session that is not written yet (an --ephemeral worker's), looked
  // for with one year of history, then with three.
  const std::string rollout = codex_rollout(tmp.path());
  std::vector<std::string> folders = codex_history(tmp.path(), 2020, 1);
  for (const char* below : {"", "/2026", "/2026/11", "/2026/11/25"})
    folders.push_back(tmp.path() + "/.codex/sessions" + below);
  const auto look_codex = [] { CHECK(codex_session_file(kCodexId, "/w") == ""); };
  const int short_history = opens_during(folders, look_codex);
  for (const std::string& folder : codex_history(tmp.path(), 2021, 5)) folders.push_back(folder);
  CHECK(folders.size() > 100);
  CHECK(opens_during(folders, look_codex) == short_history);
  write_file(rollout, "{}\n");
  CHECK(codex_session_file(kCodexId, "/w") == rollout);

  // Gemini: the chat of a session not written yet, with 1 and with 60 other projects.
  const std::string session = gemini_session(tmp.path(), kGeminiId);
  ::unlink(session.c_str());
  std::vector<std::string> projects = {tmp.path() + "/.gemini/tmp",
                                       tmp.path() + "/.gemini/tmp/proj"};
  const auto look_gemini = [] { CHECK(gemini_session_file(kGeminiId, "/w/proj") == ""); };
  const auto add_project = [&](int n) {
    projects.push_back(tmp.path() + "/.gemini/tmp/other-" + std::to_string(n));
    make_dirs(projects.back());
    write_file(projects.back() + "/.project_root", "/w/other-" + std::to_string(n));
  };
  add_project(0);
  const int few_projects = opens_during(projects, look_gemini);
  for (int n = 1; n < 60; ++n) add_project(n);
  CHECK(opens_during(projects, look_gemini) == few_projects);
}

TEST_CASE("session_files: the day folders a Codex rollout can be in") {
  const char* const zone = std::getenv("TZ");
  const std::string saved = zone ? zone : "";
  ::setenv("TZ", "UTC", 1);
  ::tzset();
  // 2026-11-26T10:00:00Z; kCodexId was made 2026-11-25T12:00:00Z.
  const std::time_t now = 1795687200;
  const std::vector<std::string> by_id = codex_rollout_days(kCodexId, now);
  // An id that is not a UUIDv7: today and yesterday only.
  const std::vector<std::string> by_name = codex_rollout_days("thread-name", now);
  zone ? ::setenv("TZ", saved.c_str(), 1) : ::unsetenv("TZ");
  ::tzset();
  CHECK(by_id == std::vector<std::string>{"2026/11/26", "2026/11/25", "2026/11/24"});
  CHECK(by_name == std::vector<std::string>{"2026/11/26", "2026/11/25"});
}

TEST_CASE("session_files: a compressed Codex rollout is found when no plain one is") {
  TempDir tmp;
  ScopedEnv home("HOME", tmp.path().c_str());
  ScopedEnv codex_home("CODEX_HOME", nullptr);
  const std::string rollout = codex_rollout(tmp.path());
  write_file(rollout + ".zst", "\x28\xb5\x2f\xfd");
  CHECK(codex_session_file(kCodexId, "/w") == rollout + ".zst");
  std::vector<std::string> said;
  const AgentProfile& codex = *find_agent_profile("codex");
  TranscriptWatch watch([&] { return codex.session_file(kCodexId, "/w"); },
                        MarkerRule{"%%DONE%%", "", false, &codex.completion},
                        std::chrono::milliseconds(20), true);
  watch.on_unreadable([&](const std::string& why) { said.push_back(why); });
  watch.mark_boundary();
  CHECK_FALSE(watch.check());
  CHECK(watch.path().empty());
  REQUIRE(said.size() == 1);
  CHECK(said[0].find(rollout + ".zst") != std::string::npos);
  // A plain one is preferred, and watched.
  write_file(rollout, codex_done("%%DONE%%"));
  CHECK(codex_session_file(kCodexId, "/w") == rollout);
  CHECK(watch.check());
  CHECK(said.size() == 1);
}
