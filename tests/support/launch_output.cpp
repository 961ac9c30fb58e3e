#include "launch_output.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include "base/json.h"
#include "temp_dir.h"

namespace fleet::test {

std::vector<int> announced_pids(const std::string& out) {
  std::vector<int> pids;
  for (const auto& line : split_lines(out)) {
    if (line.starts_with("FLEET_PID:")) pids.push_back(std::stoi(line.substr(10)));
  }
  return pids;
}

rapidjson::Document wrapper_summary(const std::string& err) {
  const auto lines = split_lines(err);
  REQUIRE_FALSE(lines.empty());
  auto parsed = parse_json(lines.back());
  REQUIRE_MESSAGE(parsed, err);
  rapidjson::Document doc = std::move(*parsed);
  REQUIRE(doc.IsObject());
  return doc;
}

std::string read_pid_file(const std::string& path, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    const std::string text = read_file(path);
    if (!text.empty() && text.back() == '\n') return text.substr(0, text.size() - 1);
    ::usleep(10000);
  }
  return "";
}

}  // namespace fleet::test
