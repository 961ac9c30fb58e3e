#pragma once
// Reading and rewriting the agent's command line for launches, in the form of its CLI's
// profile (agent_profile.h): whether the command is that CLI's at all, which session it
// resumes, the resume rewrite of a keyed session and the fresh-session rewrite of a stale one.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_profile.h"

namespace fleet {

// Whether argv runs the profile's CLI, the only command line whose options the wrapper may
// rewrite: the program's base name is one of the profile's (`claude`, `claude.exe`, …), and
// a resume subcommand's parent (Codex's `exec`) is on it.
bool is_agent_command(const std::vector<std::string>& argv, const AgentProfile& agent);

// The first of the profile's refused options on argv (before a "--"), nullptr when none is.
const RefusedOption* refused_option(const std::vector<std::string>& argv,
                                    const AgentProfile& agent);

// The first of the profile's run switches (AgentProfile::run_switches) that argv (before a
// "--") or `environment` ("NAME=value" entries, the last of a name counting) turns on, as the
// CLI reads them; nullptr when none is on.
const RunSwitch* run_switch(const std::vector<std::string>& argv,
                            const std::vector<std::string>& environment, const AgentProfile& agent);

// Whether argv resumes a session in the profile's form (with an id, or the latest session).
bool resumes_session(const std::vector<std::string>& argv, const AgentProfile& agent);

// The id of the session argv resumes in the profile's form, nullopt when none is named.
std::optional<std::string> resumed_session_id(const std::vector<std::string>& argv,
                                              const AgentProfile& agent);

// argv without the profile's resume words (with their id) and its latest-session flags.
std::vector<std::string> without_resume(const std::vector<std::string>& argv,
                                        const AgentProfile& agent);

// argv (without any resume) resuming `id` in the profile's form: "--resume <id>" after the
// program name, or "resume <id>" after Codex's "exec".
std::vector<std::string> with_resume(const std::vector<std::string>& argv,
                                     const AgentProfile& agent, const std::string& id);

// The value of option `name` (e.g. "--resume"; also "--resume=value") or of its short form
// (e.g. "-r"), scanning argv[1..] up to a "--" terminator. nullopt when absent or when the
// option has no value (last, or followed by another option).
std::optional<std::string> option_value(const std::vector<std::string>& argv, std::string_view name,
                                        std::string_view short_name = "");

// argv with "<name> <value>" inserted right after the program name.
std::vector<std::string> with_option(const std::vector<std::string>& argv, std::string_view name,
                                     std::string_view value);

// argv without "<name> <value>" / "<name>=<value>".
std::vector<std::string> without_option(const std::vector<std::string>& argv,
                                        std::string_view name);

}  // namespace fleet
