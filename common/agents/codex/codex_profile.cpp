#include "agents/codex/codex_profile.h"

#include "agents/codex/codex_session_file.h"

namespace fleet {
namespace {

using EC = ErrorClass;

// codex-cli 0.169.0: the id is a UUIDv7 Codex picks, printed by `codex exec --json` as
// {"type":"thread.started","thread_id":…}, then {"type":"turn.started"}, and only then do the
// SessionStart hooks run (before the first model request; observed here); `codex exec resume <id>
// [PROMPT]` (or --last); a finished turn appends
// {"type":"event_msg","payload":{"type":"task_complete", "last_agent_message":…}} to the rollout
// file; a resume of an unknown id says "no rollout found for thread id <id>" and exits 1 (run
// here).
constexpr std::string_view kCodexPrograms[] = {"codex"};
constexpr std::string_view kCodexPackages[] = {"@openai/codex"};
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
// What makes one run of codex-cli 0.169.0 skip the hooks (read from its code).
constexpr RunSwitch kCodexRunSwitches[] = {
    {.option = "--disable", .variable = "", .when = "hooks"},
    {.option = "-c", .variable = "", .when = "features.hooks=false"},
    {.option = "--ignore-user-config",
     .variable = "",
     .effect = "reads none of its hooks' trust, so runs no project hook"},
};

}  // namespace

constexpr AgentProfile kCodexProfile = {
    .name = "codex",
    .display_name = "Codex CLI",
    .programs = kCodexPrograms,
    .packages = kCodexPackages,
    .session_id = {.assign_option = "",
                   .stdout_event = "thread.started",
                   .stdout_key = "thread_id",
                   .turn_event = "turn.started",
                   .stdout_flag = "--json"},
    .resume = {.subcommand = "exec",
               .word = "resume",
               .short_word = "",
               .latest_flags = kCodexLatest,
               .valued_options = kCodexValued,
               .resume_only_flags = kCodexResumeOnly},
    .session_file = &codex_session_file,
    .session_file_shown = "$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl",
    .completion = {.record_type = "event_msg",
                   .container = "payload",
                   .subtype_key = "type",
                   .subtype = "task_complete",
                   .text_path = {"payload", "last_agent_message"},
                   .block_type = ""},
    .errors = {.texts = kCodexTexts,
               .exits = {},
               .generic_rules = true,
               .stdout_events = kCodexFailureEvents,
               .plain_stdout = false},
    .refused_options = kCodexRefused,
    .run_switches = kCodexRunSwitches,
};

}  // namespace fleet
