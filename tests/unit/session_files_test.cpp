#include "launch/session_files.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "launch/agent_profile.h"
#include "launch/transcript_watch.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

constexpr const char* kCodexId = "019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88";
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

TEST_CASE("session_files: a Codex rollout is found by its id in any day's folder") {
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
