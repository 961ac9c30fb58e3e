#pragma once
// The command line of one of the suite's hook entries, in the forms the suite writes and
// reads back: plain (`/opt/bin/resume-guard --strict`), and guarded against a missing
// executable (`command -v resume-guard >/dev/null 2>&1 || { echo "…" >&2; exit 2; }; exec
// resume-guard --strict`), which Claude Code's /bin/sh runs so that a machine without the
// suite blocks the call (exit 2) instead of silently running it unguarded (exit 127).
// Failing: nothing here fails; a command that is not one of the suite's forms parses as
// nullopt, and a command without an executable word has the executable "".

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/exit_status.h"

namespace fleet {

struct HookCommand {
  std::string executable;  // the executable word as written (shell quotes kept)
  std::string arguments;   // everything after it, as written ("" or " --strict …")
  bool guarded = false;    // written in the `command -v … ||` form
  int exit_if_missing = exit_status::not_found;  // a plain command: /bin/sh says 127
  // The guarded form's project: the variable the CLI sets to the project's root in its hooks'
  // environment ("CLAUDE_PROJECT_DIR"), else "" for the hook's working directory.
  std::string project_variable;
  // Read back: the guarded form also looks in kInstallDirectories when PATH lacks the
  // executable (format_hook_command writes that for a bare name).
  bool searches_install_directories = false;
};

// Where the install routes put the suite's programs, looked in (in this order) by the guarded
// form of a bare name when the hook's PATH lacks it: a CLI may run its hooks with a PATH
// shorter than the user's shell has (Claude Code on macOS runs them without /opt/homebrew/bin).
// Homebrew on Apple silicon; Homebrew on Intel Macs and `npm install -g` with Homebrew's or the
// system's Node; the tarball unpacked into ~/.local and ./install.sh's default prefix. One list
// for both systems: a committed wiring is shared by Linux and macOS teammates.
struct InstallDirectory {
  std::string_view shell;  // as the hook command writes it
  std::string_view home;   // "" or the part after $HOME (then `shell` is "$HOME" + home)
};
inline constexpr InstallDirectory kInstallDirectories[] = {
    {.shell = "/opt/homebrew/bin", .home = ""},
    {.shell = "/usr/local/bin", .home = ""},
    {.shell = "\"$HOME/.local/bin\"", .home = "/.local/bin"},
};

// `word` quoted for /bin/sh when it holds anything beyond [A-Za-z0-9/._+-].
std::string shell_quote(std::string_view word);

// The shell words of `text` with quotes removed (no expansion); enough for the argument
// lists the suite writes and people hand-write.
std::vector<std::string> shell_words(std::string_view text);

// The guarded form (format_hook_command) runs the executable the shell finds for it (a bare
// name: on PATH, else in kInstallDirectories) only from an absolute path outside the project (the
// hook's $project_variable, else its working directory): one found through a relative PATH entry
// (`.tools` from a settings file's "env") or inside the project is refused as a missing one is,
// with its own message. The form of earlier releases (`command -v EXE >/dev/null 2>&1 || …; exec
// EXE`) is still read.
//
// The Claude Code plugin's hooks (plugin/hooks.json.in) choose the binary for the machine in
// the command itself, with shell builtins only: kMachineRead reads the kernel's machine into $m
// and keeps it only when the plugin holds bin/linux-$m/NAME, then the guarded form runs
// ".../bin/" + kMachineDirectory + "NAME": that binary, else the bin/ selector (which asks
// uname, and fails closed where the plugin has no binary for the machine).
inline constexpr std::string_view kMachineRead =
    "m=; { read -r m </proc/sys/kernel/arch; } 2>/dev/null; ";
inline constexpr std::string_view kMachineDirectory = "${m:+linux-$m/}";

// Parses a hook command in either form, the guarded one also after kMachineRead and its
// test. nullopt when it is empty.
std::optional<HookCommand> parse_hook_command(std::string_view command);

// How to install the suite, for a person on a machine without it (the message of a guarded
// command, `fleet-hooks check`): every route, each as the exact command to run, since that
// person may have only the project that is wired.
inline constexpr std::string_view kInstallRoutes =
    "Install fleet-hooks with one of: npm install -g ./fleet-hooks-<version>.tgz "
    "./fleet-hooks-<linux|darwin>-<x64|arm64>-<version>.tgz; sudo apt install "
    "./fleet-hooks_<version>_<amd64|arm64>.deb; brew install fleet-hooks from its tap; its "
    "tarball unpacked into ~/.local; or ./install.sh in a clone of fleet-hooks. Put its bin "
    "directory on PATH";

// The command text for `hook` (the guarded form when hook.guarded). `name` is the suite
// executable's name and `agent` the agent CLI that runs the hook (for the message: "…, then
// start Codex CLI again").
std::string format_hook_command(const HookCommand& hook, std::string_view name,
                                std::string_view agent);

// The executable a hook command runs, with shell quotes removed; nullopt when the command
// names none.
std::optional<std::string> command_executable(std::string_view command);

// The file name of the command's executable; nullopt when the command names none.
std::optional<std::string> command_executable_name(std::string_view command);

// The values of every `--tool NAME` / `--tool=NAME` in `arguments`.
std::vector<std::string> command_tools(std::string_view arguments);

}  // namespace fleet
