// What `fleet-hooks install` and `uninstall` are asked to do (settings_update.h,
// SettingsRequest): which file, which executables, and the note after a portable install.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "agents/agents.h"
#include "base/error.h"
#include "settings/settings_file.h"
#include "settings/settings_update.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

// A project, a HOME and a directory holding stand-ins for the suite's executables.
struct Request {
  TempDir tmp;
  std::string bin = tmp / "bin";
  ScopedEnv home{"HOME", (tmp / "home").c_str()};
  SettingsRequest request;

  Request() {
    for (const std::string& dir : {tmp / "project", tmp / "home", bin})
      REQUIRE(::mkdir(dir.c_str(), 0755) == 0);
    for (const char* name : {"resume-guard", "provenance-writer"}) {
      write_file(bin + "/" + name, "#!/bin/sh\n");
      REQUIRE(::chmod((bin + "/" + name).c_str(), 0755) == 0);
    }
    request.project_dir = tmp / "project";
    request.agent = &fleet::claude_code();
  }
};

}  // namespace

TEST_CASE("settings_request: --scope names - the user settings path follows HOME") {
  CHECK(settings_scope_named("project") == SettingsScope::project);
  CHECK(settings_scope_named("local") == SettingsScope::local);
  CHECK(settings_scope_named("user") == SettingsScope::user);
  {
    const ScopedEnv home("HOME", "/h");
    CHECK(user_settings_path(claude_code()) == "/h/.claude/settings.json");
    CHECK(settings_path(SettingsScope::user, "/p", claude_code()) == "/h/.claude/settings.json");
    // A CLI with only its project's file has no user or local settings file.
    CHECK_FALSE(user_settings_path(*find_agent_cli("codex")).has_value());
    CHECK_THROWS_WITH_AS(settings_path(SettingsScope::user, "/p", *find_agent_cli("codex")),
                         "Codex CLI has no user settings file, only .codex/hooks.json in the "
                         "project",
                         Error);
    CHECK(settings_path(SettingsScope::project, "/p", *find_agent_cli("codex")) ==
          "/p/.codex/hooks.json");
  }
  const ScopedEnv no_home("HOME", nullptr);
  CHECK_FALSE(user_settings_path(claude_code()).has_value());
  CHECK_THROWS_AS(settings_path(SettingsScope::user, "/p", claude_code()), Error);
  CHECK(settings_path(SettingsScope::local, "/p", claude_code()) ==
        "/p/.claude/settings.local.json");
}

TEST_CASE(
    "settings_request: --scope with a CLI that has only its project's file names those that "
    "have more") {
  Request r;
  r.request.agent = find_agent_cli("gemini");
  CHECK_FALSE(scope_problem(r.request, agent_clis()).has_value());
  r.request.scope = SettingsScope::user;
  CHECK(scope_problem(r.request, agent_clis()) ==
        "--scope local and user are Claude Code's settings files; for --agent gemini only the "
        "project's .gemini/settings.json is wired: drop --scope");
  CHECK_THROWS_AS(plan_install(r.request), Error);
  r.request.agent = &claude_code();
  CHECK_FALSE(scope_problem(r.request, agent_clis()).has_value());
}

TEST_CASE("settings_request: local and user settings name bin_dir - project settings name none") {
  Request r;
  r.request.scope = SettingsScope::local;
  r.request.bin_dir = r.bin;
  SettingsUpdate update = plan_install(r.request);
  CHECK(update.path == r.tmp / "project/.claude/settings.local.json");
  CHECK(update.text.find(r.bin + "/resume-guard") != std::string::npos);

  r.request.scope = SettingsScope::user;
  update = plan_install(r.request);
  CHECK(update.path == r.tmp / "home/.claude/settings.json");
  CHECK(update.text.find(r.bin + "/provenance-writer") != std::string::npos);

  r.request.scope = SettingsScope::project;
  update = plan_install(r.request);
  CHECK(update.path == r.tmp / "project/.claude/settings.json");
  CHECK(update.text.find(r.bin) == std::string::npos);
  CHECK(update.text.find("exe=$(command -v resume-guard ") != std::string::npos);

  // A --bin-dir without the suite is refused, in every scope.
  r.request.bin_dir = r.tmp / "home";
  CHECK_THROWS_AS(plan_install(r.request), Error);
  r.request.scope = SettingsScope::local;
  CHECK_THROWS_AS(plan_install(r.request), Error);

  CHECK(plan_uninstall(r.request).summary.find("does not exist") != std::string::npos);
}

TEST_CASE(
    "settings_request: the note after a project install - only when resume-guard is off PATH") {
  Request r;
  r.request.bin_dir = r.bin;
  {
    const ScopedEnv path("PATH", "/nonexistent-fleet-hooks-path");
    const auto note = install_note(r.request);
    REQUIRE(note.has_value());
    CHECK(note->find("resume-guard is not on PATH here") == 0);
    CHECK(note->find("add " + r.bin + " to PATH") != std::string::npos);
    r.request.scope = SettingsScope::local;  // local settings name the executables
    CHECK_FALSE(install_note(r.request).has_value());
    r.request.scope = SettingsScope::project;
  }
  const ScopedEnv path("PATH", r.bin.c_str());
  CHECK_FALSE(install_note(r.request).has_value());
}
