#include "settings/installed_cli.h"

#include <chrono>

#include "base/paths.h"
#include "hook/hook_command.h"
#include "process/child_process.h"
#include "process/subprocess.h"
#include "settings/check_report.h"

namespace fleet {
namespace {

constexpr std::chrono::seconds kVersionTimeout{30};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// The numbers of a dotted version.
std::vector<unsigned long> version_numbers(const std::string& version) {
  std::vector<unsigned long> numbers;
  std::size_t at = 0;
  while (at < version.size()) {
    const std::size_t dot = version.find('.', at);
    const std::string part = version.substr(at, dot == std::string::npos ? dot : dot - at);
    numbers.push_back(part.empty() ? 0 : std::stoul(part));
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  return numbers;
}

std::optional<Finding> newer_version(const AgentCli& agent, const std::string& program) {
  const CommandResult ran =
      run_shell_command(shell_quote(program) + " --version", "", environment_with({}),
                        std::chrono::duration_cast<std::chrono::milliseconds>(kVersionTimeout));
  const std::optional<std::string> installed = version_in(ran.out);
  const std::string checked(agent.version_checked);
  if (ran.exit_code != 0 || !installed || !version_newer(*installed, checked)) return std::nullopt;
  return Finding{"agent-cli-newer", Severity::warning,
                 std::string(agent.display_name) + " " + *installed + " is installed (" + program +
                     "); the suite's facts about it were checked with " + checked +
                     ". What it does with hooks may have changed: run the end-to-end tests "
                     "against it (doc/development.md, \"End-to-end tests\")",
                 program};
}

}  // namespace

std::optional<std::string> version_in(std::string_view text) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (!is_digit(text[at]) || (at > 0 && (is_digit(text[at - 1]) || text[at - 1] == '.')))
      continue;
    std::size_t end = at;
    bool dotted = false;
    while (end < text.size() &&
           (is_digit(text[end]) ||
            (text[end] == '.' && end + 1 < text.size() && is_digit(text[end + 1])))) {
      dotted = dotted || text[end] == '.';
      ++end;
    }
    if (dotted) return std::string(text.substr(at, end - at));
    at = end;
  }
  return std::nullopt;
}

bool version_newer(const std::string& a, const std::string& b) {
  return version_numbers(a) > version_numbers(b);
}

std::vector<Finding> installed_cli_findings(const AgentCli& agent, const std::string& project_dir,
                                            const std::vector<Finding>& own) {
  const std::optional<std::string> program = find_on_path(std::string(agent.name));
  if (!program) return {};
  std::vector<Finding> findings;
  if (auto newer = newer_version(agent, *program)) findings.push_back(std::move(*newer));
  if (agent.hook_trust.reported != nullptr) {
    std::vector<Finding> reported = agent.hook_trust.reported(project_dir, !has_errors(own));
    findings.insert(findings.end(), reported.begin(), reported.end());
  }
  return findings;
}

}  // namespace fleet
