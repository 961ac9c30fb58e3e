#include "settings/hook_wiring.h"
#include "agents/agents.h"
#include "base/exit_status.h"

#include <doctest/doctest.h>

#include "base/error.h"
#include "base/json.h"
#include "fixtures.h"
#include "settings/settings_file.h"

using namespace fleet;

namespace {

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document doc = fleet::test::json_document(text);
  return doc;
}

std::string installed(const std::string& text, const std::string& bin = "/opt/fh/bin",
                      std::vector<std::string> tools = {}) {
  rapidjson::Document doc = parse(text);
  install_suite_hooks(doc, WiringOptions{bin, std::move(tools), false, &fleet::claude_code()});
  return settings_text(doc);
}

std::string command_of(const rapidjson::Value& entry) {
  return entry["command"].GetString();
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
  CHECK_FALSE(command_executable_name(""));
}

TEST_CASE("hook_wiring: install into an empty document and again - identical") {
  const std::string once = installed("{}");
  rapidjson::Document doc = parse(once);
  const auto& pre = doc["hooks"]["PreToolUse"][0];
  CHECK(std::string(pre["matcher"].GetString()) == std::string(kDispatchMatcher));
  const auto guard = parse_hook_command(command_of(pre["hooks"][0]));
  REQUIRE(guard);
  CHECK(guard->executable == "/opt/fh/bin/resume-guard");
  CHECK(guard->arguments == "");
  CHECK(guard->exit_if_missing == fleet::exit_status::hook_blocks);
  CHECK(pre["hooks"][0]["timeout"].GetInt() == kHookTimeoutSeconds);
  const auto writer = parse_hook_command(command_of(doc["hooks"]["PostToolUse"][0]["hooks"][0]));
  REQUIRE(writer);
  CHECK(writer->executable == "/opt/fh/bin/provenance-writer");
  CHECK(writer->arguments == " hook");
  CHECK(writer->exit_if_missing == fleet::exit_status::hook_warns);
  CHECK(installed(once) == once);
}

TEST_CASE(
    "hook_wiring: other hooks and keys keep their place - the suite's entry is updated in place") {
  const std::string before = R"({
    "model": "opus",
    "hooks": {
      "PreToolUse": [
        {"matcher": "^(mcp__.*__|.*-)?dispatch_food_truck$", "hooks": [
          {"type": "command", "command": "/old/bin/resume-guard --strict", "timeout": 30, "note": "x"},
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
  const auto guard = parse_hook_command(command_of(first[0]));
  REQUIRE(guard);
  CHECK(guard->executable == "/new/bin/resume-guard");
  CHECK(guard->arguments == " --strict");  // the user's arguments and timeout stay
  CHECK(first[0]["timeout"].GetInt() == 30);
  CHECK(std::string(first[0]["note"].GetString()) == "x");  // its other keys stay
  CHECK(std::string(first[1]["command"].GetString()) == "/usr/bin/audit-log");
  CHECK(std::string(doc["hooks"]["PreToolUse"][1]["matcher"].GetString()) == "Bash");
  CHECK(doc["hooks"]["Stop"].Size() == 1);
  CHECK(std::string(doc.MemberBegin()->name.GetString()) == "model");
  CHECK(std::string(doc["env"]["A"].GetString()) == "\xc3\xa9");
}

TEST_CASE("hook_wiring: suite entries elsewhere are updated in place - not duplicated or dropped") {
  const std::string before = R"({"hooks": {"PreToolUse": [
      {"matcher": "dispatch_food_truck", "hooks": [{"type": "command", "command": "/x/resume-guard"}]},
      {"matcher": "^(mcp__.*__|.*-)?dispatch_food_truck$", "hooks": [
          {"type": "command", "command": "/y/resume-guard --strict"},
          {"type": "command", "command": "lint"}]}]}})";
  rapidjson::Document doc = parse(installed(before));
  auto& pre = doc["hooks"]["PreToolUse"];
  REQUIRE(pre.Size() == 2);
  // The old plain matcher of the suite's own group gets the anchored form of its names.
  CHECK(std::string(pre[0]["matcher"].GetString()) == std::string(kDispatchMatcher));
  CHECK(parse_hook_command(command_of(pre[0]["hooks"][0]))->executable ==
        "/opt/fh/bin/resume-guard");
  CHECK(pre[0]["hooks"][0]["timeout"].GetInt() == kHookTimeoutSeconds);  // added where none was
  // A group shared with the user's own hooks keeps its matcher.
  CHECK(std::string(pre[1]["matcher"].GetString()) == std::string(kDispatchMatcher));
  CHECK(pre[1]["hooks"].Size() == 2);
  CHECK(parse_hook_command(command_of(pre[1]["hooks"][0]))->arguments == " --strict");
  CHECK(installed(installed(before)) == installed(before));
}

TEST_CASE("hook_wiring: a customised entry keeps arguments - matcher - timeout (issue 13.1)") {
  const std::string before = R"({"hooks": {
    "PreToolUse": [{"matcher": "^(mcp__.*__)?(dispatch_food_truck|launch_agent)$", "hooks": [
      {"type": "command", "command": "/old/bin/resume-guard --strict --tool launch_agent --kitchen-id prod", "timeout": 20}]}],
    "PostToolUse": [{"matcher": "^(mcp__.*__)?(dispatch_food_truck|launch_agent)$", "hooks": [
      {"type": "command", "command": "/old/bin/provenance-writer hook --tool launch_agent --fsync", "timeout": 20}]}]}})";
  rapidjson::Document doc = parse(installed(before, ""));
  const auto& pre = doc["hooks"]["PreToolUse"][0];
  CHECK(std::string(pre["matcher"].GetString()) ==
        "^(mcp__.*__|.*-)?(dispatch_food_truck|launch_agent)$");
  CHECK(pre["hooks"][0]["timeout"].GetInt() == 20);
  const auto guard = parse_hook_command(command_of(pre["hooks"][0]));
  CHECK(guard->executable == "resume-guard");  // portable now
  CHECK(guard->arguments == " --strict --tool launch_agent --kitchen-id prod");
  const auto writer = parse_hook_command(command_of(doc["hooks"]["PostToolUse"][0]["hooks"][0]));
  CHECK(writer->executable == "provenance-writer");
  CHECK(writer->arguments == " hook --tool launch_agent --fsync");
}

TEST_CASE("hook_wiring: --tool widens the suite's matcher and adds --tool - refuses a user's own") {
  rapidjson::Document doc = parse(installed("{}", "", {"spawn_worker"}));
  const auto& pre = doc["hooks"]["PreToolUse"][0];
  CHECK(std::string(pre["matcher"].GetString()) ==
        "^(mcp__.*__|.*-)?(dispatch_food_truck|spawn_worker)$");
  CHECK(parse_hook_command(command_of(pre["hooks"][0]))->arguments == " --tool spawn_worker");
  // Adding a tool later widens the same entry.
  const std::string twice = installed(installed("{}", ""), "", {"spawn_worker", "launch-agent"});
  doc = parse(twice);
  CHECK(std::string(doc["hooks"]["PreToolUse"][0]["matcher"].GetString()) ==
        "^(mcp__.*__|.*-)?(dispatch_food_truck|spawn_worker|launch-agent)$");
  CHECK(parse_hook_command(command_of(doc["hooks"]["PreToolUse"][0]["hooks"][0]))->arguments ==
        " --tool spawn_worker --tool launch-agent");
  CHECK(installed(twice, "", {"spawn_worker"}) == twice);
  // A matcher of the user's own making that does not select the tool: refused, unchanged.
  const std::string own =
      R"({"hooks": {"PreToolUse": [{"matcher": "^mcp__kitchen__dispatch_food_truck$|^dispatch_food_truck$",
      "hooks": [{"type": "command", "command": "resume-guard", "timeout": 10}]}]}})";
  rapidjson::Document refused = parse(own);
  CHECK_THROWS_AS(install_suite_hooks(
                      refused, WiringOptions{"", {"spawn_worker"}, false, &fleet::claude_code()}),
                  Error);
  CHECK(settings_text(refused) == settings_text(parse(own)));
  rapidjson::Document bad = parse("{}");
  CHECK_THROWS_AS(
      install_suite_hooks(bad, WiringOptions{"", {"a|b"}, false, &fleet::claude_code()}), Error);
  CHECK(dispatch_matcher({}, fleet::claude_code()) == std::string(kDispatchMatcher));
  CHECK(matcher_covers_tool(kDispatchMatcher, "dispatch_food_truck", fleet::claude_code()));
  CHECK_FALSE(
      matcher_covers_tool("dispatch_food_truck", "dispatch_food_truck", fleet::claude_code()));
}

TEST_CASE("hook_wiring: --fail-open-if-missing makes the guard warn instead of block") {
  rapidjson::Document doc = parse("{}");
  install_suite_hooks(doc, WiringOptions{"", {}, true, &fleet::claude_code()});
  CHECK(
      parse_hook_command(command_of(doc["hooks"]["PreToolUse"][0]["hooks"][0]))->exit_if_missing ==
      fleet::exit_status::hook_warns);
  install_suite_hooks(doc, WiringOptions{"", {}, false, &fleet::claude_code()});  // and back
  CHECK(
      parse_hook_command(command_of(doc["hooks"]["PreToolUse"][0]["hooks"][0]))->exit_if_missing ==
      fleet::exit_status::hook_blocks);
}

TEST_CASE("hook_wiring: unexpected shapes are refused without changes") {
  for (const std::string text : {R"({"hooks": []})", R"({"hooks": {"PreToolUse": {}}})",
                                 R"({"hooks": {"PostToolUse": "x"}})"}) {
    rapidjson::Document doc = parse(text);
    CHECK_THROWS_AS(install_suite_hooks(doc, WiringOptions{"/b", {}, false, &fleet::claude_code()}),
                    Error);
    rapidjson::Document original = parse(text);
    CHECK(settings_text(doc) == settings_text(original));
  }
}

TEST_CASE("hook_wiring: uninstall removes exactly the suite's entries and what they leave empty") {
  const std::string user = R"({"hooks": {"PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}],
      "Stop": []}, "x": 1})";
  rapidjson::Document doc = parse(installed(user));
  CHECK(uninstall_suite_hooks(doc, fleet::claude_code()) == 2);
  rapidjson::Document expected = parse(user);
  CHECK(settings_text(doc) == settings_text(expected));  // the user's empty "Stop" stays

  rapidjson::Document only_suite = parse(installed("{}"));
  CHECK(uninstall_suite_hooks(only_suite, fleet::claude_code()) == 2);
  CHECK(settings_text(only_suite) == "{}\n");
  CHECK(uninstall_suite_hooks(only_suite, fleet::claude_code()) == 0);
}
