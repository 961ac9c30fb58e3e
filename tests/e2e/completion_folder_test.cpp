// End to end: launch-wrapper's completion watch finds the transcript the real Claude Code CLI
// writes when the working directory's name is not ASCII and longer than Claude Code keeps
// (its project folder then ends in a hash of the path).

#include <dirent.h>
#include <doctest/doctest.h>
#include <sys/stat.h>

#include "agents/claude/claude_project_folder.h"
#include "base/json.h"
#include "claude_cli.h"
#include "launch_output.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::claude_or_skip;
using fleet::test::MockMessagesApi;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::TempDir;
using fleet::test::wrapper_summary;

namespace {

// The one folder below `projects`, "" when there is not exactly one.
std::string only_folder(const std::string& projects) {
  std::vector<std::string> found;
  if (DIR* dir = ::opendir(projects.c_str())) {
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_name[0] != '.') found.emplace_back(entry->d_name);
    }
    ::closedir(dir);
  }
  return found.size() == 1 ? found.front() : "";
}

}  // namespace

TEST_CASE("e2e: the completion watch follows a long non-ASCII working directory") {
  const std::string claude = claude_or_skip(FLEET_E2E_CACHE);
  TempDir tmp;
  // Cyrillic (one UTF-16 unit a letter), an emoji (two), and long enough to be cut at 200.
  std::string cwd = tmp / "Проект-😀";
  ::mkdir(cwd.c_str(), 0755);
  cwd += "/" + std::string(120, 'n') + "-ж";
  ::mkdir(cwd.c_str(), 0755);
  cwd += "/" + std::string(60, 'x');
  REQUIRE(::mkdir(cwd.c_str(), 0755) == 0);
  const std::string home = tmp / "home";
  ::mkdir(home.c_str(), 0755);
  MockMessagesApi api(FLEET_E2E_FIXTURES, tmp.path());
  api.script(R"({"rules":[{"match":"FOLDER-CHECK","turns":[{"text":"done\n%%FOLDER_DONE%%"}]}]})");
  auto env = api.client_env();
  env.push_back({"HOME", home});
  const RunResult r =
      run_process({FLEET_LAUNCH_WRAPPER, "--assign-session-id", "--completion-marker",
                   "%%FOLDER_DONE%%", "--drain", "1", "--grace", "1", "--", claude, "-p",
                   "FOLDER-CHECK go", "--output-format", "json"},
                  {"", env, cwd});
  const auto summary = wrapper_summary(r.err);
  CHECK_MESSAGE(summary["completion_seen"].GetBool(), r.err);
  CHECK(r.exit_code == 0);
  // The folder the CLI made is the one the wrapper derived.
  const std::string folder = only_folder(home + "/.claude/projects");
  CHECK(folder.size() > 201);  // 200 characters, '-', the hash's base-36 digits (1 to 7)
  CHECK(folder == fleet::claude_project_folder(cwd));
}
