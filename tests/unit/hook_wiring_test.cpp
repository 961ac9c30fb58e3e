#include "hook_wiring.h"

#include <doctest/doctest.h>

#include "error.h"
#include "json.h"
#include "settings_file.h"

using namespace fleet;

namespace {

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document doc;
  REQUIRE(parse_json(text, doc));
  return doc;
}

std::string installed(const std::string& text, const std::string& bin = "/opt/fh/bin") {
  rapidjson::Document doc = parse(text);
  install_suite_hooks(doc, bin);
  return settings_text(doc);
}

}  // namespace

TEST_CASE("hook_wiring: shell quoting and command parsing") {
  CHECK(shell_quote("/usr/local/bin/resume-guard") == "/usr/local/bin/resume-guard");
  CHECK(shell_quote("/opt/my tools/resume-guard") == "'/opt/my tools/resume-guard'");
  CHECK(shell_quote("/o'k/x") == "'/o'\\''k/x'");
  CHECK(command_executable("/a/b/resume-guard --strict") == "/a/b/resume-guard");
  CHECK(command_executable("'/opt/my tools/resume-guard' --x") == "/opt/my tools/resume-guard");
  CHECK(command_executable("FOO=1 BAR=2 /x/provenance-writer hook") == "/x/provenance-writer");
  CHECK(command_executable_name("\"$CLAUDE_PROJECT_DIR\"/bin/resume-guard") == "resume-guard");
  CHECK(command_executable_name("") == "");
}

TEST_CASE("hook_wiring: install into an empty document and again - identical") {
  const std::string once = installed("{}");
  rapidjson::Document doc = parse(once);
  const auto& pre = doc["hooks"]["PreToolUse"][0];
  CHECK(std::string(pre["matcher"].GetString()) == std::string(kDispatchMatcher));
  CHECK(std::string(pre["hooks"][0]["command"].GetString()) == "/opt/fh/bin/resume-guard");
  CHECK(pre["hooks"][0]["timeout"].GetInt() == kHookTimeoutSeconds);
  CHECK(std::string(doc["hooks"]["PostToolUse"][0]["hooks"][0]["command"].GetString()) ==
        "/opt/fh/bin/provenance-writer hook");
  CHECK(installed(once) == once);
}

TEST_CASE(
    "hook_wiring: other hooks and keys keep their place - the suite's entry is updated in place") {
  const std::string before = R"({
    "model": "opus",
    "hooks": {
      "PreToolUse": [
        {"matcher": "^(mcp__.*__)?dispatch_food_truck$", "hooks": [
          {"type": "command", "command": "/old/bin/resume-guard --strict", "timeout": 3, "note": "x"},
          {"type": "command", "command": "/usr/bin/audit-log"}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}
      ],
      "Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]
    },
    "env": {"A": "é"}
  })";
  rapidjson::Document doc = parse(installed(before, "/new/bin"));
  auto& first = doc["hooks"]["PreToolUse"][0]["hooks"];
  CHECK(first.Size() == 2);
  CHECK(std::string(first[0]["command"].GetString()) == "/new/bin/resume-guard");
  CHECK(first[0]["timeout"].GetInt() == 10);
  CHECK(std::string(first[0]["note"].GetString()) == "x");  // its other keys stay
  CHECK(std::string(first[1]["command"].GetString()) == "/usr/bin/audit-log");
  CHECK(std::string(doc["hooks"]["PreToolUse"][1]["matcher"].GetString()) == "Bash");
  CHECK(doc["hooks"]["Stop"].Size() == 1);
  CHECK(std::string(doc.MemberBegin()->name.GetString()) == "model");
  CHECK(std::string(doc["env"]["A"].GetString()) == "\xc3\xa9");
}

TEST_CASE("hook_wiring: suite entries under other matchers are replaced - not duplicated") {
  const std::string before = R"({"hooks": {"PreToolUse": [
      {"matcher": "dispatch_food_truck", "hooks": [{"type": "command", "command": "/x/resume-guard"}]},
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "/y/resume-guard"},
                                    {"type": "command", "command": "lint"}]}]}})";
  rapidjson::Document doc = parse(installed(before));
  auto& pre = doc["hooks"]["PreToolUse"];
  REQUIRE(pre.Size() == 2);
  CHECK(std::string(pre[0]["matcher"].GetString()) == "Bash");
  CHECK(pre[0]["hooks"].Size() == 1);
  CHECK(std::string(pre[1]["matcher"].GetString()) == std::string(kDispatchMatcher));
}

TEST_CASE("hook_wiring: unexpected shapes are refused without changes") {
  for (const std::string text : {R"({"hooks": []})", R"({"hooks": {"PreToolUse": {}}})",
                                 R"({"hooks": {"PostToolUse": "x"}})"}) {
    rapidjson::Document doc = parse(text);
    CHECK_THROWS_AS(install_suite_hooks(doc, "/b"), Error);
    rapidjson::Document original = parse(text);
    CHECK(settings_text(doc) == settings_text(original));
  }
}

TEST_CASE("hook_wiring: uninstall removes exactly the suite's entries and what they leave empty") {
  const std::string user = R"({"hooks": {"PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}],
      "Stop": []}, "x": 1})";
  rapidjson::Document doc = parse(installed(user));
  CHECK(uninstall_suite_hooks(doc) == 2);
  rapidjson::Document expected = parse(user);
  CHECK(settings_text(doc) == settings_text(expected));  // the user's empty "Stop" stays

  rapidjson::Document only_suite = parse(installed("{}"));
  CHECK(uninstall_suite_hooks(only_suite) == 2);
  CHECK(settings_text(only_suite) == "{}\n");
  CHECK(uninstall_suite_hooks(only_suite) == 0);
}
