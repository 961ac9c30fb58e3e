#include "agents/opencode/opencode_profile.h"

namespace fleet {
namespace {

using EC = ErrorClass;

// OpenCode 1.18.33: ids are OpenCode's own (ses_ + 26 characters; no option assigns one);
// `opencode run --format json PROMPT` prints JSON lines on stdout, each naming the session in
// "sessionID", the first a "step_start". `run -s <id>` / `--session <id>` resumes (same id),
// `-c` / `--continue` the latest; an unknown id: "Error: Session not found" on stderr, exit 1.
// Sessions are kept in SQLite, not in a file: its stdout is read. A text part is printed once
// it has ended, {"type":"text","sessionID":…,"part":{"type":"text","text":…,"time":{"end":…}}}
// (read in 1.18.33's `run`); the turn's last one is followed by {"type":"step_finish","part":
// {"reason":"stop",…}}, which holds no text (a step that ends in a tool call: "tool-calls").
constexpr std::string_view kOpenCodePrograms[] = {"opencode"};
constexpr std::string_view kOpenCodePackages[] = {"opencode-ai"};
constexpr std::string_view kOpenCodeLatest[] = {"--continue", "-c"};
constexpr ErrorText kOpenCodeTexts[] = {
    {"Session not found", EC::stale_session},
};

// `--format json` reports a failure as {"type":"error","error":{…}}; the rest of stdout is
// the worker's own steps, text and tool calls.
constexpr std::string_view kOpenCodeFailureEvents[] = {"error"};
// What makes one run of OpenCode 1.18.33 load no plugin of the project (read from its code).
constexpr RunSwitch kOpenCodeRunSwitches[] = {
    {.option = "--pure", .variable = "", .effect = "loads no plugin"},
    {.option = "", .variable = "OPENCODE_PURE", .effect = "loads no plugin"},
    {.option = "",
     .variable = "OPENCODE_DISABLE_PROJECT_CONFIG",
     .effect = "loads no plugin of the project"},
};

}  // namespace

constexpr AgentProfile kOpenCodeProfile = {
    .name = "opencode",
    .display_name = "OpenCode",
    .programs = kOpenCodePrograms,
    .packages = kOpenCodePackages,
    .session_id = {.assign_option = "",
                   .stdout_event = "step_start",
                   .stdout_key = "sessionID",
                   .turn_event = "",
                   .stdout_flag = "--format json",
                   .start_hook = "plugin's chat.message handler"},
    .resume = {.subcommand = "",
               .word = "--session",
               .short_word = "-s",
               .latest_flags = kOpenCodeLatest},
    .session_file = nullptr,
    .completion = {.record_type = "text",
                   .container = "part",
                   .subtype_key = "type",
                   .subtype = "text",
                   .text_path = {"part", "text"},
                   .block_type = ""},
    .errors = {.texts = kOpenCodeTexts,
               .exits = {},
               .generic_rules = true,
               .stdout_events = kOpenCodeFailureEvents,
               .plain_stdout = false},
    .completion_on_stdout = {.option = "--format", .short_option = "", .value = "json"},
    .run_switches = kOpenCodeRunSwitches,
};

}  // namespace fleet
