#include "claude_cli.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "fixtures.h"
#include "temp_dir.h"

namespace fleet::test {

std::string claude_or_skip(const std::string& cache_dir) {
  const std::string path = read_file(cache_dir + "/claude-path");
  if (!path.empty()) return path.substr(0, path.find('\n'));
  std::string reason = read_file(cache_dir + "/unavailable");
  if (reason.empty()) reason = "tests/e2e/setup.sh has not run (./install.sh --test runs it)\n";
  std::printf("SKIPPED: the real Claude Code CLI is not available: %s", reason.c_str());
  std::fflush(stdout);
  std::_Exit(kSkipped);
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
  write_file(dir_ + "/script.json", json);
}

}  // namespace fleet::test
