#include "launch/error_class.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "base/json.h"

namespace fleet {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// True when `number` occurs in `line` with no digit directly before or after it.
bool has_whole_number(std::string_view line, std::string_view number) {
  for (std::size_t at = line.find(number); at != std::string_view::npos;
       at = line.find(number, at + 1)) {
    const bool digit_before = at > 0 && is_digit(line[at - 1]);
    const std::size_t after = at + number.size();
    const bool digit_after = after < line.size() && is_digit(line[after]);
    if (!digit_before && !digit_after) return true;
  }
  return false;
}

bool line_reports_retryable_status(std::string_view line) {
  const bool about_a_request = line.find("error") != std::string_view::npos ||
                               line.find("status") != std::string_view::npos ||
                               line.find("http") != std::string_view::npos ||
                               line.find("api") != std::string_view::npos;
  if (!about_a_request) return false;
  for (std::string_view code : {"429", "500", "502", "503", "529"}) {
    if (has_whole_number(line, code)) return true;
  }
  return false;
}

ErrorClass generic_class(std::string_view output) {
  const std::string text = lower(output);
  if (text.find("overloaded") != std::string::npos ||
      text.find("rate limit") != std::string::npos ||
      text.find("rate_limit") != std::string::npos) {
    return ErrorClass::retryable;
  }
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    const std::string_view line = rest.substr(0, newline);
    if (line_reports_retryable_status(line)) return ErrorClass::retryable;
    if (newline == std::string_view::npos) break;
    rest.remove_prefix(newline + 1);
  }
  return ErrorClass::fatal;
}

// Whether a stdout line is one the form reads: an event of its own, or a plain line.
bool reports_failure(std::string_view line, const ErrorForm& form) {
  const Result<rapidjson::Document> event = parse_json_object(line);
  if (!event) return form.plain_stdout;
  const std::optional<std::string_view> type = string_member(*event, "type");
  return type && std::ranges::find(form.stdout_events, *type) != form.stdout_events.end();
}

}  // namespace

std::string failure_output(std::string_view stdout_tail, std::string_view stderr_tail,
                           const ErrorForm& form) {
  std::string output;
  while (!stdout_tail.empty()) {
    const std::size_t newline = stdout_tail.find('\n');
    const std::string_view line = stdout_tail.substr(0, newline);
    if (reports_failure(line, form)) output.append(line).push_back('\n');
    if (newline == std::string_view::npos) break;
    stdout_tail.remove_prefix(newline + 1);
  }
  return output.append(stderr_tail);
}

Classified classify_failure(std::string_view output, int exit_status, const ErrorForm& form) {
  for (const ErrorText& known : form.texts) {
    if (output.find(known.text) != std::string_view::npos) return {known.error_class, nullptr};
  }
  for (const ExitMeaning& known : form.exits) {
    if (known.status == exit_status) return {known.error_class, &known};
  }
  if (form.generic_rules) return {generic_class(output), nullptr};
  return {};
}

}  // namespace fleet
