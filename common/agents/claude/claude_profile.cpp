#include "agents/claude/claude_profile.h"

#include "agents/claude/claude_session_file.h"

namespace fleet {
namespace {

using EC = ErrorClass;

// Claude Code 2.1.328 (doc/claude-code.md): `claude -p --session-id <uuid>`,
// `--resume <id>` / `-r`, `--continue` / `-c`; transcript records of type "assistant" with
// text blocks in message.content; a resume of an unknown id prints "No conversation found
// with session ID: <id>" and exits 1.
constexpr std::string_view kClaudePrograms[] = {"claude", "claude.exe"};
constexpr std::string_view kClaudeLatest[] = {"--continue", "-c"};
constexpr ErrorText kClaudeTexts[] = {
    {"No conversation found with session ID", EC::stale_session},
};

// `-p` prints an API failure as its answer; `--output-format json|stream-json` in its "result".
constexpr std::string_view kClaudeFailureEvents[] = {"result"};

}  // namespace

constexpr AgentProfile kClaudeProfile = {
    .name = "claude",
    .display_name = "Claude Code",
    .programs = kClaudePrograms,
    .session_id = {.assign_option = "--session-id",
                   .stdout_event = "",
                   .stdout_key = "",
                   .turn_event = "",
                   .stdout_flag = ""},
    .resume = {.subcommand = "",
               .word = "--resume",
               .short_word = "-r",
               .latest_flags = kClaudeLatest},
    .session_file = &claude_session_file,
    // {"type":"assistant","message":{"content":[{"type":"text","text":…}]}}
    .completion = {.record_type = "assistant",
                   .container = "",
                   .subtype_key = "",
                   .subtype = "",
                   .text_path = {"message", "content"},
                   .block_type = "text"},
    .errors = {.texts = kClaudeTexts,
               .exits = {},
               .generic_rules = true,
               .stdout_events = kClaudeFailureEvents,
               .plain_stdout = true},
};

}  // namespace fleet
