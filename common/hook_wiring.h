#pragma once
// The suite's entries in a settings document's "hooks": resume-guard on PreToolUse and
// `provenance-writer hook` on PostToolUse of the dispatch tool. Installing replaces the
// suite's own entries (recognised by the executable's file name) and touches nothing else;
// uninstalling removes exactly them and the containers they leave empty.

#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

namespace fleet {

inline constexpr std::string_view kDispatchMatcher = "^(mcp__.*__)?dispatch_food_truck$";
inline constexpr int kHookTimeoutSeconds = 10;

struct SuiteHook {
  const char* event;       // "PreToolUse" / "PostToolUse"
  const char* executable;  // file name the entry is recognised by
  const char* arguments;   // appended to the command ("" for none)
};

inline constexpr SuiteHook kSuiteHooks[] = {
    {"PreToolUse", "resume-guard", ""},
    {"PostToolUse", "provenance-writer", " hook"},
};

// `path` quoted for /bin/sh when it holds anything beyond [A-Za-z0-9/._+-].
std::string shell_quote(std::string_view path);

// The executable a hook command runs: its first word that is not a VAR=value assignment,
// with shell quotes removed. "" when there is none.
std::string command_executable(std::string_view command);

// The file name of the command's executable.
std::string command_executable_name(std::string_view command);

// Installs the suite's hooks with executables in `bin_dir` into `settings`. An existing
// suite entry under the suite's matcher is updated in place; other suite entries are removed.
// Throws Error when "hooks" or an event's list has an unexpected type (nothing is changed).
void install_suite_hooks(rapidjson::Document& settings, const std::string& bin_dir);

// Removes the suite's hook entries and the groups, event lists and "hooks" object that are
// left empty by it. Returns how many entries were removed.
int uninstall_suite_hooks(rapidjson::Document& settings);

}  // namespace fleet
