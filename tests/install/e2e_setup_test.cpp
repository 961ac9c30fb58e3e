// tests/e2e/setup.sh as a maintainer runs it to try the newest agent CLIs:
// FLEET_HOOKS_E2E_<CLI>_VERSION=latest or a version, against a stand-in for the npm registry
// on 127.0.0.1 (tests/install/npm_registry.py) that serves small packages laid out as the CLIs'
// are, at an older version 0.1.0 and a newer 0.2.0 tagged latest: offline, and without the
// hundreds of MB the real CLIs weigh. What setup.sh leaves for the e2e tests (.cache/NAME-path,
// NAME-version, NAME-unavailable) and what it prints are what is checked.

#include <doctest/doctest.h>
#include <filesystem>

#include "fixtures.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"
#include "tree.h"

using fleet::test::contains;
using fleet::test::on_path;
using fleet::test::read_file;
using fleet::test::RunResult;
using fleet::test::TempDir;

namespace {

namespace fs = std::filesystem;

// The registry's packages: each CLI at 0.1.0 and 0.2.0 (latest), printing its version as the
// real one does; Claude Code's binary in a per-platform optional dependency, as it ships.
std::string manifest() {
  std::string json = "{";
  const auto cli = [&](const std::string& name, const std::string& bin, const char* printed) {
    json += "\"" + name + "\":{\"latest\":\"0.2.0\",\"versions\":{";
    for (const char* version : {"0.1.0", "0.2.0"}) {
      json += std::string("\"") + version + "\":{\"files\":{\"" + bin +
              ".sh\":\"#!/bin/sh\\necho " + printed + version + "\\n\"},\"executables\":[\"" + bin +
              ".sh\"],\"package\":{\"bin\":{\"" + bin + "\":\"" + bin + ".sh\"}}},";
    }
    json.back() = '}';
    json += "},";
  };
  cli("@google/gemini-cli", "gemini", "");
  // Gemini 0.3.0 asks for a Node.js no machine has, and fails on this one as an old Node fails
  // on new syntax.
  json.resize(json.size() - 3);  // "}}," that close its versions and the package
  json +=
      R"(,"0.3.0":{"files":{"gemini.sh":"#!/bin/sh\necho 'SyntaxError: Unexpected token' >&2\nexit 1\n"},)"
      R"("executables":["gemini.sh"],"package":{"bin":{"gemini":"gemini.sh"},"engines":{"node":">=99"}}}}},)";
  cli("@openai/codex", "codex", "codex-cli ");
  cli("@github/copilot", "copilot", "GitHub Copilot CLI ");
  cli("@qwen-code/qwen-code", "qwen", "");
  cli("opencode-ai", "opencode", "");
  json +=
      R"("@anthropic-ai/claude-code":{"latest":"0.2.0","versions":{)"
      R"("0.1.0":{"package":{"optionalDependencies":{"@anthropic-ai/claude-code-linux-x64":"0.1.0","@anthropic-ai/claude-code-linux-arm64":"0.1.0"}}},)"
      R"("0.2.0":{"package":{"optionalDependencies":{"@anthropic-ai/claude-code-linux-x64":"0.2.0","@anthropic-ai/claude-code-linux-arm64":"0.2.0"}}}}},)";
  for (const char* cpu : {"x64", "arm64"}) {
    json += std::string(R"("@anthropic-ai/claude-code-linux-)") + cpu +
            R"(":{"latest":"0.2.0","versions":{)";
    for (const char* version : {"0.1.0", "0.2.0"}) {
      json += std::string("\"") + version + R"(":{"files":{"claude":"#!/bin/sh\necho ')" + version +
              R"( (Claude Code)'\n"},"executables":["claude"],"package":{"os":["linux"],"cpu":[")" +
              cpu + "\"]}},";
    }
    json.back() = '}';
    json += "},";
  }
  json.back() = '}';
  return json;
}

struct Setup {
  const TempDir& t;
  std::string registry;

  // Runs a copy of setup.sh (its .cache of its own) with npm pointed at the stand-in registry
  // and `variables` ("FLEET_HOOKS_E2E_CODEX_VERSION=latest", ...) in a clean environment.
  RunResult run(const std::vector<std::string>& variables) const {
    std::vector<std::string> env = {
        "HOME=" + (t / "home"), "npm_config_registry=" + registry,
        "npm_config_cache=" + (t / "npm-cache"),
        "PATH=" + fs::path(on_path("npm")).parent_path().string() + ":" + fleet::test::kSystemPath};
    env.insert(env.end(), variables.begin(), variables.end());
    return fleet::test::run_with_only_env(env, {t / "e2e/setup.sh"});
  }
  std::string cached(const std::string& file) const {
    return read_file(t / ("e2e/.cache/" + file));
  }
  // What the CLI that setup.sh recorded for `name` prints for --version.
  std::string version_of(const std::string& name) const {
    std::string path = cached(name + "-path");
    if (path.empty()) return "";
    return fleet::test::run_process({path.substr(0, path.find('\n')), "--version"}).out;
  }
};

}  // namespace

TEST_CASE("e2e setup: FLEET_HOOKS_E2E_<CLI>_VERSION picks latest or a version, else the pinned") {
  if (on_path("npm") == "npm" || on_path("python3") == "python3") {
    std::printf("SKIPPED: npm or python3 is not installed (setup.sh installs the CLIs with npm)\n");
    std::fflush(stdout);
    std::_Exit(fleet::test::kSkipped);
  }
  TempDir t;
  fs::create_directories(t / "e2e");
  fs::create_directories(t / "home");
  for (const char* file : {"setup.sh", "agent_clis.tsv"})
    fs::copy_file(std::string(FLEET_SOURCE_DIR) + "/tests/e2e/" + file,
                  t / ("e2e/" + std::string(file)));
  fleet::test::write_file(t / "manifest.json", manifest());
  fleet::test::BackgroundProcess server(
      {on_path("python3"), std::string(FLEET_SOURCE_DIR) + "/tests/install/npm_registry.py",
       t / "manifest.json"});
  REQUIRE(server.wait_for_output("\n", 60000));
  const std::string said = server.result().out;
  REQUIRE(said.rfind("registry http://127.0.0.1:", 0) == 0);
  const Setup setup{t, said.substr(9, said.find('\n') - 9)};

  // latest is what the registry tags latest (0.2.0), a version is that version.
  const std::vector<std::string> newest = {
      "FLEET_HOOKS_E2E_CLAUDE_VERSION=latest", "FLEET_HOOKS_E2E_CODEX_VERSION=0.1.0",
      "FLEET_HOOKS_E2E_GEMINI_VERSION=latest", "FLEET_HOOKS_E2E_COPILOT_VERSION=0.2.0",
      "FLEET_HOOKS_E2E_QWEN_VERSION=latest",   "FLEET_HOOKS_E2E_OPENCODE_VERSION=0.1.0"};
  RunResult r = setup.run(newest);
  INFO(r.out << r.err << setup.cached("npm.log"));
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "e2e: installed claude 0.2.0: "));
  CHECK(contains(r.out, "e2e: installed codex 0.1.0: "));
  CHECK(contains(r.out, "e2e: installed gemini 0.2.0: "));
  CHECK(contains(r.out, "e2e: installed copilot 0.2.0: "));
  CHECK(contains(r.out, "e2e: installed qwen 0.2.0: "));
  CHECK(contains(r.out, "e2e: installed opencode 0.1.0: "));
  CHECK(setup.cached("claude-version") == "0.2.0\n");
  CHECK(setup.cached("codex-version") == "0.1.0\n");
  CHECK(setup.cached("gemini-version") == "0.2.0\n");
  CHECK(setup.version_of("claude") == "0.2.0 (Claude Code)\n");
  CHECK(setup.version_of("codex") == "codex-cli 0.1.0\n");
  CHECK(setup.version_of("gemini") == "0.2.0\n");
  CHECK(setup.version_of("copilot") == "GitHub Copilot CLI 0.2.0\n");
  CHECK(setup.version_of("qwen") == "0.2.0\n");
  CHECK(setup.version_of("opencode") == "0.1.0\n");

  // Run again: each is there at the version asked for, nothing is installed.
  r = setup.run(newest);
  CHECK(contains(r.out, "e2e: claude 0.2.0 already installed: "));
  CHECK(contains(r.out, "e2e: codex 0.1.0 already installed: "));
  CHECK(contains(r.out, "e2e: gemini 0.2.0 already installed: "));
  CHECK(contains(r.out, "e2e: copilot 0.2.0 already installed: "));
  CHECK(contains(r.out, "e2e: qwen 0.2.0 already installed: "));
  CHECK(contains(r.out, "e2e: opencode 0.1.0 already installed: "));

  // A version the registry does not have, a value that is no version, and no variable (the
  // pinned version, which this registry does not serve): each CLI says why it is unavailable,
  // and no CLI of the runs before is left for the e2e tests to use by mistake.
  r = setup.run({"FLEET_HOOKS_E2E_CODEX_VERSION=9.9.9", "FLEET_HOOKS_E2E_GEMINI_VERSION=0.2;rm"});
  CHECK(r.exit_code == 0);
  for (const char* name : {"claude", "codex", "gemini", "copilot", "qwen", "opencode"}) {
    CAPTURE(name);
    CHECK_FALSE(fs::exists(t / ("e2e/.cache/" + std::string(name) + "-path")));
    CHECK_FALSE(fs::exists(t / ("e2e/.cache/" + std::string(name) + "-version")));
  }
  CHECK(setup.cached("gemini-unavailable") ==
        "FLEET_HOOKS_E2E_GEMINI_VERSION=0.2;rm is not a version (x.y.z, or latest)\n");
  CHECK(contains(setup.cached("codex-unavailable"), "npm install "));
  CHECK(contains(setup.cached("codex-unavailable"), "@openai/codex@9.9.9"));
  const std::string claude = setup.cached("claude-unavailable");
  CHECK(contains(claude, "@anthropic-ai/claude-code@"));
  CHECK_FALSE(contains(claude, "@anthropic-ai/claude-code@0.2.0"));
  CHECK_FALSE(contains(claude, "@anthropic-ai/claude-code@latest"));
  CHECK(contains(r.out, "e2e: gemini unavailable: FLEET_HOOKS_E2E_GEMINI_VERSION=0.2;rm"));

  // FLEET_HOOKS_E2E_LATEST=all takes every CLI at latest but one whose own variable is set;
  // that one, Gemini 0.3.0, installs but cannot start on this Node.js, and says so with the
  // Node it asks for (its package.json's engines), not only that it is unavailable.
  r = setup.run({"FLEET_HOOKS_E2E_LATEST=all", "FLEET_HOOKS_E2E_GEMINI_VERSION=0.3.0"});
  CHECK(r.exit_code == 0);
  for (const char* name : {"claude", "codex", "copilot", "qwen", "opencode"}) {
    CAPTURE(name);
    CHECK(setup.cached(std::string(name) + "-version") == "0.2.0\n");
  }
  CHECK(contains(r.out,
                 "e2e: gemini 0.3.0 is installed but cannot start on this Node.js: "
                 "@google/gemini-cli@0.3.0 cannot start on Node.js "));
  CHECK(contains(r.out, "it asks for node >=99; put Node.js 99 or later first on PATH"));
  CHECK(contains(setup.cached("gemini-unavailable"), "it asks for node >=99"));

  // A name FLEET_HOOKS_E2E_LATEST cannot take: a usage error, nothing installed.
  r = setup.run({"FLEET_HOOKS_E2E_LATEST=codex gemnii"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "FLEET_HOOKS_E2E_LATEST names 'gemnii', which is not an agent CLI"));
  CHECK(setup.cached("codex-version") == "0.2.0\n");
}
