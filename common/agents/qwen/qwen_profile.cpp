#include "agents/qwen/qwen_profile.h"

namespace fleet {
namespace {

using EC = ErrorClass;

// Qwen Code 0.24.4: `qwen -o stream-json --yolo --session-id <uuid> PROMPT` (an id that has a
// session already: "Error: Session Id <id> already exists (active or archived).", exit 1);
// `-r <id>` / `--resume <id>` resumes (same id, same file), `-c` / `--continue` the latest; an
// unknown id: "No saved session found with ID <id>.", exit 1. Its session file records no
// finished turn: `-o stream-json` prints {"type":"result","result":<the answer>} at the end of
// one (`-o json` prints one JSON array when the run ends).
constexpr std::string_view kQwenPrograms[] = {"qwen"};
constexpr std::string_view kQwenPackages[] = {"@qwen-code/qwen-code"};
constexpr std::string_view kQwenLatest[] = {"--continue", "-c"};
constexpr ErrorText kQwenTexts[] = {
    {"No saved session found with ID", EC::stale_session},
    {"already exists (active or archived)", EC::fatal},
};

// stdout holds the answer (`-o text`) or JSON events whose report of the run is "result".
constexpr std::string_view kQwenFailureEvents[] = {"result"};
// What makes one run of Qwen Code 0.24.4 skip the hooks (read from its code; --bare and
// --safe-mode also drop its MCP servers).
constexpr RunSwitch kQwenRunSwitches[] = {
    {.option = "--bare", .variable = ""},
    {.option = "", .variable = "QWEN_CODE_SIMPLE"},
    {.option = "--safe-mode", .variable = ""},
    {.option = "", .variable = "QWEN_CODE_SAFE_MODE"},
};

}  // namespace

constexpr AgentProfile kQwenProfile = {
    .name = "qwen",
    .display_name = "Qwen Code",
    .programs = kQwenPrograms,
    .packages = kQwenPackages,
    .session_id = {.assign_option = "--session-id",
                   .stdout_event = "",
                   .stdout_key = "",
                   .turn_event = "",
                   .stdout_flag = ""},
    .resume = {.subcommand = "",
               .word = "--resume",
               .short_word = "-r",
               .latest_flags = kQwenLatest},
    .session_file = nullptr,
    .completion = {.record_type = "result",
                   .container = "",
                   .subtype_key = "",
                   .subtype = "",
                   .text_path = {"result", ""},
                   .block_type = ""},
    .errors = {.texts = kQwenTexts,
               .exits = {},
               .generic_rules = true,
               .stdout_events = kQwenFailureEvents,
               .plain_stdout = false},
    .completion_on_stdout = {.option = "--output-format",
                             .short_option = "-o",
                             .value = "stream-json"},
    .run_switches = kQwenRunSwitches,
};

}  // namespace fleet
