#pragma once
// One finding of `fleet-hooks check`: a rule that failed, how bad it is, what to do. The
// severities are named once here (enum_names.h): check's and verify's text and JSON print
// these names.

#include <array>
#include <string>
#include <string_view>

#include "base/enum_names.h"

namespace fleet {

enum class Severity {
  error,    // check and verify exit 1
  warning,  // reported; the exit status stays 0
};

template <>
struct EnumNames<Severity> {
  static constexpr std::array<std::string_view, 2> names{"error", "warning"};
};

struct Finding {
  std::string rule;  // e.g. "guard-missing"
  Severity severity;
  std::string message;
  std::string file;  // the settings file or store concerned, "" when none
  // The agent CLI skips the suite's hooks only until the project or the hooks are trusted:
  // trusting them (and nothing else) fixes this finding.
  bool fixed_by_trust = false;
};

}  // namespace fleet
