#pragma once
// The exit statuses of the suite's programs, named once (as ninja keeps `ExitStatus`). Each
// program documents in its --help which of these it uses; doc/command-lines.md and each program's
// page repeat them.
//
// The one way to fail: a failure the caller does not branch on throws fleet::Error (error.h)
// where it is detected and is caught once, in the program's main, which prints
// "<program>: <message>" and returns one of these. Expected outcomes the caller branches on
// (not found, denied, gone, timed out) and anything on the guard's hot path are return
// values: std::optional when the only other outcome is "absent", fleet::Result<T> (result.h)
// when the caller needs to know why there is no value, else a small result struct or enum —
// never "" meaning ok, never an out-parameter beside a bool. Library code never prints and
// never exits: what a long-running operation has to say as it goes (launch-wrapper's
// notices) is handed to a sink the program's main provides.

namespace fleet::exit_status {

inline constexpr int ok = 0;
// fleet-hooks: findings of severity error, or nothing found; provenance-writer: the record
// could not be written; launch-wrapper stop/status: still alive / not alive.
inline constexpr int failure = 1;
// A command line the program cannot parse (resume-guard and the writer's hook mode exit 1
// instead, which Claude Code treats as a non-blocking error: a hook never blocks by failing).
inline constexpr int usage = 2;
// fleet-hooks check (and install.sh --project): the wiring is right, but an agent CLI skips
// the suite's hooks until the project or the hooks are trusted (every error is one that
// trusting fixes: Finding::fixed_by_trust).
inline constexpr int untrusted = 3;
// Claude Code hook protocol: 2 blocks the tool call (stderr goes to the model), 1 is a
// non-blocking error shown to the user.
inline constexpr int hook_blocks = 2;
inline constexpr int hook_warns = 1;
// As timeout(1) and env(1): the wrapper itself failed; the command was found but could not
// be executed; the command was not found (also what /bin/sh returns for a missing command).
inline constexpr int wrapper_failure = 125;
inline constexpr int not_executable = 126;
inline constexpr int not_found = 127;

// 128+N: signal N ended the process (the shell's convention).
inline constexpr int of_signal(int signal_number) {
  return 128 + signal_number;
}

}  // namespace fleet::exit_status
