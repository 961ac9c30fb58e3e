#include "claude_cli.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "base/json.h"
#include "fixtures.h"
#include "temp_dir.h"

namespace fleet::test {

std::string cli_or_skip(const std::string& cache_dir, const std::string& name) {
  const std::string path = read_file(cache_dir + "/" + name + "-path");
  if (!path.empty()) return path.substr(0, path.find('\n'));
  std::string reason = read_file(cache_dir + "/" + name + "-unavailable");
  if (reason.empty()) reason = "tests/e2e/setup.sh has not run (./install.sh --test runs it)\n";
  // A CI runner must run every e2e test: there a missing CLI fails the test.
  const char* ci = std::getenv("CI");
  const bool in_ci = ci != nullptr && *ci != '\0';
  std::printf("%s: the real %s CLI is not available: %s", in_ci ? "FAILED (CI is set)" : "SKIPPED",
              name.c_str(), reason.c_str());
  std::fflush(stdout);
  std::_Exit(in_ci ? 1 : kSkipped);
}

std::string claude_or_skip(const std::string& cache_dir) {
  return cli_or_skip(cache_dir, "claude");
}

std::string write_dispatcher_config(const std::string& path, const std::string& dispatcher,
                                    const std::vector<std::pair<std::string, std::string>>& env) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  rapidjson::Value variables(rapidjson::kObjectType);
  for (const auto& [name, value] : env) {
    variables.AddMember(json_string(name, alloc), json_string(value, alloc), alloc);
  }
  rapidjson::Value args(rapidjson::kArrayType);
  args.PushBack(json_string(dispatcher, alloc), alloc);
  rapidjson::Value server(rapidjson::kObjectType);
  server.AddMember("type", "stdio", alloc);
  server.AddMember("command", "node", alloc);
  server.AddMember("args", args, alloc);
  server.AddMember("env", variables, alloc);
  rapidjson::Value servers(rapidjson::kObjectType);
  servers.AddMember("kitchen", server, alloc);
  doc.AddMember("mcpServers", servers, alloc);
  write_file(path, to_json(doc));
  return path;
}

std::size_t ClaudeRun::denials() const {
  const auto* list = member(output, "permission_denials");
  return list && list->IsArray() ? list->Size() : 0;
}

std::string ClaudeRun::denied_tool(std::size_t i) const {
  return std::string(
      string_member(output["permission_denials"][static_cast<unsigned>(i)], "tool_name")
          .value_or(""));
}

ClaudeRun run_claude(const std::vector<std::string>& argv, const RunOptions& options) {
  ClaudeRun run;
  run.process = run_process(argv, options);
  std::string result_line;
  for (const auto& line : split_lines(run.process.out)) {
    if (line.find("\"type\":\"result\"") != std::string::npos) result_line = line;
    if (line.find("\"type\":\"system\"") != std::string::npos) run.system_events += line + "\n";
  }
  auto output = parse_json(result_line);
  REQUIRE_MESSAGE(output, (run.process.out + run.process.err));
  run.output = std::move(*output);
  return run;
}

std::string dispatch_turn(const std::string& input_json, const std::string& tool) {
  return R"({"tool_use":{"name":")" + tool + R"(","input":)" + input_json + "}}";
}

MockMessagesApi::MockMessagesApi(const std::string& fixtures_dir, const std::string& dir)
    : dir_(dir) {
  script(R"({"rules":[],"default":{"text":"ok"}})");
  server_ = std::make_unique<BackgroundProcess>(
      std::vector<std::string>{"/usr/bin/env", "node", fixtures_dir + "/mock_api.mjs",
                               dir_ + "/script.json", dir_ + "/port", dir_ + "/api.jsonl"});
  for (int i = 0; i < 300 && read_file(dir_ + "/port").empty(); ++i) ::usleep(20000);
  port_ = read_file(dir_ + "/port");
  REQUIRE_MESSAGE(!port_.empty(), "the mock Messages API did not start");
}

void MockMessagesApi::script(const std::string& json) const {
  // Whole, by rename: the mock reads the script at every request, and a CLI may be sending one
  // while a test changes the script.
  write_file(dir_ + "/script.json.tmp", json);
  REQUIRE(std::rename((dir_ + "/script.json.tmp").c_str(), (dir_ + "/script.json").c_str()) == 0);
}

std::vector<std::pair<std::string, std::string>> MockMessagesApi::client_env() const {
  return {{"ANTHROPIC_BASE_URL", "http://127.0.0.1:" + port_},
          {"ANTHROPIC_API_KEY", "test"},
          {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"}};
}

std::string MockMessagesApi::tool_results() const {
  std::string all;
  for (const auto& line : split_lines(read_file(dir_ + "/api.jsonl"))) {
    if (line.find("tool_result") != std::string::npos) all += line + "\n";
  }
  return all;
}

}  // namespace fleet::test
