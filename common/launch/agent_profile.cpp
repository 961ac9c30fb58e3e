#include "launch/agent_profile.h"

#include <array>

#include "launch/session_files.h"

namespace fleet {
namespace {

using EC = ErrorClass;

// Claude Code 2.1.328 (DESIGN "Claude Code facts"): `claude -p --session-id <uuid>`,
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

constexpr AgentProfile kClaude = {
    "claude",
    "Claude Code",
    kClaudePrograms,
    {"--session-id", "", "", "", ""},
    {"", "--resume", "-r", kClaudeLatest},
    &claude_session_file,
    kClaudeCompletion,
    {.texts = kClaudeTexts,
     .exits = {},
     .generic_rules = true,
     .stdout_events = kClaudeFailureEvents,
     .plain_stdout = true},
};

// codex-cli 0.169.0: the id is a UUIDv7 Codex picks, printed by `codex exec --json` as
// {"type":"thread.started","thread_id":…}, then {"type":"turn.started"}, and only then do the
// SessionStart hooks run (before the first model request; observed here); `codex exec resume <id>
// [PROMPT]` (or --last); a finished turn appends
// {"type":"event_msg","payload":{"type":"task_complete", "last_agent_message":…}} to the rollout
// file; a resume of an unknown id says "no rollout found for thread id <id>" and exits 1 (run
// here).
constexpr std::string_view kCodexPrograms[] = {"codex"};
constexpr std::string_view kCodexLatest[] = {"--last"};
// The options of `codex exec` and `codex exec resume` that take a value (`codex exec --help`,
// `codex exec resume --help` of 0.169.0; doc/codex.md). `--all` is resume's alone.
constexpr std::string_view kCodexValued[] = {"-c",
                                             "--config",
                                             "--enable",
                                             "--disable",
                                             "-i",
                                             "--image",
                                             "-m",
                                             "--model",
                                             "--local-provider",
                                             "-p",
                                             "--profile",
                                             "-s",
                                             "--sandbox",
                                             "-C",
                                             "--cd",
                                             "--add-dir",
                                             "--thread-source",
                                             "--cyber-access-program",
                                             "--output-schema",
                                             "--color",
                                             "-o",
                                             "--output-last-message",
                                             "--remote",
                                             "--remote-auth-token-env"};
constexpr std::string_view kCodexResumeOnly[] = {"--all"};
// codex-cli 0.171.0 (`codex exec --help`, `codex exec resume --help`): `--remote <ADDR>` runs the
// session in an app server elsewhere.
constexpr RefusedOption kCodexRefused[] = {
    {.option = "--remote",
     .why = "runs the session in another Codex app server, whose session files the completion "
            "watch cannot read and whose process the launch cannot hold, stop or retry"},
};
constexpr ErrorText kCodexTexts[] = {
    {"no rollout found for thread id", EC::stale_session},
    {"unexpected status 401", EC::fatal},
    {"Missing environment variable", EC::fatal},
    {"hit your usage limit", EC::fatal},
    {"Quota exceeded.", EC::fatal},
    {"exceeded retry limit, last status: 429", EC::retryable},
    {"unexpected status 503", EC::retryable},
    {"stream disconnected before completion", EC::retryable},
    {"experiencing high demand", EC::retryable},
    {"Selected model is at capacity", EC::retryable},
};

// `codex exec --json` reports a failure in its own events; item.* events carry the worker's
// commands, their output and its answers, and without --json stdout is only the last answer.
constexpr std::string_view kCodexFailureEvents[] = {"error", "turn.failed"};

constexpr AgentProfile kCodex = {
    "codex",
    "Codex CLI",
    kCodexPrograms,
    {"", "thread.started", "thread_id", "turn.started", "--json"},
    {.subcommand = "exec",
     .word = "resume",
     .short_word = "",
     .latest_flags = kCodexLatest,
     .valued_options = kCodexValued,
     .resume_only_flags = kCodexResumeOnly},
    &codex_session_file,
    {"event_msg", "payload", "type", "task_complete", {"payload", "last_agent_message"}, ""},
    {.texts = kCodexTexts,
     .exits = {},
     .generic_rules = true,
     .stdout_events = kCodexFailureEvents,
     .plain_stdout = false},
    kCodexRefused,
};

// gemini-cli 0.61.0: `--session-id <uuid>`, `--resume <id>` / `-r`; session records
// {"type":"gemini","content":<the answer's text>}; an unknown id: `Invalid session
// identifier "<id>"`. Exit statuses name the failure; an API error exits with its HTTP status
// mod 256, after the CLI itself retried 429, 499 and 5xx with backoff for minutes: the wrapper
// does not stack its retries on top.
constexpr std::string_view kGeminiPrograms[] = {"gemini"};
constexpr ErrorText kGeminiTexts[] = {
    {"Invalid session identifier", EC::stale_session},
    {"No previous sessions found for this project", EC::stale_session},
};
constexpr std::string_view kRetriedByGemini = "Gemini CLI retried it with backoff itself";
constexpr ExitMeaning kGeminiExits[] = {
    {41, EC::fatal, "authentication failed"},
    {42, EC::fatal, "the input was invalid"},
    {44, EC::fatal, "the sandbox failed"},
    {52, EC::fatal, "the configuration is invalid"},
    {53, EC::fatal, "the session's turn limit was reached"},
    {54, EC::fatal, "a tool failed"},
    {55, EC::fatal, "the workspace is not trusted"},
    {130, EC::fatal, "it was cancelled"},
    {145, EC::fatal, "HTTP 401: authentication failed"},
    {173, EC::fatal, kRetriedByGemini, true},  // 429
    {243, EC::fatal, kRetriedByGemini, true},  // 499
    {244, EC::fatal, kRetriedByGemini, true},  // 500
    {246, EC::fatal, kRetriedByGemini, true},  // 502
    {247, EC::fatal, kRetriedByGemini, true},  // 503
    {248, EC::fatal, kRetriedByGemini, true},  // 504
};

// stdout holds the answer (`-o text`) or JSON events whose failures are of type "error".
constexpr std::string_view kGeminiFailureEvents[] = {"error"};

constexpr AgentProfile kGemini = {
    "gemini",
    "Gemini CLI",
    kGeminiPrograms,
    {"--session-id", "", "", "", ""},
    {"", "--resume", "-r", {}},
    &gemini_session_file,
    {"gemini", "", "", "", {"content", ""}, ""},
    {.texts = kGeminiTexts,
     .exits = kGeminiExits,
     .generic_rules = false,
     .stdout_events = kGeminiFailureEvents,
     .plain_stdout = false},
};

// Qwen Code 0.24.4: `qwen -o stream-json --yolo --session-id <uuid> PROMPT` (an id that has a
// session already: "Error: Session Id <id> already exists (active or archived).", exit 1);
// `-r <id>` / `--resume <id>` resumes (same id, same file), `-c` / `--continue` the latest; an
// unknown id: "No saved session found with ID <id>.", exit 1. Its session file records no
// finished turn: `-o stream-json` ends one with {"type":"result","result":<the answer>} (`-o
// json` prints one JSON array once the run ends).
constexpr std::string_view kQwenPrograms[] = {"qwen"};
constexpr std::string_view kQwenLatest[] = {"--continue", "-c"};
constexpr ErrorText kQwenTexts[] = {
    {"No saved session found with ID", EC::stale_session},
    {"already exists (active or archived)", EC::fatal},
};

// stdout holds the answer (`-o text`) or JSON events whose report of the run is "result".
constexpr std::string_view kQwenFailureEvents[] = {"result"};

constexpr AgentProfile kQwen = {
    .name = "qwen",
    .display_name = "Qwen Code",
    .programs = kQwenPrograms,
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
};

constexpr std::array<const AgentProfile*, 4> kProfiles = {&kClaude, &kCodex, &kGemini, &kQwen};

}  // namespace

const AgentProfile& claude_profile() {
  return kClaude;
}

const AgentProfile* find_agent_profile(std::string_view name) {
  for (const AgentProfile* profile : kProfiles) {
    if (profile->name == name) return profile;
  }
  return nullptr;
}

std::span<const AgentProfile* const> agent_profiles() {
  return kProfiles;
}

}  // namespace fleet
