#pragma once
// `fleet-hooks replay`: a team's ownership policy under test. Each line of a cases file holds
// a hook input and the outcome expected from resume-guard's decision logic.
//
// {"name": "...", "input": {<PreToolUse hook input>}, "expect": "deny"|"silent"|"advisory"|"pass",
//  "reason_contains": "...", "kitchen_id": "...", "strict": false}
// "pass" accepts silent or advisory (the call proceeds). name, reason_contains, kitchen_id
// and strict are optional; any other key makes the case invalid (a misspelled
// "reason_contains" must not let a case pass unchecked).
// Failing: a case that is wrong is a result marked invalid (the others still run); a cases
// file that cannot be read throws Error.

#include <string>
#include <vector>

#include "guard/resume_guard.h"

namespace fleet {

struct ReplayResult {
  std::size_t line = 0;
  std::string name;
  std::string expected;
  std::string actual;  // to_string(Verdict): deny, silent, advisory; or "invalid case"
  bool passed = false;
  bool invalid = false;  // the case itself is wrong: `detail` says how
  std::string detail;    // the reason given, or what is wrong with the case
};

// Runs every case of the file at `path` ("-": standard input) against `options` (state dir,
// tools, the CLI whose hook input the cases hold). Blank lines are skipped. Throws Error when the
// file cannot be read.
std::vector<ReplayResult> replay_cases(const std::string& path, const GuardOptions& options);

// A table with one row per case (an invalid case is an ERROR row followed by what is wrong
// with it; columns widen to fit) and a summary line.
std::string replay_table(const std::vector<ReplayResult>& results);

}  // namespace fleet
