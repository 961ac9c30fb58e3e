#include "agents/gemini/gemini_profile.h"

#include "agents/gemini/gemini_session_file.h"

namespace fleet {
namespace {

using EC = ErrorClass;

// gemini-cli 0.61.0: `--session-id <uuid>`, `--resume <id>` / `-r`; session records
// {"type":"gemini","content":<the answer's text>}; an unknown id: `Invalid session
// identifier "<id>"`. Exit statuses name the failure; an API error exits with its HTTP status
// mod 256, after the CLI itself retried 429, 499 and 5xx with backoff for minutes: the wrapper
// does not stack its retries on top.
constexpr std::string_view kGeminiPrograms[] = {"gemini"};
constexpr std::string_view kGeminiPackages[] = {"@google/gemini-cli"};
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

}  // namespace

constexpr AgentProfile kGeminiProfile = {
    .name = "gemini",
    .display_name = "Gemini CLI",
    .programs = kGeminiPrograms,
    .packages = kGeminiPackages,
    .session_id = {.assign_option = "--session-id",
                   .stdout_event = "",
                   .stdout_key = "",
                   .turn_event = "",
                   .stdout_flag = ""},
    .resume = {.subcommand = "", .word = "--resume", .short_word = "-r", .latest_flags = {}},
    .session_file = &gemini_session_file,
    .session_file_shown = "~/.gemini/tmp/<project short name>/chats/session-<time>-<id[0:8]>.jsonl",
    .completion = {.record_type = "gemini",
                   .container = "",
                   .subtype_key = "",
                   .subtype = "",
                   .text_path = {"content", ""},
                   .block_type = ""},
    .errors = {.texts = kGeminiTexts,
               .exits = kGeminiExits,
               .generic_rules = false,
               .stdout_events = kGeminiFailureEvents,
               .plain_stdout = false},
};

}  // namespace fleet
