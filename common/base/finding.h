#pragma once
// One finding of `fleet-hooks check`: a rule that failed, how bad it is, what to do.

#include <string>

namespace fleet {

struct Finding {
  std::string rule;      // e.g. "guard-missing"
  std::string severity;  // "error" or "warning"
  std::string message;
  std::string file;  // the settings file or store concerned, "" when none
};

}  // namespace fleet
