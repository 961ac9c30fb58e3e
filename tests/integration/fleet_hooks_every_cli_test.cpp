// Every path a user takes through `fleet-hooks install`, `uninstall` and `check`, for every
// agent CLI at once: uninstall without --agent unwires each CLI of the project and leaves
// nothing the suite made, check without --agent checks each CLI wired there, a project's
// `git status` shows only what is meant to be committed, and the slips a person makes on the
// command line are usage errors that say what to do.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "agents/agents.h"
#include "process.h"
#include "suite.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::RunResult;
using fleet::test::write_file;
using Args = std::vector<std::string>;

namespace {

using Machine = fleet::test::SuiteMachine;

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// The names in `dir`, "." and ".." left out, sorted, one a line.
std::string listing(const std::string& dir) {
  return fleet::test::run_process({"/bin/ls", "-A", dir}).out;
}

// Installs the suite for each CLI into m's project, as a person does, one CLI at a time.
void install_all(const Machine& m) {
  for (const char* agent : {"claude", "codex", "gemini"}) {
    const RunResult r = m.run({"install", "--project", m.dir, "--agent", agent});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  }
}

RunResult git(const std::string& dir, Args args) {
  args.insert(args.begin(), {"/usr/bin/env", "git", "-C", dir});
  return fleet::test::run_process(args);
}

}  // namespace

TEST_CASE("fleet-hooks uninstall without --agent: unwires every CLI, leaves nothing it made") {
  Machine m;
  install_all(m);
  // A second install that changes the file: its backup holds the suite's first wiring.
  REQUIRE(m.run({"install", "--project", m.dir, "--tool", "open_kitchen"}).exit_code == 0);
  REQUIRE(exists(m.dir + "/.claude/settings.json.bak"));

  const RunResult r = m.run({"uninstall", "--project", m.dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  for (const std::string file :
       {"/.claude/settings.json", "/.codex/hooks.json", "/.gemini/settings.json"}) {
    CHECK_MESSAGE(contains(r.out, m.dir + file), r.out);
  }
  // No `{}` file, no backup of a file the suite created, no empty directory.
  CHECK(listing(m.dir).empty());

  // Again: nothing to remove, nothing made.
  const RunResult again = m.run({"uninstall", "--project", m.dir});
  CHECK(again.exit_code == 0);
  CHECK(contains(again.out, "nothing to remove"));
  CHECK(listing(m.dir).empty());
}

TEST_CASE("fleet-hooks uninstall without --agent: the user's own files come back as they were") {
  Machine m;
  const std::string claude = "{\"model\": \"opus\"}\n";
  const std::string gemini = "{\"ui\": {\"theme\": \"Dracula\"}}\n";
  ::mkdir((m.dir + "/.claude").c_str(), 0755);
  ::mkdir((m.dir + "/.gemini").c_str(), 0755);
  write_file(m.dir + "/.claude/settings.json", claude);
  write_file(m.dir + "/.gemini/settings.json", gemini);
  install_all(m);

  const RunResult r = m.run({"uninstall", "--project", m.dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(read_file(m.dir + "/.claude/settings.json") == claude);
  CHECK(read_file(m.dir + "/.gemini/settings.json") == gemini);
  CHECK_FALSE(exists(m.dir + "/.codex"));  // the suite made it: gone
}

TEST_CASE("fleet-hooks uninstall --scope local: Claude Code's file only, others kept") {
  Machine m;
  install_all(m);
  const RunResult r = m.run({"uninstall", "--project", m.dir, "--scope", "local"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(exists(m.dir + "/.codex/hooks.json"));
  CHECK(exists(m.dir + "/.gemini/settings.json"));
}

TEST_CASE("fleet-hooks check without --agent: checks every CLI wired in the project") {
  Machine m;
  SUBCASE("Claude Code and an untrusted Codex: fails on Codex, says which it checked") {
    REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
    REQUIRE(m.run({"install", "--project", m.dir, "--agent", "codex"}).exit_code == 0);
    const RunResult r = m.run({"check", "--project", m.dir});
    CHECK(r.exit_code == 3);  // only Codex's trust is missing
    CHECK_MESSAGE(
        contains(r.out,
                 "checking Claude Code and Codex CLI: wired in " + m.dir +
                     " (not wired: Gemini CLI, Qwen Code, GitHub Copilot CLI and OpenCode)\n"),
        r.out);
    CHECK(contains(r.out, "error codex-project-untrusted"));
    CHECK_FALSE(contains(r.out, "guard-missing"));
  }
  SUBCASE("Gemini only: no finding on Claude Code, no advice to wire it") {
    REQUIRE(m.run({"install", "--project", m.dir, "--agent", "gemini"}).exit_code == 0);
    const RunResult r = m.run({"check", "--project", m.dir});
    CHECK(contains(r.out, "checking Gemini CLI: wired in " + m.dir));
    CHECK_FALSE(contains(r.out, ".claude/settings.json"));
    CHECK_FALSE(contains(r.out, "guard-missing"));
  }
  SUBCASE("nothing wired: fails, saying how to wire each CLI") {
    const RunResult r = m.run({"check", "--project", m.dir});
    CHECK(r.exit_code == 1);
    CHECK_MESSAGE(contains(r.out, "no agent CLI runs fleet-hooks in " + m.dir), r.out);
    CHECK(contains(r.out, "fleet-hooks install --project " + m.dir +
                              " --agent claude|codex|gemini|qwen|copilot|opencode (repeatable)"));
  }
  SUBCASE("--agent names the CLI: no line about the others") {
    REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
    const RunResult r = m.run({"check", "--project", m.dir, "--agent", "claude"});
    CHECK(r.exit_code == 0);
    CHECK_FALSE(contains(r.out, "checking"));
  }
}

TEST_CASE("fleet-hooks install: git status shows only the wiring, never the state dir") {
  Machine m;
  REQUIRE(git(m.dir, {"init", "-q"}).exit_code == 0);
  REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
  // A dispatcher records a launch into the project's default state directory.
  const RunResult record =
      fleet::test::run_with_only_env({"HOME=" + m.home, "PATH=" + m.path(true)},
                                     {"provenance-writer", "record", "--session-id", "worker-1",
                                      "--caller-session-id", "l3", "--kitchen-id", "k1"},
                                     {"", {}, m.dir});
  REQUIRE_MESSAGE(record.exit_code == 0, record.err);
  REQUIRE(exists(m.dir + "/.autoskillit/temp/session_provenance.jsonl"));
  CHECK(read_file(m.dir + "/.autoskillit/temp/.gitignore") == "*\n");

  const RunResult status = git(m.dir, {"status", "--porcelain", "--untracked-files=all"});
  REQUIRE(status.exit_code == 0);
  CHECK(status.out == "?? .claude/settings.json\n");
}

TEST_CASE("fleet-hooks install: slips on the command line are usage errors saying what to do") {
  Machine m;
  SUBCASE("--scope with a CLI that has only the project's file: exit 2") {
    for (const char* sub : {"install", "uninstall"}) {
      const RunResult r = m.run({sub, "--project", m.dir, "--agent", "codex", "--scope", "local"});
      CHECK(r.exit_code == 2);
      CHECK_MESSAGE(contains(r.err, std::string("fleet-hooks ") + sub +
                                        ": --scope local and "
                                        "user are Claude Code's settings files"),
                    r.err);
      CHECK(contains(r.err, "drop --scope"));
    }
    CHECK(listing(m.dir).empty());
  }
  SUBCASE("two CLIs in one --agent: says to repeat --agent") {
    const RunResult r = m.run({"install", "--project", m.dir, "--agent=codex,gemini"});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(contains(r.err, "repeat --agent for each (--agent codex --agent gemini)"), r.err);
    CHECK(listing(m.dir).empty());
  }
  SUBCASE("no --project in the home directory: refused, the user settings untouched") {
    const RunResult r = fleet::test::run_with_only_env(
        {"HOME=" + m.home, "PATH=" + m.path(true)}, {"fleet-hooks", "install"}, {"", {}, m.home});
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(
        contains(r.err, "fleet-hooks install: the project " + m.home + " is your home directory"),
        r.err);
    // Each CLI's own user hook file is named: the folder holds all of them.
    for (const fleet::AgentCli* agent : fleet::agent_clis()) {
      if (agent->user_hook_file.empty()) continue;
      const std::string file =
          "~/" + std::string(agent->config_home_default) + "/" + std::string(agent->user_hook_file);
      CHECK_MESSAGE(contains(r.err, file), file);
    }
    CHECK(listing(m.home).empty());
    // The user scope is how to wire every project.
    const RunResult user = fleet::test::run_with_only_env(
        {"HOME=" + m.home, "PATH=" + m.path(true)},
        {"fleet-hooks", "install", "--scope", "user", "--bin-dir", m.bin}, {"", {}, m.home});
    CHECK_MESSAGE(user.exit_code == 0, user.err);
  }
}
