// `fleet-hooks install` and `uninstall` as a team uses them on one settings file: installs
// run at the same time, a file that comes back as the user wrote it, and the slips a person
// makes on the command line.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "base/json.h"
#include "process.h"
#include "settings/settings_file.h"
#include "suite.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::run_ls;
using fleet::test::RunResult;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

using Project = fleet::test::SettingsProject;

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("fleet-hooks install: ten installs at once on one file keep every tool") {
  const std::string original = "{\"model\":\"opus\"}\n";
  Project p(original, 0640);
  constexpr int kInstalls = 10;
  const auto tool = [](int n) { return "tool" + std::to_string(n + 1); };
  const std::vector<int> runners = fleet::test::fork_runners(kInstalls, 1, [&](int c, int) {
    return Args{FLEET_HOOKS_CLI, "install", "--project", p.dir, "--tool", tool(c)};
  });
  for (const int pid : runners) CHECK(fleet::test::wait_exit(pid) == 0);

  const rapidjson::Document doc = p.settings();
  for (const std::string event : {"PreToolUse", "PostToolUse"}) {
    const rapidjson::Value& groups = doc["hooks"][event.c_str()];
    REQUIRE(groups.Size() == 1);
    const std::string matcher = groups[0]["matcher"].GetString();
    const std::string command = std::string(groups[0]["hooks"][0]["command"].GetString()) + " ";
    for (int n = 0; n < kInstalls; ++n) {
      CHECK_MESSAGE((contains(matcher, tool(n) + "|") || contains(matcher, tool(n) + ")")),
                    event << " matcher " << matcher);
      CHECK_MESSAGE(contains(command, "--tool " + tool(n) + " "), command);
    }
  }
  CHECK(std::string(doc["model"].GetString()) == "opus");
  // The file rules still hold: its mode is kept, the first backup is the original, every
  // later one is a file the installs wrote in turn, and no temporary is left behind.
  CHECK(mode_of(p.file()) == 0640);
  CHECK(read_file(p.file() + ".bak") == original);
  for (const std::string& name : run_ls(p.dir + "/.claude")) {
    const bool expected = name == "settings.json" || name.starts_with("settings.json.bak");
    CHECK_MESSAGE(expected, "unexpected file in .claude: " << name);
    if (name.starts_with("settings.json.bak")) CHECK(mode_of(p.dir + "/.claude/" + name) == 0640);
  }
  CHECK(p.run({"check", "--project", p.dir, "--tool", "tool1", "--tool", "tool10"}).exit_code == 0);
}

TEST_CASE("fleet-hooks uninstall: gives back the user's bytes where nothing else changed") {
  for (const std::string& original :
       {std::string("{\"model\":\"opus\"}"), std::string("{\"model\":\"opus\"}\n"),
        std::string("\xEF\xBB\xBF{ \"model\" : \"opus\",\n    \"env\": {\"A\": \"1\"} }\n")}) {
    CAPTURE(original);
    Project p(original, 0600);
    REQUIRE(p.run({"install", "--project", p.dir}).exit_code == 0);
    REQUIRE(read_file(p.file()) != original);
    const RunResult removed = p.run({"uninstall", "--project", p.dir});
    CHECK(removed.exit_code == 0);
    CHECK(read_file(p.file()) == original);
    CHECK(mode_of(p.file()) == 0600);
    CHECK(contains(removed.out, "removed 2 fleet-hooks entries"));
  }
  // Changed by hand in between: the result is written as the suite writes (2-space indent).
  Project p("{\"model\":\"opus\"}");
  REQUIRE(p.run({"install", "--project", p.dir}).exit_code == 0);
  rapidjson::Document doc = p.settings();
  doc["model"].SetString("sonnet");
  write_file(p.file(), fleet::settings_text(doc));
  REQUIRE(p.run({"uninstall", "--project", p.dir}).exit_code == 0);
  CHECK(read_file(p.file()) == "{\n  \"model\": \"sonnet\"\n}\n");
}

TEST_CASE("fleet-hooks install --project .claude: refused, naming the project to pass") {
  Project p("{\"model\":\"opus\"}\n");
  const std::string claude_dir = p.dir + "/.claude";
  for (const Args& args :
       {Args{"install", "--project", claude_dir},
        Args{"install", "--project", claude_dir + "/", "--scope", "local"},
        Args{"uninstall", "--project", claude_dir}, Args{"check", "--project", claude_dir}}) {
    CAPTURE(args[0]);
    const RunResult r = p.run(args);
    CHECK(r.exit_code == 2);
    CHECK(r.err.starts_with("fleet-hooks " + args[0] + ": --project " + claude_dir +
                            " is a project's .claude directory"));
    CHECK(contains(r.err, "--project " + p.dir + " "));
    CHECK(r.out.empty());
  }
  // As a person types it, from inside .claude.
  const RunResult r =
      fleet::test::run_process({FLEET_HOOKS_CLI, "install", "--project", "."},
                               {"", {{"HOME", p.home}, {"PATH", p.path(true)}}, claude_dir});
  CHECK(r.exit_code == 2);
  CHECK(run_ls(claude_dir) == std::vector<std::string>{"settings.json"});
  CHECK(read_file(p.file()) == "{\"model\":\"opus\"}\n");
  // The user's settings do not depend on --project.
  CHECK(p.run({"install", "--project", claude_dir, "--scope", "user", "--bin-dir", p.bin})
            .exit_code == 0);
}

TEST_CASE("fleet-hooks install --project .codex: any CLI's project folder is refused the same") {
  Project p("{\"model\":\"opus\"}\n");
  for (const std::string& folder : {std::string(".codex"), std::string(".gemini")}) {
    const std::string dir = p.dir + "/" + folder;
    REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
    const RunResult r = p.run({"install", "--agent", folder.substr(1), "--project", dir});
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.starts_with("fleet-hooks install: --project " + dir + " is a project's " + folder +
                            " directory"));
    CHECK(contains(r.err, "--project " + p.dir + " "));
    CHECK(run_ls(dir).empty());  // nothing was written
  }
}
