// The Claude Code plugin's hooks as Claude Code runs them: hooks/hooks.json's command under
// /bin/sh with CLAUDE_PLUGIN_ROOT set, which runs the bin/ selector, which execs the binary for
// the machine /proc/sys/kernel/arch names, starting no other process; where the plugin
// holds no binary for that machine, for the machine `uname -sm` names (faked with a `uname` on
// PATH for the machines this one is not). The plugin of this build (cmake --install), and the
// plugin ./install.sh --package writes for Linux and macOS, whose aarch64 guard runs here
// under qemu-aarch64-static (its macOS binaries are checked to be Mach-O executables).

#include <doctest/doctest.h>
#include <filesystem>

#include "base/json.h"
#include "fixtures.h"
#include "install_sh.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunOptions;
using fleet::test::RunResult;
using fleet::test::TempDir;

namespace {

namespace fs = std::filesystem;

const std::string kVersion = FLEET_VERSION_NUMBER;
constexpr const char* kHookNames[] = {"resume-guard", "provenance-writer"};

// The command of the plugin's first `event` hook in hooks/hooks.json.
std::string hook_command(const std::string& plugin, const char* event) {
  const auto doc = fleet::parse_json_object(read_file(plugin + "/hooks/hooks.json"));
  REQUIRE_MESSAGE(doc.ok(), doc.problem());
  return (*doc)["hooks"][event][0]["hooks"][0]["command"].GetString();
}

// A plugin hook run as Claude Code runs it: `sh -c COMMAND` with the hook input on stdin,
// CLAUDE_PLUGIN_ROOT, the state directory, and `machine` printed by a fake `uname` first on
// PATH ("" keeps the real one).
struct PluginHooks {
  const TempDir& t;
  std::string plugin;
  std::string state = t / "state";

  RunResult run(const char* event, const std::string& input,
                const std::string& machine = "") const {
    std::string path = fleet::test::kSystemPath;
    if (!machine.empty()) {
      const std::string shim = t / ("uname-" + machine);
      fs::create_directories(shim);
      fleet::test::write_script(shim + "/uname", "echo '" + machine + "'");
      path = shim + ":" + path;
    }
    RunOptions options;
    options.stdin_data = input;
    return fleet::test::run_with_only_env(
        {"PATH=" + path, "CLAUDE_PLUGIN_ROOT=" + plugin, "FLEET_HOOKS_STATE_DIR=" + state},
        {"/bin/sh", "-c", hook_command(plugin, event)}, options);
  }
  RunResult guard(const std::string& caller, const std::string& machine = "") const {
    return run("PreToolUse", fleet::test::pre_tool_use(caller, "worker-1"), machine);
  }
  RunResult writer(const std::string& machine) const {
    return run("PostToolUse",
               fleet::test::post_tool_use(R"({"prompt":"x"})", R"({"session_id":"worker-2"})"),
               machine);
  }
};

// Records worker-1 (a worker of recipe "implement") as launched by l3-owner with the
// provenance-writer in `bin`.
void record_owner(const std::string& bin, const std::string& state) {
  const RunResult r = run_process({bin + "/provenance-writer", "record", "--state-dir", state,
                                   "--caller-session-id", "l3-owner", "--session-id", "worker-1",
                                   "--recipe-name", "implement"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
}

bool denies(const RunResult& r) {
  return r.exit_code == 0 && contains(r.out, R"("permissionDecision":"deny")");
}

// The ELF machine of an executable: 62 x86-64, 183 aarch64; 0 when it is not ELF.
int elf_machine(const std::string& path) {
  const std::string elf = read_file(path);
  if (elf.size() < 20 || elf.compare(0, 4,
                                     "\x7f"
                                     "ELF") != 0)
    return 0;
  return static_cast<unsigned char>(elf[18]) | static_cast<unsigned char>(elf[19]) << 8;
}

}  // namespace

TEST_CASE("plugin: its hooks run this machine's binary and block where it has none") {
  TempDir t;
  REQUIRE(run_process({FLEET_CMAKE, "--install", FLEET_BINARY_DIR, "--prefix", t / "prefix"})
              .exit_code == 0);
  const PluginHooks hooks{t, t / "prefix/share/fleet-hooks/claude-plugin"};
  record_owner(t / "prefix/bin", hooks.state);
  const std::string ours = std::string("Linux ") + FLEET_ARCH;
  const std::string other = FLEET_ARCH == std::string("x86_64") ? "aarch64" : "x86_64";
  for (const char* name : kHookNames) {
    CHECK(read_file(hooks.plugin + "/bin/" + name).rfind("#!/bin/sh\n", 0) == 0);
    CHECK(elf_machine(hooks.plugin + "/bin/linux-" + FLEET_ARCH + "/" + name) != 0);
  }

  // This machine, as it is and as the fake uname says it: the guard decides.
  CHECK(denies(hooks.guard("l3-stranger")));
  CHECK(denies(hooks.guard("l3-stranger", ours)));
  const RunResult owner = hooks.guard("l3-owner", ours);
  CHECK(owner.exit_code == 0);
  CHECK(owner.out.empty());
  CHECK(hooks.writer(ours).exit_code == 0);
  CHECK(contains(read_file(hooks.state + "/session_provenance.jsonl"), "worker-2"));

  // Without this machine's binaries, `uname -sm` decides. The other architecture, which this
  // build's plugin does not hold: the guard's hook blocks (exit 2, Claude Code's "blocked"), the
  // writer's reports an error (exit 1).
  fs::remove_all(hooks.plugin + "/bin/linux-" + FLEET_ARCH);
  const RunResult here = hooks.guard("l3-owner");
  CHECK(here.exit_code == 2);
  CHECK(contains(here.err, "has no resume-guard for linux-" + std::string(FLEET_ARCH)));
  std::vector<std::string> others = {"Linux " + other};
  if (other == "aarch64") others.emplace_back("Linux arm64");  // as some systems name it
  for (const std::string& machine : others) {
    CAPTURE(machine);
    const RunResult blocked = hooks.guard("l3-owner", machine);
    CHECK(blocked.exit_code == 2);
    CHECK(contains(blocked.err, "has no resume-guard for linux-" + other));
    CHECK(contains(blocked.err, "so this call is blocked"));
    CHECK(contains(blocked.err, "claude plugin install fleet-hooks@fleet-hooks"));
    const RunResult unrecorded = hooks.writer(machine);
    CHECK(unrecorded.exit_code == 1);
    CHECK(contains(unrecorded.err, "so this call was not recorded"));
  }
  // A Mac (no /proc there: `uname -sm` decides) whose binaries this build's plugin lacks:
  // blocked, naming its directory.
  for (const std::string machine : {"Darwin arm64", "Darwin x86_64"}) {
    CAPTURE(machine);
    const RunResult blocked = hooks.guard("l3-owner", machine);
    CHECK(blocked.exit_code == 2);
    CHECK(contains(blocked.err, "has no resume-guard for darwin-" + machine.substr(7)));
    CHECK(hooks.writer(machine).exit_code == 1);
  }
  // A machine no build exists for, or none named: blocked, saying what to install.
  for (const std::string machine : {"Linux riscv64", "Darwin riscv64", "FreeBSD amd64"}) {
    CAPTURE(machine);
    const RunResult blocked = hooks.guard("l3-owner", machine);
    CHECK(blocked.exit_code == 2);
    CHECK(contains(blocked.err, "not for this machine (uname -sm: " + machine + ")"));
    CHECK(contains(blocked.err, "./install.sh --project DIR"));
    CHECK(contains(blocked.err, "claude plugin uninstall fleet-hooks@fleet-hooks"));
    const RunResult unrecorded = hooks.writer(machine);
    CHECK(unrecorded.exit_code == 1);
    CHECK(contains(unrecorded.err, "so this call was not recorded"));
  }
  const std::string silent = t / "uname-silent";
  fs::create_directories(silent);
  fleet::test::write_script(silent + "/uname", "exit 1");
  RunOptions input;
  input.stdin_data = fleet::test::pre_tool_use("l3-owner", "worker-1");
  const RunResult unknown = fleet::test::run_with_only_env(
      {"PATH=" + silent + ":" + fleet::test::kSystemPath, "CLAUDE_PLUGIN_ROOT=" + hooks.plugin},
      {"/bin/sh", "-c", hook_command(hooks.plugin, "PreToolUse")}, input);
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.err, "(uname -sm: nothing)"));
}

TEST_CASE("plugin: on a Mac the selectors run the binary of its architecture") {
  // A Mac has no /proc/sys/kernel/arch: the hook command finds no linux-<arch>/ to run and
  // runs the bin/ selector, which asks `uname -sm` (faked here) and execs
  // bin/darwin-<arm64|x86_64>/. Stand-ins for the Mach-O binaries: this machine's, so that
  // the one chosen can be seen deciding; the other architecture's holds a program that fails.
  TempDir t;
  REQUIRE(run_process({FLEET_CMAKE, "--install", FLEET_BINARY_DIR, "--prefix", t / "prefix"})
              .exit_code == 0);
  const PluginHooks hooks{t, t / "prefix/share/fleet-hooks/claude-plugin"};
  record_owner(t / "prefix/bin", hooks.state);
  const std::string ours = hooks.plugin + "/bin/linux-" + FLEET_ARCH;
  for (const auto& [mac, other] : {std::pair{"arm64", "x86_64"}, std::pair{"x86_64", "arm64"}}) {
    const std::string machine = "Darwin " + std::string(mac);
    CAPTURE(machine);
    fs::remove_all(hooks.plugin + "/bin/darwin-" + mac);
    fs::remove_all(hooks.plugin + "/bin/darwin-" + other);
    fs::copy(ours, hooks.plugin + "/bin/darwin-" + mac, fs::copy_options::recursive);
    fs::create_directories(hooks.plugin + "/bin/darwin-" + other);
    for (const char* name : {"resume-guard", "provenance-writer", "fleet-hooks"})
      fleet::test::write_script(hooks.plugin + "/bin/darwin-" + other + "/" + name,
                                "echo 'the other architecture ran' >&2; exit 3");
    if (fs::exists(ours)) fs::rename(ours, t / "linux-aside");
    CHECK(denies(hooks.guard("l3-stranger", machine)));
    const RunResult owner = hooks.guard("l3-owner", machine);
    CHECK(owner.exit_code == 0);
    CHECK(owner.out.empty());
    CHECK(hooks.writer(machine).exit_code == 0);
    // A person runs bin/fleet-hooks: the same choice.
    const RunResult version = fleet::test::run_with_only_env(
        {"PATH=" + (t / ("uname-" + machine)) + ":" + fleet::test::kSystemPath},
        {hooks.plugin + "/bin/fleet-hooks", "--version"});
    CHECK(version.exit_code == 0);
    CHECK(contains(version.out, "fleet-hooks " + kVersion));
    fs::rename(t / "linux-aside", ours);
  }
}

TEST_CASE("plugin: install.sh --package joins all four machines and aarch64 runs its own guard") {
  if (!fs::exists("/proc/sys/fs/binfmt_misc/qemu-aarch64")) {
    std::printf(
        "SKIPPED: aarch64 executables cannot run here: no binfmt_misc entry for qemu-aarch64 "
        "(./install.sh --test registers it as root)\n");
    std::fflush(stdout);
    std::_Exit(fleet::test::kSkipped);
  }
  TempDir t;
  fs::create_directories(t / "work");
  const RunResult packaged =
      fleet::test::install_sh({"--package", "../dist"}, t / "work", t / "home");
  INFO(packaged.out << packaged.err);
  REQUIRE(packaged.exit_code == 0);
  const std::string archive = "fleet-hooks-claude-plugin-" + kVersion + ".tar.gz";
  CHECK(contains(read_file(t / "dist/SHA256SUMS"), "  " + archive + "\n"));

  // Unpacked: one directory, a marketplace listing the plugin, both architectures' binaries.
  fs::create_directories(t / "unpacked");
  REQUIRE(
      run_process({"/bin/tar", "-xzf", t / ("dist/" + archive), "-C", t / "unpacked"}).exit_code ==
      0);
  const std::string root = t / ("unpacked/fleet-hooks-claude-plugin-" + kVersion);
  CHECK(fleet::test::run_ls(t / "unpacked").size() == 1);
  const auto market =
      fleet::parse_json_object(read_file(root + "/.claude-plugin/marketplace.json"));
  REQUIRE(market.ok());
  CHECK(std::string((*market)["plugins"][0]["source"].GetString()) == "./claude-plugin");
  const PluginHooks hooks{t, root + "/claude-plugin"};
  CHECK(fleet::test::run_ls(hooks.plugin + "/bin") ==
        std::vector<std::string>{"darwin-arm64", "darwin-x86_64", "fleet-hooks", "linux-aarch64",
                                 "linux-x86_64", "provenance-writer", "resume-guard"});
  for (const char* name : {"resume-guard", "provenance-writer", "fleet-hooks"}) {
    CHECK(elf_machine(hooks.plugin + "/bin/linux-x86_64/" + name) == 62);
    CHECK(elf_machine(hooks.plugin + "/bin/linux-aarch64/" + name) == 183);
    for (const char* arch : {"arm64", "x86_64"}) {
      const RunResult macho =
          run_process({std::string(FLEET_SOURCE_DIR) + "/tests/platform/check-macho.py", "--arch",
                       arch, hooks.plugin + "/bin/darwin-" + arch + "/" + name});
      CHECK_MESSAGE(macho.exit_code == 0, macho.out << macho.err);
    }
  }
  record_owner(hooks.plugin + "/bin/linux-x86_64", hooks.state);
  CHECK(denies(hooks.guard("l3-stranger")));

  // With only the aarch64 binaries left, what decides on an aarch64 machine is the aarch64
  // guard (run here by qemu through binfmt_misc); this machine has nothing to run and blocks.
  fs::remove_all(hooks.plugin + "/bin/linux-x86_64");
  for (const std::string machine : {"Linux aarch64", "Linux arm64"}) {
    CAPTURE(machine);
    CHECK(denies(hooks.guard("l3-stranger", machine)));
    const RunResult owner = hooks.guard("l3-owner", machine);
    CHECK(owner.exit_code == 0);
    CHECK(owner.out.empty());
  }
  const RunResult here = hooks.guard("l3-owner");
  CHECK(here.exit_code == 2);
  CHECK(contains(here.err, "has no resume-guard for linux-x86_64"));
}

TEST_CASE("plugin: fleet-hooks check says when the plugin's guard cannot run on this machine") {
  TempDir t;
  REQUIRE(run_process({FLEET_CMAKE, "--install", FLEET_BINARY_DIR, "--prefix", t / "prefix"})
              .exit_code == 0);
  const std::string plugin = t / "prefix/share/fleet-hooks/claude-plugin";
  fs::create_directories(t / "orch");
  fs::create_directories(t / "home");
  fs::create_directories(t / "uname");
  fleet::test::write_script(t / "uname/uname", "echo 'Linux riscv64'");
  const auto check = [&](const std::string& path) {
    return fleet::test::run_with_only_env(
        {"HOME=" + (t / "home"), "PATH=" + path},
        {t / "prefix/bin/fleet-hooks", "check", "--project", t / "orch", "--plugin-dir", plugin});
  };
  const RunResult here = check(fleet::test::kSystemPath);
  CHECK_MESSAGE(here.exit_code == 0, here.out);
  // Where the selector finds no binary for the machine, every dispatch is blocked: not "ok".
  fs::remove_all(plugin + "/bin/linux-" + FLEET_ARCH);
  const RunResult elsewhere = check(t / "uname:" + std::string(fleet::test::kSystemPath));
  INFO(elsewhere.out);
  CHECK(elsewhere.exit_code == 1);
  CHECK(contains(elsewhere.out, "error binary-missing: resume-guard cannot run on this machine"));
  CHECK(
      contains(elsewhere.out, "so its hook blocks every call of the dispatch tool here (exit 2)"));
  CHECK(contains(elsewhere.out, "not for this machine (uname -sm: Linux riscv64)"));
  CHECK_FALSE(contains(elsewhere.out, "guard-missing"));
}

TEST_CASE("plugin: its selector starts no process: the guard decides with no command on PATH") {
  if (!fs::exists("/proc/sys/kernel/arch")) {
    std::printf("SKIPPED: this kernel has no /proc/sys/kernel/arch, so the selector asks uname\n");
    std::fflush(stdout);
    std::_Exit(fleet::test::kSkipped);
  }
  TempDir t;
  REQUIRE(run_process({FLEET_CMAKE, "--install", FLEET_BINARY_DIR, "--prefix", t / "prefix"})
              .exit_code == 0);
  const std::string plugin = t / "prefix/share/fleet-hooks/claude-plugin";
  const std::string state = t / "state";
  record_owner(t / "prefix/bin", state);
  fs::create_directories(t / "empty");
  // Claude Code's `sh -c COMMAND` with a PATH that holds nothing: hooks.json's command and the
  // selector may use shell builtins only (no uname, readlink or dirname), then exec the guard.
  for (const std::string& path : {t / "empty", std::string("/nonexistent")}) {
    CAPTURE(path);
    RunOptions input;
    input.stdin_data = fleet::test::pre_tool_use("l3-stranger", "worker-1");
    const RunResult r = fleet::test::run_with_only_env(
        {"PATH=" + path, "CLAUDE_PLUGIN_ROOT=" + plugin, "FLEET_HOOKS_STATE_DIR=" + state},
        {"/bin/sh", "-c", hook_command(plugin, "PreToolUse")}, input);
    INFO(r.err);
    CHECK(denies(r));
  }
}
