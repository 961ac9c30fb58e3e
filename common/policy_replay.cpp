#include "policy_replay.h"

#include "error.h"
#include "files.h"
#include "json.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxCasesBytes = 64 * 1024 * 1024;

const char* kind_name(GuardDecision::Kind kind) {
  switch (kind) {
    case GuardDecision::Kind::deny:
      return "deny";
    case GuardDecision::Kind::advisory:
      return "advisory";
    case GuardDecision::Kind::silent:
      break;
  }
  return "silent";
}

bool outcome_matches(const std::string& expected, const std::string& actual) {
  return expected == actual || (expected == "pass" && (actual == "silent" || actual == "advisory"));
}

ReplayResult run_case(std::string_view line, const GuardOptions& base) {
  ReplayResult result;
  result.actual = "invalid case";
  rapidjson::Document doc;
  std::string error;
  if (!parse_json(line, doc, &error) || !doc.IsObject()) {
    result.detail = "not a JSON object" + (error.empty() ? "" : " (" + error + ")");
    return result;
  }
  result.name = std::string(string_member(doc, "name").value_or(""));
  result.expected = std::string(string_member(doc, "expect").value_or(""));
  const rapidjson::Value* input = member(doc, "input");
  if (input == nullptr || !input->IsObject()) {
    result.detail = "\"input\" must be the hook input object";
    return result;
  }
  if (result.expected != "deny" && result.expected != "silent" && result.expected != "advisory" &&
      result.expected != "pass") {
    result.detail = "\"expect\" must be deny, silent, advisory or pass";
    return result;
  }
  GuardOptions options = base;
  if (auto kitchen = string_member(doc, "kitchen_id")) options.kitchen_id = std::string(*kitchen);
  if (const rapidjson::Value* strict = member(doc, "strict"); strict && strict->IsBool()) {
    options.strict = strict->GetBool();
  }
  const GuardDecision decision = decide_resume(BoundedRead{to_json(*input), false, ""}, options);
  result.actual = kind_name(decision.kind);
  result.detail = decision.message;
  result.passed = outcome_matches(result.expected, result.actual);
  if (result.passed) {
    if (auto part = string_member(doc, "reason_contains"); part && !part->empty()) {
      result.passed = decision.message.find(*part) != std::string::npos;
      if (!result.passed)
        result.detail = "reason lacks '" + std::string(*part) + "': " + decision.message;
    }
  }
  return result;
}

}  // namespace

std::vector<ReplayResult> replay_cases(const std::string& path, const GuardOptions& options) {
  const std::string text = read_regular_file(path, kMaxCasesBytes);
  std::vector<ReplayResult> results;
  std::size_t number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++number;
    const std::string_view line(text.data() + start, end - start);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) {
      ReplayResult result = run_case(line, options);
      result.line = number;
      results.push_back(std::move(result));
    }
    start = end + 1;
  }
  return results;
}

std::string replay_table(const std::vector<ReplayResult>& results) {
  std::string text = "line  result  expected  actual    case\n";
  std::size_t passed = 0;
  for (const auto& r : results) {
    passed += r.passed ? 1 : 0;
    std::string row = std::to_string(r.line);
    row.resize(6, ' ');
    row += r.passed ? "PASS    " : "FAIL    ";
    std::string expected = r.expected;
    expected.resize(10, ' ');
    std::string actual = r.actual;
    actual.resize(10, ' ');
    row += expected + actual + (r.name.empty() ? "(unnamed)" : r.name);
    if (!r.passed && !r.detail.empty()) row += "\n      " + r.detail;
    text += row + "\n";
  }
  text += "replay: " + std::to_string(passed) + " of " + std::to_string(results.size()) +
          " cases passed, " + std::to_string(results.size() - passed) + " failed\n";
  return text;
}

}  // namespace fleet
