#include "agents/copilot/copilot_trust.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "settings/hook_sources.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

// config.json as GitHub Copilot CLI 1.0.102 writes it: comment lines first.
const std::string kCopilotConfig =
    "// User settings belong in settings.json.\n"
    "// This file is managed automatically.\n"
    "{\n"
    "  \"trustedFolders\": [\n"
    "    \"/w/other\"\n"
    "  ],\n"
    "  \"firstLaunchAt\": \"2026-03-11T00:00:00.000Z\"\n"
    "}\n";

std::string added(const std::string& config, const std::string& folder) {
  const Result<std::string> text = with_trusted_folder(config, folder);
  REQUIRE_MESSAGE(text.ok(), text.problem());
  return *text;
}

}  // namespace

TEST_CASE("copilot_trust: a folder is added and every other byte of config.json kept") {
  CHECK(added(kCopilotConfig, "/w/p") ==
        "// User settings belong in settings.json.\n"
        "// This file is managed automatically.\n"
        "{\n"
        "  \"trustedFolders\": [\n"
        "    \"/w/other\",\n"
        "    \"/w/p\"\n"
        "  ],\n"
        "  \"firstLaunchAt\": \"2026-03-11T00:00:00.000Z\"\n"
        "}\n");
  // An empty list, no list, an empty object, no file.
  CHECK(added("{\"trustedFolders\": []}\n", "/w/p") ==
        "{\"trustedFolders\": [\n    \"/w/p\"\n  ]}\n");
  CHECK(added("// c\n{\n  \"a\": 1\n}\n", "/w/p") ==
        "// c\n{\n  \"trustedFolders\": [\n    \"/w/p\"\n  ],\n  \"a\": 1\n}\n");
  CHECK(added("{}", "/w/p") == "{\n  \"trustedFolders\": [\n    \"/w/p\"\n  ]}");
  CHECK(added("", "/w/p") == "{\n  \"trustedFolders\": [\n    \"/w/p\"\n  ]\n}\n");
  // A key elsewhere named trustedFolders is not the list; a name that needs escaping is escaped.
  CHECK(
      added("{\"x\": {\"trustedFolders\": [\"/w\"]}}", "/w/p\"q") ==
      "{\n  \"trustedFolders\": [\n    \"/w/p\\\"q\"\n  ],\"x\": {\"trustedFolders\": [\"/w\"]}}");
}

TEST_CASE("copilot_trust: taking a folder back leaves config.json as it was before it was added") {
  const auto removed = [](const std::string& config, const std::string& folder) {
    const Result<std::string> text = without_trusted_folder(config, folder);
    REQUIRE_MESSAGE(text.ok(), text.problem());
    return *text;
  };
  for (const std::string& config :
       {kCopilotConfig, std::string("// c\n{\n  \"a\": 1\n}\n"), std::string("{}"),
        std::string("{\"x\": {\"trustedFolders\": [\"/w\"]}}"),
        std::string("{\n  \"a\": 1,\n  \"trustedFolders\": [\n    \"/w/q\"\n  ]\n}\n")}) {
    CAPTURE(config);
    CHECK(removed(added(config, "/w/p"), "/w/p") == config);
  }
  // Copilot rewrote the file after the install: the entry goes with its comma, whatever its place.
  const std::string rewritten =
      "{\n  \"firstLaunchAt\": \"x\",\n  \"trustedFolders\": [\n    \"/w/p\",\n    \"/w/q\"\n  "
      "]\n}";
  CHECK(removed(rewritten, "/w/p") ==
        "{\n  \"firstLaunchAt\": \"x\",\n  \"trustedFolders\": [\n    \"/w/q\"\n  ]\n}");
  CHECK(removed(rewritten, "/w/q") ==
        "{\n  \"firstLaunchAt\": \"x\",\n  \"trustedFolders\": [\n    \"/w/p\"\n  ]\n}");
  CHECK(removed("{\n  \"firstLaunchAt\": \"x\",\n  \"trustedFolders\": [\n    \"/w/p\"\n  ]\n}",
                "/w/p") == "{\n  \"firstLaunchAt\": \"x\"\n}");
  // Only the entry written as the folder: a parent that holds it, or another spelling, stays.
  CHECK(removed(kCopilotConfig, "/w/other/sub") == kCopilotConfig);
  CHECK(removed("{\"trustedFolders\": [\"/w/p/\"]}", "/w/p") ==
        "{\"trustedFolders\": [\"/w/p/\"]}");
  CHECK_FALSE(without_trusted_folder("{\"trustedFolders\": \"/w\"}", "/w/p").ok());
}

TEST_CASE("copilot_trust: a folder a listed one holds is trusted already, bad files are refused") {
  CHECK(added(kCopilotConfig, "/w/other") == kCopilotConfig);
  CHECK(added(kCopilotConfig, "/w/other/sub") == kCopilotConfig);
  CHECK(added("{\"trustedFolders\": [\"/w/\"]}", "/w/p") == "{\"trustedFolders\": [\"/w/\"]}");
  CHECK(added(kCopilotConfig, "/w/otherness") != kCopilotConfig);
  CHECK_FALSE(with_trusted_folder("[1]", "/w/p").ok());
  CHECK_FALSE(with_trusted_folder("{\"a\": ", "/w/p").ok());
  CHECK(with_trusted_folder("{\"trustedFolders\": \"/w\"}", "/w/p")
            .problem()
            .find("not an array of strings") != std::string::npos);
  CHECK_FALSE(with_trusted_folder("{\"trustedFolders\": [\"/w\", 3]}", "/w/p").ok());
}

TEST_CASE("copilot_trust: check finds the untrusted folder and the switched-off hooks") {
  TempDir tmp;
  const std::string project = tmp / "project";
  const std::string copilot = tmp / "copilot-home";
  for (const std::string& dir : {project, project + "/.github", project + "/.github/hooks",
                                 project + "/.github/copilot", copilot})
    REQUIRE(::mkdir(dir.c_str(), 0755) == 0);
  ConfiguredHook guard;
  guard.file = project + "/.github/hooks/fleet-hooks.json";
  write_file(guard.file, "{\"hooks\": {}}\n");
  const std::vector<HookToTrust> hooks = {{&guard, "the resume-guard hook"}};
  const auto rules = [&] {
    std::vector<std::string> found;
    for (const Finding& finding : copilot_trust_findings(project, copilot, hooks))
      found.push_back(finding.rule);
    return found;
  };
  CHECK(rules() == std::vector<std::string>{"copilot-folder-untrusted"});
  write_file(copilot + "/config.json", "// c\n{\"trustedFolders\": [\"" + tmp.path() + "\"]}\n");
  CHECK(rules().empty());  // a parent covers its children
  write_file(project + "/.github/copilot/settings.local.json", "{\"disableAllHooks\": true}");
  CHECK(rules() == std::vector<std::string>{"copilot-hooks-disabled"});
  write_file(project + "/.github/copilot/settings.local.json", "{\"disableAllHooks\": false}");
  write_file(guard.file, "{\"disableAllHooks\": true, \"hooks\": {}}\n");
  CHECK(rules() == std::vector<std::string>{"copilot-hooks-disabled"});
  // User-level hooks need no trust.
  ConfiguredHook user;
  user.file = copilot + "/hooks/fleet-hooks.json";
  CHECK(
      copilot_trust_findings(project, tmp / "nowhere", {{&user, "the resume-guard hook"}}).empty());
}

TEST_CASE("copilot_trust: trusting writes config.json once, keeping its comments") {
  TempDir tmp;
  const std::string project = tmp / "project";
  REQUIRE(::mkdir(project.c_str(), 0755) == 0);
  write_file(tmp / "config.json", kCopilotConfig);
  // --dry-run: the text it would write, nothing written.
  const TrustUpdate planned = trust_copilot_folder(project, tmp.path(), true);
  CHECK(planned.changed);
  CHECK(read_file(tmp / "config.json") == kCopilotConfig);
  const TrustUpdate first = trust_copilot_folder(project, tmp.path(), false);
  CHECK(first.changed);
  CHECK(first.project == project);
  CHECK(first.trusted.empty());  // the folder's trust covers its hooks: none of its own
  CHECK(first.text == planned.text);
  const std::string written = read_file(tmp / "config.json");
  CHECK(written.starts_with("// User settings belong in settings.json.\n"));
  CHECK(written.find("\"/w/other\",\n    \"" + project + "\"\n") != std::string::npos);
  CHECK(first.text == written);
  CHECK_FALSE(trust_copilot_folder(project, tmp.path(), false).changed);
  CHECK(read_file(tmp / "config.json") == written);
}
