#include "guard/policy_replay.h"

#include <unistd.h>
#include <algorithm>
#include <optional>

#include "base/closest_word.h"
#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/printable.h"
#include "hook/hook_protocol.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxCasesBytes = 64 * 1024 * 1024;

const std::vector<std::string>& case_keys() {
  static const std::vector<std::string> keys = {"name",       "input", "expect", "reason_contains",
                                                "kitchen_id", "strict"};
  return keys;
}

// nullopt when every key of the case is known; else what is wrong, with the closest known key
// when the unknown one looks like a misspelling of it (a misspelled "reason_contains" would
// otherwise make the case pass without checking anything).
std::optional<std::string> unknown_key_problem(const rapidjson::Value& doc) {
  for (const auto& entry : doc.GetObject()) {
    const std::string key(entry.name.GetString(), entry.name.GetStringLength());
    if (std::find(case_keys().begin(), case_keys().end(), key) != case_keys().end()) continue;
    const auto suggestion = closest_word(key, case_keys());
    return "unknown key \"" + key + "\"" +
           (suggestion ? "; did you mean \"" + *suggestion + "\"?" : "") +
           " (a case has name, input, expect, reason_contains, kitchen_id and strict)";
  }
  return std::nullopt;
}

// "pass": the call proceeds (the guard is silent or advises).
bool outcome_matches(const std::string& expected, Verdict actual) {
  if (expected == "pass") return actual != Verdict::deny;
  return parse_verdict(expected) == actual;
}

ReplayResult run_case(std::string_view line, const GuardOptions& base) {
  ReplayResult result;
  result.actual = "invalid case";
  result.invalid = true;
  const Result<rapidjson::Document> parsed = parse_json_object(line);
  if (!parsed) {
    result.detail = parsed.problem();
    return result;
  }
  const rapidjson::Value& doc = *parsed;
  result.name = std::string(string_member(doc, "name").value_or(""));
  result.expected = std::string(string_member(doc, "expect").value_or(""));
  if (auto problem = unknown_key_problem(doc)) {
    result.detail = std::move(*problem);
    return result;
  }
  const rapidjson::Value* input = member(doc, "input");
  if (input == nullptr || !input->IsObject()) {
    result.detail = "\"input\" must be the hook input object";
    return result;
  }
  if (!parse_verdict(result.expected) && result.expected != "pass") {
    result.detail = "\"expect\" must be deny, silent, advisory or pass";
    return result;
  }
  GuardOptions options = base;
  if (auto kitchen = string_member(doc, "kitchen_id")) options.kitchen_id = std::string(*kitchen);
  if (const rapidjson::Value* strict = member(doc, "strict"); strict && strict->IsBool()) {
    options.strict = strict->GetBool();
  }
  const GuardDecision decision = decide_resume(
      read_resume_request(HookFields(*input, *options.agent), options.tools), options);
  result.invalid = false;
  result.actual = to_string(decision.verdict);
  result.detail = decision.message;
  result.passed = outcome_matches(result.expected, decision.verdict);
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
  std::string text;
  if (path == "-") {
    BoundedRead input = read_bounded(STDIN_FILENO, kMaxCasesBytes);
    if (input.error) throw Error("cannot read standard input: " + *input.error);
    if (input.truncated) {
      throw Error("the cases on standard input are larger than " +
                  std::to_string(kMaxCasesBytes / (1024 * 1024)) + " MiB");
    }
    text = std::move(input.text);
  } else {
    text = read_regular_file(path, kMaxCasesBytes);
  }
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
  std::size_t widths[] = {6, 8, 10, 10};  // line, result, expected, actual
  const auto shown = [](const std::string& value) {
    return value.empty() ? std::string("-") : printable(value);
  };
  const auto actual_of = [](const ReplayResult& r) { return r.invalid ? "-" : r.actual; };
  for (const auto& r : results) {
    widths[0] = std::max(widths[0], std::to_string(r.line).size() + 2);
    widths[2] = std::max(widths[2], shown(r.expected).size() + 2);
    widths[3] = std::max(widths[3], shown(actual_of(r)).size() + 2);
  }
  const auto row = [&](std::initializer_list<std::string> cells, const std::string& last) {
    std::string text;
    std::size_t column = 0;
    for (const std::string& cell : cells) {
      std::string padded = cell;
      padded.resize(std::max(widths[column++], cell.size() + 1), ' ');
      text += padded;
    }
    return text + last + "\n";
  };
  std::string text = row({"line", "result", "expected", "actual"}, "case");
  std::size_t passed = 0;
  std::size_t invalid = 0;
  for (const auto& r : results) {
    passed += r.passed ? 1 : 0;
    invalid += r.invalid ? 1 : 0;
    text += row({std::to_string(r.line),
                 r.invalid  ? "ERROR"
                 : r.passed ? "PASS"
                            : "FAIL",
                 shown(r.expected), shown(actual_of(r))},
                r.name.empty() ? "(unnamed)" : printable(r.name));
    if (r.invalid) {
      text += std::string(widths[0], ' ') + "invalid case: " + printable(r.detail) + "\n";
    } else if (!r.passed && !r.detail.empty()) {
      text += std::string(widths[0], ' ') + printable(r.detail) + "\n";
    }
  }
  text += "replay: " + std::to_string(passed) + " of " + std::to_string(results.size()) +
          " cases passed, " + std::to_string(results.size() - passed - invalid) + " failed" +
          (invalid > 0 ? ", " + std::to_string(invalid) + " invalid" : "") + "\n";
  return text;
}

}  // namespace fleet
