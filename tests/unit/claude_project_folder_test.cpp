#include "agents/claude/claude_project_folder.h"

#include <doctest/doctest.h>

#include "agents/claude/claude_session_file.h"
#include "agents/codex/codex_session_file.h"
#include "agents/gemini/gemini_session_file.h"
#include "base/json.h"
#include "fixtures.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::ScopedEnv;
using fleet::test::split_lines;

namespace {

// The transcript folder of `cwd`, as the completion watch derives it.
std::string folder_of(const std::string& cwd) {
  ScopedEnv config("CLAUDE_CONFIG_DIR", "/cfg");
  const std::string path = claude_session_file("s", cwd);
  const std::string prefix = "/cfg/projects/";
  REQUIRE(path.starts_with(prefix));
  REQUIRE(path.ends_with("/s.jsonl"));
  return path.substr(prefix.size(), path.size() - prefix.size() - 8);
}

}  // namespace

// tests/fixtures/claude_project_folders.jsonl: the folders the real Claude Code CLI created
// under ~/.claude/projects when run offline (against a loopback Messages API, as tests/e2e
// does) in each working directory; the version it was recorded with is on each line.
TEST_CASE("claude_project_folder: the folder names the real Claude Code CLI created") {
  const auto lines = split_lines(read_file(FLEET_FIXTURES "/claude_project_folders.jsonl"));
  REQUIRE(lines.size() >= 10);
  for (const std::string& line : lines) {
    rapidjson::Document vector = fleet::test::json_document(line);
    const std::string cwd(*string_member(vector, "cwd"));
    const std::string folder(*string_member(vector, "folder"));
    CHECK_MESSAGE(folder_of(cwd) == folder, cwd, " (Claude Code ",
                  *string_member(vector, "claude_code"), ")");
  }
}

TEST_CASE("claude_project_folder: one dash per UTF-16 code unit, a hash past 200 characters") {
  CHECK(folder_of("/home/me/my.project_x") == "-home-me-my-project-x");
  CHECK(folder_of("/w/Проект") == "-w-------");        // 6 letters, one unit each
  CHECK(folder_of("/w/\xF0\x9F\x98\x80") == "-w---");  // an emoji: a surrogate pair
  const std::string two_hundred = "/" + std::string(199, 'a');
  CHECK(folder_of(two_hundred) == "-" + std::string(199, 'a'));
  const std::string longer = folder_of(two_hundred + "b");
  CHECK(longer.starts_with("-" + std::string(199, 'a') + "-"));
  CHECK(longer.size() > 201);
  // A path that is not UTF-8 (Claude Code 2.1.328 refuses to start in one): decoded as
  // Node and Bun decode it, one U+FFFD for each invalid sequence's longest valid beginning
  // (expected values from node's Buffer.toString()).
  const std::pair<std::string, std::string> invalid[] = {
      {std::string("/w/a\xE2\x82") + "b", "-w-a-b"},  // a truncated sequence, then 'b'
      {"/w/\xC0\xAF", "-w---"},                       // an overlong '/': two bytes
      {"/w/\xE0\x80", "-w---"},                       // an overlong start
      {"/w/\xED\xA0\x80", "-w----"},                  // a UTF-16 surrogate
      {"/w/\xF4\x90\x80\x80", "-w-----"},             // above U+10FFFF
      {"/w/\xF0\x9F\x98", "-w--"},                    // cut off at the end
  };
  for (const auto& [cwd, folder] : invalid) CHECK(claude_project_folder(cwd) == folder);
}
