#pragma once
// Reading and rewriting the agent's command line (a `claude …` invocation) for launches:
// which session it resumes or pre-assigns, and the fresh-session rewrite for a stale resume.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fleet {

// Whether argv runs Claude Code's CLI, the only command line whose options the wrapper may
// rewrite: the program's base name is `claude` (or `claude.exe`, the npm package's bin file).
bool is_claude_code(const std::vector<std::string>& argv);

// The value of option `name` (e.g. "--resume"; also "--resume=value") or of its short form
// (e.g. "-r"), scanning argv[1..] up to a "--" terminator. nullopt when absent or when the
// option has no value (last, or followed by another option).
std::optional<std::string> option_value(const std::vector<std::string>& argv, std::string_view name,
                                        std::string_view short_name = "");

// argv without "--resume <id>", "--resume=<id>", "-r <id>", "--continue" and "-c".
std::vector<std::string> without_resume(const std::vector<std::string>& argv);

// argv with "<name> <value>" inserted right after the program name.
std::vector<std::string> with_option(const std::vector<std::string>& argv, std::string_view name,
                                     std::string_view value);

// argv without "<name> <value>" / "<name>=<value>".
std::vector<std::string> without_option(const std::vector<std::string>& argv,
                                        std::string_view name);

}  // namespace fleet
