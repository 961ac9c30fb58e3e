#pragma once
// Test support for the end-to-end tests: the real Claude Code CLI that tests/e2e/setup.sh
// installed, and the scripted Messages API it talks to on loopback
// (tests/e2e/fixtures/mock_api.mjs).

#include <memory>
#include <string>

#include "process.h"

namespace fleet::test {

// The path of the Claude Code binary recorded in `cache_dir` (tests/e2e/.cache); when there is
// none, prints why and exits with kSkipped, which CTest reports as a skipped test.
std::string claude_or_skip(const std::string& cache_dir);

// The mock Messages API, run with node from `fixtures_dir`; its script, port file and request
// log (api.jsonl) live in `dir`. It answers "ok" until script() gives it rules.
class MockMessagesApi {
 public:
  MockMessagesApi(const std::string& fixtures_dir, const std::string& dir);  // REQUIREs it listens
  void script(const std::string& json) const;
  const std::string& port() const { return port_; }

 private:
  std::string dir_;
  std::unique_ptr<BackgroundProcess> server_;
  std::string port_;
};

}  // namespace fleet::test
