#include "hook/hook_command.h"
#include "base/exit_status.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include "process/child_process.h"
#include "process/subprocess.h"

using namespace fleet;

TEST_CASE("hook_command: plain commands - assignments - quotes") {
  auto hook = parse_hook_command("/a/b/resume-guard --strict");
  REQUIRE(hook);
  CHECK(hook->executable == "/a/b/resume-guard");
  CHECK(hook->arguments == " --strict");
  CHECK_FALSE(hook->guarded);
  CHECK(hook->exit_if_missing == fleet::exit_status::not_found);
  CHECK(command_executable("'/opt/my tools/resume-guard' --x") == "/opt/my tools/resume-guard");
  CHECK(command_executable("FOO=1 BAR=2 /x/provenance-writer hook") == "/x/provenance-writer");
  CHECK(command_executable_name("\"${CLAUDE_PLUGIN_ROOT}/bin/resume-guard\" --tool x") ==
        "resume-guard");
  CHECK_FALSE(parse_hook_command("   "));
  CHECK(shell_words("--tool 'a b' --x=\"c\"") ==
        std::vector<std::string>{"--tool", "a b", "--x=c"});
  CHECK(command_tools(" --strict --tool a --tool=b --kitchen-id prod") ==
        std::vector<std::string>{"a", "b"});
}

TEST_CASE("hook_command: the guarded form reads back as written") {
  for (const std::string executable :
       {"resume-guard", "/opt/fh/bin/resume-guard", "'/opt/my tools/resume-guard'",
        "\"${CLAUDE_PLUGIN_ROOT}/bin/resume-guard\""}) {
    for (const int exit : {fleet::exit_status::hook_blocks, fleet::exit_status::hook_warns}) {
      const HookCommand hook{executable, " --strict --tool 'a b'", true, exit, ""};
      const std::string text = format_hook_command(hook, "resume-guard", "Claude Code");
      const auto back = parse_hook_command(text);
      REQUIRE(back);
      CHECK(back->executable == executable);
      CHECK(back->arguments == hook.arguments);
      CHECK(back->guarded);
      CHECK(back->exit_if_missing == exit);
      CHECK(command_executable_name(text) == "resume-guard");
      CHECK(format_hook_command(*back, "resume-guard", "Claude Code") == text);
    }
  }
}

TEST_CASE("hook_command: the plugin's command, which picks the machine's binary, reads back") {
  // As plugin/hooks.json.in writes it: the guarded form after reading the machine into $m.
  const std::string plugin_bin = "\"${CLAUDE_PLUGIN_ROOT}/bin/${m:+linux-$m/}resume-guard\"";
  const std::string command =
      "m=; { read -r m </proc/sys/kernel/arch; } 2>/dev/null; [ -x "
      "\"${CLAUDE_PLUGIN_ROOT}/bin/linux-$m/resume-guard\" ] || m=; command -v " +
      plugin_bin + " >/dev/null 2>&1 || { echo \"fleet-hooks: resume-guard is missing\" >&2; " +
      "exit 2; }; exec " + plugin_bin + " --tool open_kitchen";
  const auto hook = parse_hook_command(command);
  REQUIRE(hook);
  CHECK(hook->guarded);
  CHECK(hook->executable == plugin_bin);
  CHECK(hook->arguments == " --tool open_kitchen");
  CHECK(hook->exit_if_missing == fleet::exit_status::hook_blocks);
  CHECK(command_executable_name(command) == "resume-guard");
  CHECK(command_tools(hook->arguments) == std::vector<std::string>{"open_kitchen"});
}

TEST_CASE("hook_command: /bin/sh runs the guarded form - blocks with the fix when missing") {
  const HookCommand missing{"fleet-hooks-no-such-binary", " --x", true,
                            fleet::exit_status::hook_blocks, ""};
  CommandResult r = run_shell_command(format_hook_command(missing, "resume-guard", "Claude Code"),
                                      "{}", environment_with({}), std::chrono::seconds(10));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(
            "fleet-hooks: resume-guard is not installed on this machine (not found on PATH or in "
            "/opt/homebrew/bin, /usr/local/bin or ~/.local/bin), so this "
            "call is blocked") == 0);
  // The teammate without the suite is told the exact commands that install it.
  CHECK(r.err.find("npm install -g ./fleet-hooks-<version>.tgz") != std::string::npos);
  CHECK(r.err.find("sudo apt install ./fleet-hooks_<version>_<amd64|arm64>.deb") !=
        std::string::npos);
  CHECK(r.err.find("README") == std::string::npos);  // they have no README
  CHECK(r.out.empty());
  // Present: exec'd with its arguments and the hook input on stdin.
  const HookCommand present{"cat", " -", true, fleet::exit_status::hook_blocks, ""};
  r = run_shell_command(format_hook_command(present, "cat", "Claude Code"), "{\"a\":1}",
                        environment_with({}), std::chrono::seconds(10));
  CHECK(r.exit_code == 0);
  CHECK(r.out == "{\"a\":1}");
  const HookCommand open{"/nonexistent/dir/resume-guard", "", true, fleet::exit_status::hook_warns,
                         ""};
  r = run_shell_command(format_hook_command(open, "resume-guard", "Claude Code"), "",
                        environment_with({}), std::chrono::seconds(10));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("not found at /nonexistent/dir/resume-guard") != std::string::npos);
}

TEST_CASE(
    "hook_command: the guarded form runs nothing found through a relative PATH entry or "
    "inside the project") {
  // A repository's .tools/resume-guard that lets every call through, reached as a settings
  // file's "env": {"PATH": ".tools:…"} would reach it, and from an absolute entry inside the
  // project.
  const std::string project = "/tmp/fleet-hooks-guarded-form-" + std::to_string(::getpid());
  REQUIRE(run_shell_command(
              "mkdir -p " + project + "/.tools && printf '#!/bin/sh\\necho let-through\\n' > " +
                  project + "/.tools/resume-guard && chmod +x " + project + "/.tools/resume-guard",
              "", environment_with({}), std::chrono::seconds(10))
              .exit_code == 0);
  HookCommand guard{"resume-guard", "", true, fleet::exit_status::hook_blocks, ""};
  guard.project_variable = "CLAUDE_PROJECT_DIR";
  const std::string command = format_hook_command(guard, "resume-guard", "Claude Code");
  const auto back = parse_hook_command(command);
  REQUIRE(back);
  CHECK(back->project_variable == "CLAUDE_PROJECT_DIR");
  CHECK(format_hook_command(*back, "resume-guard", "Claude Code") == command);
  const auto run = [&](const std::string& path, const std::string& project_dir) {
    return run_shell_command(
        "cd " + project + " && " + command, "{}",
        environment_with({"PATH=" + path + ":/usr/bin:/bin", "CLAUDE_PROJECT_DIR=" + project_dir}),
        std::chrono::seconds(10));
  };
  CommandResult r = run(".tools", project);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_MESSAGE(
      r.err.find("resume-guard was found through a relative PATH entry") != std::string::npos,
      r.err);
  r = run(project + "/.tools", project);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_MESSAGE(r.err.find("resume-guard was found inside the project") != std::string::npos,
                r.err);
  // Without CLAUDE_PROJECT_DIR (Codex sets none), the hook's working directory is the project.
  guard.project_variable = "";
  r = run_shell_command(
      "cd " + project + " && " + format_hook_command(guard, "resume-guard", "Codex CLI"), "{}",
      environment_with({"PATH=" + project + "/.tools:/usr/bin:/bin"}), std::chrono::seconds(10));
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  // Outside the project, from an absolute entry: run.
  r = run(project + "/.tools", "/nonexistent-project");
  CHECK(r.exit_code == 0);
  CHECK(r.out == "let-through\n");
  run_shell_command("rm -rf " + project, "", environment_with({}), std::chrono::seconds(10));
}

TEST_CASE(
    "hook_command: a bare name the hook's PATH lacks is run from where the install routes put "
    "it") {
  // Claude Code on macOS runs hooks with a PATH without /opt/homebrew/bin: a teammate whose
  // suite is installed there (or in ~/.local/bin, /usr/local/bin) must be guarded, not blocked.
  const std::string home = "/tmp/fleet-hooks-install-dirs-" + std::to_string(::getpid());
  const std::string project = home + "/project";
  REQUIRE(run_shell_command("mkdir -p " + home + "/.local/bin " + project +
                                " && printf '#!/bin/sh\\necho guard-ran \"$@\"\\n' > " + home +
                                "/.local/bin/fleet-hooks-test-guard && chmod +x " + home +
                                "/.local/bin/fleet-hooks-test-guard",
                            "", environment_with({}), std::chrono::seconds(10))
              .exit_code == 0);
  HookCommand guard{"fleet-hooks-test-guard", " --strict", true, fleet::exit_status::hook_blocks,
                    "CLAUDE_PROJECT_DIR"};
  const std::string command = format_hook_command(guard, "resume-guard", "Claude Code");
  const auto back = parse_hook_command(command);
  REQUIRE(back);
  CHECK(back->searches_install_directories);
  CHECK(back->executable == "fleet-hooks-test-guard");
  CHECK(back->arguments == " --strict");
  CHECK(format_hook_command(*back, "resume-guard", "Claude Code") == command);
  const auto run = [&](const std::string& home_dir, const std::string& project_dir) {
    return run_shell_command("cd " + project + " && " + command, "{}",
                             environment_with({"PATH=/usr/bin:/bin", "HOME=" + home_dir,
                                               "CLAUDE_PROJECT_DIR=" + project_dir}),
                             std::chrono::seconds(10));
  };
  CommandResult r = run(home, project);
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out == "guard-ran --strict\n");
  // A HOME inside the project (a settings file's "env", which check reports) or a relative one
  // reaches a program the repository ships: refused, as from PATH.
  r = run(home, home);
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_MESSAGE(r.err.find("was found inside the project") != std::string::npos, r.err);
  r = run_shell_command("cd " + home + " && " + command, "{}",
                        environment_with({"PATH=/usr/bin:/bin", "HOME=.", "CLAUDE_PROJECT_DIR=/x"}),
                        std::chrono::seconds(10));
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_MESSAGE(r.err.find("relative PATH entry") != std::string::npos, r.err);
  // Nowhere: blocked, naming where it looked.
  r = run("/nonexistent-home", project);
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find("(not found on PATH or in /opt/homebrew/bin, /usr/local/bin or "
                           "~/.local/bin), so this call is blocked") != std::string::npos,
                r.err);
  // An absolute path is run as written, from nowhere else.
  guard.executable = "/nonexistent/bin/fleet-hooks-test-guard";
  CHECK_FALSE(parse_hook_command(format_hook_command(guard, "resume-guard", "Claude Code"))
                  ->searches_install_directories);
  run_shell_command("rm -rf " + home, "", environment_with({}), std::chrono::seconds(10));
}
