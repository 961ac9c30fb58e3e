#include "hook/hook_command.h"
#include "base/exit_status.h"

#include <doctest/doctest.h>

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
      const HookCommand hook{executable, " --strict --tool 'a b'", true, exit};
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
                            fleet::exit_status::hook_blocks};
  CommandResult r = run_shell_command(format_hook_command(missing, "resume-guard", "Claude Code"),
                                      "{}", environment_with({}), std::chrono::seconds(10));
  CHECK(r.exit_code == 2);
  CHECK(
      r.err.find(
          "fleet-hooks: resume-guard is not installed on this machine (not found on PATH), so this "
          "call is blocked") == 0);
  // The teammate without the suite is told the exact commands that install it.
  CHECK(r.err.find("npm install -g ./fleet-hooks-<version>.tgz") != std::string::npos);
  CHECK(r.err.find("sudo apt install ./fleet-hooks_<version>_<amd64|arm64>.deb") !=
        std::string::npos);
  CHECK(r.err.find("README") == std::string::npos);  // they have no README
  CHECK(r.out.empty());
  // Present: exec'd with its arguments and the hook input on stdin.
  const HookCommand present{"cat", " -", true, fleet::exit_status::hook_blocks};
  r = run_shell_command(format_hook_command(present, "cat", "Claude Code"), "{\"a\":1}",
                        environment_with({}), std::chrono::seconds(10));
  CHECK(r.exit_code == 0);
  CHECK(r.out == "{\"a\":1}");
  const HookCommand open{"/nonexistent/dir/resume-guard", "", true, fleet::exit_status::hook_warns};
  r = run_shell_command(format_hook_command(open, "resume-guard", "Claude Code"), "",
                        environment_with({}), std::chrono::seconds(10));
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("not found at /nonexistent/dir/resume-guard") != std::string::npos);
}
