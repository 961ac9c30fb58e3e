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
constexpr std::string_view kClaudePackages[] = {"@anthropic-ai/claude-code"};
constexpr std::string_view kClaudeLatest[] = {"--continue", "-c"};
constexpr ErrorText kClaudeTexts[] = {
    {"No conversation found with session ID", EC::stale_session},
};

// `-p` prints an API failure as its answer; `--output-format json|stream-json` in its "result".
constexpr std::string_view kClaudeFailureEvents[] = {"result"};
// What makes one run of Claude Code 2.1.328 skip the project's hooks while --mcp-config's
// servers stay (read from its code; --bare, CLAUDE_CODE_SIMPLE and --setting-sources seen).
constexpr RunSwitch kClaudeRunSwitches[] = {
    {.option = "--bare", .variable = ""},
    {.option = "", .variable = "CLAUDE_CODE_SIMPLE"},
    {.option = "--safe-mode", .variable = "", .effect = "runs only managed hooks"},
    {.option = "", .variable = "CLAUDE_CODE_SAFE_MODE", .effect = "runs only managed hooks"},
    {.option = "--restricted", .variable = "", .effect = "reads no project settings"},
    {.option = "", .variable = "CLAUDE_CODE_RESTRICTED", .effect = "reads no project settings"},
    {.option = "--setting-sources",
     .variable = "",
     .unless = "project",
     .effect = "reads no project settings"},
    {.option = "--ignore-persisted-trust", .variable = "", .effect = "runs no project hook"},
    {.option = "",
     .variable = "CLAUDE_CODE_IGNORE_PERSISTED_TRUST",
     .effect = "runs no project hook"},
    {.option = "",
     .variable = "CLAUDE_CODE_SHELL_PREFIX",
     .effect = "runs every hook command through another program"},
};

}  // namespace

constexpr AgentProfile kClaudeProfile = {
    .name = "claude",
    .display_name = "Claude Code",
    .programs = kClaudePrograms,
    .packages = kClaudePackages,
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
    .session_file_shown = "~/.claude/projects/<munged cwd>/<session id>.jsonl",
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
    .run_switches = kClaudeRunSwitches,
};

}  // namespace fleet
