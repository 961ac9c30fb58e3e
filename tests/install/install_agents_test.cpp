// install.sh for a project of Codex or Gemini CLI orchestrators: --agent names the CLIs to
// wire and check (repeatable), the next steps name their files, and --uninstall unwires every
// CLI of the projects it wired, leaving them as they were.

#include <doctest/doctest.h>

#include <filesystem>

#include "agents/agents.h"
#include "install_sh.h"
#include "process.h"
#include "round_trip.h"
#include "temp_dir.h"
#include "text.h"
#include "tree.h"

using fleet::test::check_as_before_but_own;
using fleet::test::CliOwnFile;
using fleet::test::contains;
using fleet::test::furnish_home;
using fleet::test::install_sh;
using fleet::test::run_cli_once;
using fleet::test::RunResult;
using fleet::test::snapshot_tree;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

namespace fs = std::filesystem;

}  // namespace

TEST_CASE("install.sh --agent: a wrong name or a list is refused before anything is built") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "orch");
  // A cmake that leaves a trace: the check must come before any build step.
  const std::string path = fleet::test::path_with_tracing_cmake(t / "fakebin", t / "cmake-ran");
  const auto refused = [&](const std::vector<std::string>& args) {
    const RunResult r = install_sh(args, t / "work", t / "home", path);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "--help"));
    return r.err;
  };
  CHECK(contains(refused({"--project", "../orch", "--agent=codex,gemini"}),
                 "one agent CLI per --agent; repeat it (--agent codex --agent gemini)"));
  // The names are the homes of the source tree (common/agents/<name>/), the ones the built
  // fleet-hooks lists (fleet_hooks_agents_test).
  std::string names;
  for (const auto& home : fs::directory_iterator(fs::path(FLEET_SOURCE_DIR) / "common/agents")) {
    if (home.is_directory()) names += home.path().filename().string() + "\n";
  }
  CHECK(contains(names, "qwen\n"));
  const std::string error = refused({"--project", "../orch", "--agent", "claud"});
  CHECK(contains(error, "--agent claud: not an agent CLI; use one of claude, codex, "));
  for (const std::string& name : fleet::test::split_lines(names)) CHECK(contains(error, name));
  CHECK(contains(refused({"--agent", "codex"}), "--agent and --trust go with --project DIR"));
  CHECK_FALSE(fs::exists(t / "cmake-ran"));

  const RunResult help = install_sh({"--help"}, t / "work", t / "home");
  CHECK(help.exit_code == 0);
  // --agent's help names every CLI of the table (from their homes, as the refusal above).
  const std::size_t agent_help = help.out.find("\n  --agent NAME ");
  REQUIRE(agent_help != std::string::npos);
  const std::string agent_text =
      help.out.substr(agent_help, help.out.find("\n  --trust ", agent_help) - agent_help);
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    const std::string name(agent->name);
    CAPTURE(name);
    CHECK((contains(agent_text, " " + name + ",") || contains(agent_text, " " + name + "\n")));
  }
}

TEST_CASE("install.sh --trust: without a CLI whose trust it writes it is refused before a build") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "orch");
  const std::string trace = t / "cmake-ran";
  const std::string path = fleet::test::path_with_tracing_cmake(t / "fakebin", trace);
  // The CLIs whose trust fleet-hooks install --trust writes, as its table says.
  std::string writers;
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    if (agent->hook_trust.write != nullptr)
      writers += (writers.empty() ? "--agent " : " or --agent ") + std::string(agent->name);
  }
  CHECK(writers == "--agent codex or --agent copilot");
  const std::string refusal =
      "install.sh: --trust trusts the wiring of a CLI whose trust the "
      "suite writes: pass " +
      writers + " with it";
  const auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--project", "../orch", "--trust"});
    const RunResult r = install_sh(args, t / "work", t / "home", path);
    const bool built = fs::exists(trace);
    fs::remove(trace);
    return std::pair{r, built};
  };
  // No --agent (Claude Code), or only CLIs without a trust to write: refused, nothing built.
  for (const auto& args : {std::vector<std::string>{},
                           std::vector<std::string>{"--agent", "gemini", "--agent", "qwen"}}) {
    const auto [r, built] = run(args);
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(contains(r.err, refusal), r.err);
    CHECK_FALSE(built);
  }
  // --help names the same CLIs for --trust.
  const RunResult help = install_sh({"--help"}, t / "work", t / "home");
  CHECK(contains(help.out, "  --trust        With " + writers + ": trust"));
  // Each CLI alone: refused before the build exactly when its table row has no trust writer.
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    const auto [r, built] = run({"--agent", std::string(agent->name)});
    CHECK_MESSAGE(built == (agent->hook_trust.write != nullptr), agent->name);
    CHECK_MESSAGE(contains(r.err, refusal) == !built, r.err);
  }
}

TEST_CASE("install.sh --agent codex --agent gemini: wires and checks both, uninstall unwires") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "orch");
  write_file(t / "orch/README.md", "orchestrator\n");
  const std::string orch = fs::canonical(t / "orch").string();
  // The user trusts the folder in Gemini CLI, as its note says; --trust trusts Codex's wiring.
  fs::create_directories(t / "home/.gemini");
  write_file(t / "home/.gemini/trustedFolders.json", "{\"" + orch + "\": \"TRUST_FOLDER\"}\n");
  const auto before = snapshot_tree(t / "orch");

  const RunResult r = install_sh({"--prefix", "../prefix", "--project", "../orch", "--agent",
                                  "codex", "--trust", "--agent", "gemini"},
                                 t / "work", t / "home");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(t / "orch/.codex/hooks.json"));
  CHECK(fs::exists(t / "orch/.gemini/settings.json"));
  CHECK_FALSE(fs::exists(t / "orch/.claude"));
  CHECK(contains(r.out, "denied a forged self-resume (Codex CLI)\n"));
  CHECK(contains(r.out, "denied a forged self-resume (Gemini CLI)\n"));
  CHECK(contains(r.out, "commit .codex/hooks.json .gemini/settings.json"));
  CHECK(contains(r.out, "'.codex/hooks.json.bak*' '.gemini/settings.json.bak*' >> .gitignore"));
  CHECK(contains(r.out, "--agent codex -- codex exec"));
  CHECK_FALSE(contains(r.out, ".claude/settings.json"));

  const RunResult u = install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home");
  INFO("stdout: " << u.out << "\nstderr: " << u.err);
  CHECK(u.exit_code == 0);
  CHECK(contains(u.out, "removed 3 fleet-hooks entries from " + orch + "/.codex/hooks.json"));
  CHECK(snapshot_tree(t / "orch") == before);
  CHECK_FALSE(fs::exists(t / "prefix"));
}

TEST_CASE(
    "install.sh --agent codex --agent gemini without --trust: wired, then exit 3 - untrusted") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "home");
  // The user's own Gemini settings, formatted their way: they come back byte for byte.
  fs::create_directories(t / "orch/.gemini");
  write_file(t / "orch/.gemini/settings.json", "{ \"ui\": {\"theme\": \"Dracula\"} }\n");
  const std::string orch = fs::canonical(t / "orch").string();
  const auto before = snapshot_tree(t / "orch");
  const auto home_before = snapshot_tree(t / "home");

  const RunResult r = install_sh(
      {"--prefix", "../prefix", "--project", "../orch", "--agent", "codex", "--agent", "gemini"},
      t / "work", t / "home");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 3);  // installed, not yet trusted
  const std::string all = r.out + r.err;
  const auto count = [&](const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = all.find(part); at != std::string::npos; at = all.find(part, at + 1)) ++n;
    return n;
  };
  // Each finding once (the check's), one line per CLI with the one step that trusts it.
  CHECK(count("codex-project-untrusted") == 1);
  CHECK(count("gemini-folder-untrusted") == 1);
  CHECK(count("Codex CLI skips these hooks until you trust them: fleet-hooks install --project " +
              orch + " --agent codex --trust\n") == 1);
  CHECK(count("Gemini CLI skips these hooks until you trust them: run `gemini` in " + orch +
              " and trust the folder\n") == 1);
  CHECK(contains(r.out,
                 "installed and wired, not yet trusted: Codex CLI and Gemini CLI skip the "
                 "hooks until you\n"));
  CHECK_FALSE(contains(r.err, "does not pass fleet-hooks check"));
  CHECK(contains(r.out, "Next steps"));
  CHECK(contains(r.out, "commit .codex/hooks.json .gemini/settings.json"));
  CHECK(r.out.find("not yet trusted") < r.out.find("Next steps"));

  const RunResult help = install_sh({"--help"}, t / "work", t / "home");
  CHECK(contains(help.out, "Exit status: 0 done"));
  CHECK(contains(help.out, "; 3 installed and wired, but\nan agent CLI skips the hooks"));

  const RunResult u = install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home");
  INFO("stdout: " << u.out << "\nstderr: " << u.err);
  CHECK(u.exit_code == 0);
  CHECK(snapshot_tree(t / "orch") == before);
  CHECK(snapshot_tree(t / "home") == home_before);
  CHECK_FALSE(fs::exists(t / "prefix"));
}

TEST_CASE("install.sh --agent copilot --trust: --uninstall leaves project and home as before") {
  TempDir t;
  fs::create_directories(t / "work");
  fs::create_directories(t / "home/.copilot");
  fs::create_directories(t / "orch");
  write_file(t / "home/.copilot/config.json",
             "// This file is managed automatically.\n{\n  \"firstLaunchAt\": \"x\"\n}\n");
  const auto before = snapshot_tree(t / "orch");
  const auto home_before = snapshot_tree(t / "home");

  const RunResult r =
      install_sh({"--prefix", "../prefix", "--project", "../orch", "--agent", "copilot", "--trust"},
                 t / "work", t / "home");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(t / "orch/.github/hooks/fleet-hooks.json"));

  const RunResult u = install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home");
  INFO("stdout: " << u.out << "\nstderr: " << u.err);
  CHECK(u.exit_code == 0);
  CHECK(contains(u.out, "removed the trust of the project "));
  CHECK(snapshot_tree(t / "orch") == before);  // no .github/
  CHECK(snapshot_tree(t / "home") == home_before);
}

TEST_CASE("install.sh --agent for every CLI: after each one's first run --uninstall restores") {
  // Every CLI of the table wired into one project (--trust for those whose trust the suite
  // writes), each CLI's first run in it, then install.sh --uninstall: the project is as before
  // but for the files the CLIs wrote as their own, and the home is as before.
  TempDir t;
  for (const char* dir : {"work", "home", "orch"}) fs::create_directories(t / dir);
  furnish_home(t / "home");
  // The user trusts the folder in Gemini CLI, as its note says (the suite writes no such trust).
  write_file(t / "home/.gemini/trustedFolders.json",
             "{\"" + fs::canonical(t / "orch").string() + "\": \"TRUST_FOLDER\"}\n");
  const auto before = snapshot_tree(t / "orch");
  const auto home_before = snapshot_tree(t / "home");
  std::vector<std::string> args = {"--prefix", "../prefix", "--project", "../orch", "--trust"};
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    args.push_back("--agent");
    args.push_back(std::string(agent->name));
  }
  const RunResult r = install_sh(args, t / "work", t / "home");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  std::vector<CliOwnFile> own;
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    for (CliOwnFile& file : run_cli_once(*agent, t / "orch")) own.push_back(std::move(file));
  }

  const RunResult u = install_sh({"--uninstall", "--prefix", "../prefix"}, t / "work", t / "home");
  INFO("stdout: " << u.out << "\nstderr: " << u.err);
  CHECK(u.exit_code == 0);
  check_as_before_but_own(t / "orch", before, own);
  CHECK(snapshot_tree(t / "home") == home_before);
  CHECK_FALSE(fs::exists(t / "prefix"));
}
