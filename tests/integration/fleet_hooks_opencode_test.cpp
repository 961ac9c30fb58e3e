// fleet-hooks install, check and uninstall --agent opencode: OpenCode runs no hook commands,
// so the suite's wiring is its plugin file in the project's .opencode/plugins/, with exactly
// the bytes of plugin/opencode/fleet-hooks-guard.js (embedded into fleet-hooks at build time).

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>

#include "base/paths.h"
#include "hook/hook_command.h"
#include "process.h"
#include "suite.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::RunResult;
using fleet::test::write_file;

namespace {

using Machine = fleet::test::SuiteMachine;

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

std::string shipped() {
  return read_file(std::string(FLEET_SOURCE_DIR) + "/plugin/opencode/fleet-hooks-guard.js");
}

std::string plugin(const Machine& m) {
  return m.dir + "/.opencode/plugins/fleet-hooks-guard.js";
}

}  // namespace

TEST_CASE("fleet-hooks opencode: install writes the shipped plugin, check passes, uninstall") {
  Machine m;
  const RunResult before = m.run({"check", "--project", m.dir, "--agent", "opencode"});
  CHECK(before.exit_code == 1);
  CHECK_MESSAGE(contains(before.out, "error opencode-plugin-missing"), before.out);

  const RunResult installed = m.run({"install", "--project", m.dir, "--agent", "opencode"});
  REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
  CHECK(contains(installed.out, plugin(m)));
  REQUIRE(exists(plugin(m)));
  CHECK(read_file(plugin(m)) == shipped());
  struct stat st {};
  REQUIRE(::stat(plugin(m).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);

  const RunResult checked = m.run({"check", "--project", m.dir, "--agent", "opencode"});
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);
  // Without --agent, check finds OpenCode wired and checks it alone.
  const RunResult found = m.run({"check", "--project", m.dir});
  CHECK_MESSAGE(found.exit_code == 0, found.out);
  CHECK_MESSAGE(contains(found.out, "checking OpenCode: wired in " + m.dir), found.out);
  // Without resume-guard on PATH the plugin refuses every dispatch: check says so.
  const RunResult no_guard =
      m.run({"check", "--project", m.dir, "--agent", "opencode"}, /*suite_on_path=*/false);
  CHECK(no_guard.exit_code == 1);
  CHECK_MESSAGE(contains(no_guard.out, "error binary-missing"), no_guard.out);

  // A second install changes nothing.
  const RunResult again = m.run({"install", "--project", m.dir, "--agent", "opencode"});
  CHECK(again.exit_code == 0);
  CHECK(contains(again.out, "unchanged"));

  // Beside a plugin of the user's, uninstall (without --agent) removes the suite's alone.
  write_file(m.dir + "/.opencode/plugins/mine.js", "export const Mine = async () => ({});\n");
  const RunResult removed = m.run({"uninstall", "--project", m.dir});
  REQUIRE_MESSAGE(removed.exit_code == 0, removed.err);
  CHECK_FALSE(exists(plugin(m)));
  CHECK(read_file(m.dir + "/.opencode/plugins/mine.js") ==
        "export const Mine = async () => ({});\n");
}

TEST_CASE("fleet-hooks opencode: check fails on an edited plugin, install writes it again") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
  write_file(plugin(m), shipped() + "// mine\n");
  const RunResult edited = m.run({"check", "--project", m.dir, "--agent", "opencode"});
  CHECK(edited.exit_code == 1);
  CHECK_MESSAGE(contains(edited.out, "error opencode-plugin-differs"), edited.out);

  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
  CHECK(read_file(plugin(m)) == shipped());
  CHECK(read_file(plugin(m) + ".bak") == shipped() + "// mine\n");  // the edit is kept
  CHECK(m.run({"check", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
}

TEST_CASE("fleet-hooks opencode: uninstall leaves no folder the suite made") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
  const RunResult removed = m.run({"uninstall", "--project", m.dir, "--agent", "opencode"});
  REQUIRE_MESSAGE(removed.exit_code == 0, removed.err);
  CHECK_FALSE(exists(m.dir + "/.opencode"));
  const RunResult again = m.run({"uninstall", "--project", m.dir, "--agent", "opencode"});
  CHECK(again.exit_code == 0);
  CHECK(contains(again.out, "nothing to remove"));
}

TEST_CASE("fleet-hooks opencode: install --tool guards that tool too, check reads it back") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
  // Installed without --tool, the plugin leaves spawn_worker unguarded: check says so.
  const RunResult unguarded =
      m.run({"check", "--project", m.dir, "--agent", "opencode", "--tool", "spawn_worker"});
  CHECK(unguarded.exit_code == 1);
  CHECK_MESSAGE(contains(unguarded.out,
                         "error guard-missing: the fleet-hooks plugin does not "
                         "guard spawn_worker"),
                unguarded.out);
  CHECK_MESSAGE(contains(unguarded.out, "--agent opencode --tool spawn_worker"), unguarded.out);

  const RunResult installed = m.run({"install", "--project", m.dir, "--agent", "opencode", "--tool",
                                     "spawn_worker", "--tool", "hire-cook"});
  REQUIRE_MESSAGE(installed.exit_code == 0, installed.err);
  // One line differs from the shipped plugin: the one listing the tools.
  std::string expected = shipped();
  const std::string line = "\nconst MORE_TOOLS = [];\n";
  REQUIRE(contains(expected, line));
  expected.replace(expected.find(line), line.size(),
                   "\nconst MORE_TOOLS = [\"spawn_worker\",\"hire-cook\"];\n");
  CHECK(read_file(plugin(m)) == expected);

  const RunResult guarded =
      m.run({"check", "--project", m.dir, "--agent", "opencode", "--tool", "spawn_worker"});
  CHECK_MESSAGE(guarded.exit_code == 0, guarded.out);
  // Without --tool, check names every tool the plugin guards.
  const RunResult all = m.run({"check", "--project", m.dir, "--agent", "opencode"});
  CHECK_MESSAGE(all.exit_code == 0, all.out);
  CHECK_MESSAGE(contains(all.out,
                         "ok: resume-guard guards dispatch_food_truck and "
                         "*_dispatch_food_truck, spawn_worker and *_spawn_worker, "
                         "hire-cook and *_hire-cook, and the plugin is the one install writes "
                         "(OpenCode)\n"),
                all.out);
  CHECK_FALSE(contains(all.out, "forged"));  // no hook command was run to deny one
  // A second install with the same tools changes nothing; one without them drops them.
  CHECK(contains(m.run({"install", "--project", m.dir, "--agent", "opencode", "--tool",
                        "spawn_worker", "--tool", "hire-cook"})
                     .out,
                 "unchanged"));
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
  CHECK(read_file(plugin(m)) == shipped());
}

TEST_CASE("fleet-hooks opencode: check fails on a tools line OpenCode could not load") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode", "--tool", "spawn_worker"})
              .exit_code == 0);
  const std::string installed = read_file(plugin(m));
  const std::string line = "const MORE_TOOLS = [\"spawn_worker\"];";
  REQUIRE(contains(installed, line));
  // A syntax error (OpenCode skips the plugin without a word), a name --tool refuses, a value
  // that is not a list of names: each is a plugin install does not write.
  for (const std::string& edited :
       {std::string("const MORE_TOOLS = [\"spawn_worker\";"),
        std::string("const MORE_TOOLS = [\"spawn worker\"];"),
        std::string("const MORE_TOOLS = \"spawn_worker\";"), std::string("const MORE_TOOLS = [1];"),
        std::string("const MORE_TOOLS = [\"spawn_worker\"]; ")}) {
    std::string text = installed;
    text.replace(text.find(line), line.size(), edited);
    write_file(plugin(m), text);
    const RunResult checked = m.run({"check", "--project", m.dir, "--agent", "opencode"});
    CHECK_MESSAGE(checked.exit_code == 1, edited);
    CHECK_MESSAGE(contains(checked.out, "error opencode-plugin-differs"), checked.out);
  }
}

TEST_CASE(
    "fleet-hooks opencode: the plugin refuses a resume-guard PATH finds through a relative "
    "entry or inside the project") {
  // OpenCode imports the plugin and calls tool.execute.before; node stands in for it here.
  const RunResult node = fleet::test::run_process({"/bin/sh", "-c", "command -v node"});
  if (node.exit_code != 0) {
    MESSAGE("skipped: node is not installed (OpenCode's plugin is JavaScript)");
    return;
  }
  std::string node_path = node.out;
  while (!node_path.empty() && node_path.back() == '\n') node_path.pop_back();
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
  ::mkdir((m.dir + "/.tools").c_str(), 0755);
  fleet::test::write_script(m.dir + "/.tools/resume-guard", "cat >/dev/null\nexit 0\n");
  const std::string driver =
      "const { FleetHooksGuard } = await import(process.argv[1]);"
      "const client = { session: { get: async () => ({ data: {} }) } };"
      "const hooks = await FleetHooksGuard({ client, directory: process.argv[2] });"
      "try { await hooks['tool.execute.before']("
      "  { tool: 'kitchen_dispatch_food_truck', sessionID: 'ses_x', callID: 'c1' },"
      "  { args: { resume_session_id: 'w-1' } }); console.log('let through'); }"
      "catch (e) { console.log(String(e.message)); }";
  const auto run = [&](const std::string& path) {
    return fleet::test::run_process(
        {node_path, "--input-type=module", "-e", driver, plugin(m), m.dir},
        {"", {{"PATH", path}}, m.dir});
  };
  RunResult r = run(".tools:" + fleet::env_value("PATH"));
  CHECK_MESSAGE(contains(r.out,
                         "resume-guard was found through a relative PATH "
                         "entry (.tools/resume-guard)"),
                (r.out + r.err));
  r = run(m.dir + "/.tools:" + fleet::env_value("PATH"));
  CHECK_MESSAGE(contains(r.out, "resume-guard was found inside the project"), (r.out + r.err));
  CHECK(!contains(r.out, "let through"));
}

TEST_CASE(
    "fleet-hooks opencode: the plugin gives a call the guard's token, which names its caller to "
    "the launch") {
  // OpenCode 1.18.33 sends its MCP server the very object tool.execute.before got as
  // output.args: the plugin writes the guard's rewritten input into it, so the call carries
  // the token resume-guard minted and left the caller under (fleet_hooks_call, overwriting the
  // model's value); launch-wrapper --mcp-call finds the caller by it. node stands in for
  // OpenCode.
  const RunResult node = fleet::test::run_process({"/bin/sh", "-c", "command -v node"});
  if (node.exit_code != 0) {
    MESSAGE("skipped: node is not installed (OpenCode's plugin is JavaScript)");
    return;
  }
  std::string node_path = node.out;
  while (!node_path.empty() && node_path.back() == '\n') node_path.pop_back();
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
  const std::string driver =
      "const { FleetHooksGuard } = await import(process.argv[1]);"
      "const client = { session: { get: async () => ({ data: {} }) } };"
      "const hooks = await FleetHooksGuard({ client, directory: process.argv[2] });"
      "const output = { args: { prompt: 'build', fleet_hooks_call: 'the model wrote this' } };"
      "const sent = output.args;"
      "await hooks['tool.execute.before']("
      "  { tool: 'kitchen_dispatch_food_truck', sessionID: 'ses_caller1', callID: 'c1' }, output);"
      "console.log(JSON.stringify({ same: sent === output.args, arguments: output.args }));";
  const std::vector<std::pair<std::string, std::string>> env = {{"PATH", m.path(true)},
                                                                {"HOME", m.home}};
  const RunResult r = fleet::test::run_process(
      {node_path, "--input-type=module", "-e", driver, plugin(m), m.dir}, {"", env, m.dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK_MESSAGE(contains(r.out, R"("same":true)"), r.out);  // changed in place
  CHECK(!contains(r.out, "the model wrote this"));
  CHECK(contains(r.out, R"("prompt":"build")"));
  const std::string printed = r.out.substr(r.out.find(R"("arguments")"));
  std::string call = "{";
  call.append(printed, 0, printed.rfind('}'));  // {"arguments":{…}
  call += "}";
  const std::string state = m.tmp / "state";
  const RunResult launched = fleet::test::run_process(
      {FLEET_LAUNCH_WRAPPER, "--quiet", "--record-provenance", "--state-dir", state, "--session-id",
       "w-1", "--recipe-name", "implement", "--mcp-call", call, "--", "/bin/true"},
      {"", env, m.dir});
  CHECK_MESSAGE(launched.exit_code == 0, (launched.err + call));
  CHECK(contains(read_file(state + "/session_provenance.jsonl"),
                 R"("caller_session_id":"ses_caller1")"));
}

TEST_CASE(
    "fleet-hooks opencode: the plugin runs a resume-guard PATH lacks from where the install "
    "routes put it") {
  // An OpenCode started from a macOS app or launchd may have a PATH without the suite's
  // directory (/opt/homebrew/bin, ~/.local/bin): the plugin looks there as the hook commands do.
  const RunResult node = fleet::test::run_process({"/bin/sh", "-c", "command -v node"});
  if (node.exit_code != 0) {
    MESSAGE("skipped: node is not installed (OpenCode's plugin is JavaScript)");
    return;
  }
  std::string node_path = node.out;
  while (!node_path.empty() && node_path.back() == '\n') node_path.pop_back();
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "opencode"}).exit_code == 0);
  const std::string home = m.tmp / "home";
  REQUIRE(fleet::test::run_process({"/bin/mkdir", "-p", home + "/.local/bin"}).exit_code == 0);
  fleet::test::write_script(
      home + "/.local/bin/resume-guard",
      "cat >/dev/null\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\","
      "\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"judged by the guard in "
      "~/.local/bin\"}}'\n");
  const std::string driver =
      "const { FleetHooksGuard } = await import(process.argv[1]);"
      "const client = { session: { get: async () => ({ data: {} }) } };"
      "const hooks = await FleetHooksGuard({ client, directory: process.argv[2] });"
      "try { await hooks['tool.execute.before']("
      "  { tool: 'kitchen_dispatch_food_truck', sessionID: 'ses_x', callID: 'c1' },"
      "  { args: { resume_session_id: 'w-1' } }); console.log('let through'); }"
      "catch (e) { console.log(String(e.message)); }";
  const auto run = [&](const std::string& home_dir) {
    return fleet::test::run_process(
        {node_path, "--input-type=module", "-e", driver, plugin(m), m.dir},
        {"", {{"PATH", "/usr/bin:/bin"}, {"HOME", home_dir}}, m.dir});
  };
  RunResult r = run(home);
  CHECK_MESSAGE(contains(r.out, "judged by the guard in ~/.local/bin"), (r.out + r.err));
  // A HOME inside the project reaches a program the repository ships: refused.
  REQUIRE(fleet::test::run_process({"/bin/cp", "-r", home + "/.local", m.dir + "/"}).exit_code ==
          0);
  r = run(m.dir);
  CHECK_MESSAGE(contains(r.out, "resume-guard was found inside the project"), (r.out + r.err));
  CHECK(!contains(r.out, "let through"));
  CHECK(!contains(r.out, "judged by the guard"));
}

TEST_CASE("fleet-hooks opencode: the plugin and install.sh look where the hook commands look") {
  // One list, kInstallDirectories, written three times: the hook command's text (C++), the
  // OpenCode plugin (JavaScript), install.sh's warning (bash). In the same order in each.
  const std::string js = shipped();
  const std::string sh = read_file(std::string(FLEET_SOURCE_DIR) + "/install.sh");
  std::string sh_loop = "for dir in";
  std::size_t in_js = 0;
  for (const fleet::InstallDirectory& dir : fleet::kInstallDirectories) {
    sh_loop.append(" ").append(dir.shell);
    std::string js_form = dir.home.empty() ? "\"" : "`${process.env.HOME ?? \"\"}";
    js_form.append(dir.home.empty() ? dir.shell : dir.home).append(dir.home.empty() ? "\"" : "`");
    const std::size_t at_js = js.find(js_form, in_js);
    CHECK_MESSAGE(at_js != std::string::npos, "the plugin lacks " << js_form << " (in order)");
    in_js = at_js == std::string::npos ? in_js : at_js;
  }
  CHECK_MESSAGE(contains(sh, sh_loop + "; do"), "install.sh lacks: " << sh_loop);
}
