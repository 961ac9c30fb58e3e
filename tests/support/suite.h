#pragma once
// Test support: the suite's executables driven as Claude Code and users drive them — a
// record written with `provenance-writer record`, the guard's decision on a PreToolUse
// input, the verdict `fleet-hooks query` prints — and a bin directory holding the suite.

#include <initializer_list>
#include <string>
#include <vector>

#include <rapidjson/document.h>

#include "emulator.h"
#include "fixtures.h"
#include "process.h"
#include "temp_dir.h"

namespace fleet::test {

// Writes the record of `session` launched by `caller` in `kitchen` (recipe "implement") into
// the store in `state_dir` with `provenance-writer record`; REQUIREs that it succeeds.
void write_record(const std::string& state_dir, const std::string& session,
                  const std::string& caller, const std::string& kitchen);

// resume-guard's decision on the hook input `input` in `kitchen`: "deny", "advisory" (it
// printed something else) or "silent" (it printed nothing); REQUIREs exit code 0.
std::string guard_decision(const std::string& state_dir, const std::string& kitchen,
                           const std::string& input);

// The verdict `fleet-hooks query` prints for `caller` in `kitchen` resuming `session`:
// "deny", "advisory" or "silent"; REQUIREs that it prints one.
std::string query_verdict(const std::string& state_dir, const std::string& caller,
                          const std::string& kitchen, const std::string& session);

// A state directory holding the provenance store, driven through the suite's executables.
struct StoreDir {
  TempDir tmp;
  std::string store() const { return tmp / "session_provenance.jsonl"; }
  // Writes the record of `session` launched by `caller` in `kitchen` (write_record).
  void record(const std::string& session, const std::string& caller,
              const std::string& kitchen) const;
  // resume-guard's decision for `caller` in `kitchen` resuming `session` through `tool`:
  // "deny", "advisory" or "silent" (guard_decision).
  std::string guard(const std::string& caller, const std::string& kitchen,
                    const std::string& session, const std::string& tool = kDispatchTool) const;
  // The verdict `fleet-hooks query` prints: "deny", "advisory" or "silent" (query_verdict).
  std::string query(const std::string& caller, const std::string& kitchen,
                    const std::string& session) const;
};

// Links the named executables of the suite ("resume-guard", "provenance-writer",
// "launch-wrapper", "fleet-hooks") into `bin_dir`, as ./install.sh puts them on PATH.
void link_suite(const std::string& bin_dir, std::initializer_list<std::string> names);

// REQUIREs that `path` (a PATH value) holds no resume-guard: the machine "without the suite".
void require_suite_absent(const std::string& path);

// A machine as the wiring tests see it: a project `dir`, a `home`, and a `bin` dir holding
// resume-guard, provenance-writer and fleet-hooks, on PATH (before kSystemPath) only when asked;
// under an emulator a `uname` naming the emulated machine comes first on PATH.
struct SuiteMachine {
  TempDir tmp;
  std::string dir = tmp / "project";
  std::string home = tmp / "home";
  std::string bin = tmp / "bin";
  // Under an emulator, "<dir>:" of a uname naming the emulated machine (emulator.h); "".
  std::string machine = emulated_uname_path(tmp / "machine");

  SuiteMachine();
  std::string path(bool suite_on_path) const;
  // Runs `program` with `args`, this HOME and path(suite_on_path).
  RunResult run(std::vector<std::string> args, bool suite_on_path = true,
                const std::string& program = FLEET_HOOKS_CLI) const;
};

// A SuiteMachine whose project holds .claude/settings.json with `settings`, mode `mode`.
struct SettingsProject : SuiteMachine {
  explicit SettingsProject(const std::string& settings, unsigned mode = 0644);
  std::string file() const { return dir + "/.claude/settings.json"; }
  // The settings file as it is now, parsed; REQUIREs that it is JSON.
  rapidjson::Document settings() const;
};

}  // namespace fleet::test
