#include "agents/copilot/copilot_profile.h"

#include "agents/copilot/copilot_session_file.h"

namespace fleet {
namespace {

using EC = ErrorClass;

// GitHub Copilot CLI 1.0.102 (doc/copilot.md): `copilot -p … --session-id <uuid>` names a new
// session, but resumes one that exists (and an id that names none starts a new session under
// it, silently); `--resume <id>` / `-r` also takes a prefix or a session's name, and without a
// value, like --continue, the latest session. An unknown resume: "Error: No session, task, or
// name matched '<id>'." on stderr, exit 1. The session's events are
// ~/.copilot/session-state/<id>/events.jsonl; each answer is {"type":"assistant.message",
// "data":{"content":<its text>,…}}, a -p run ends with "session.shutdown", and a resume appends
// to the same file after the old shutdown.
constexpr std::string_view kCopilotPrograms[] = {"copilot"};
constexpr std::string_view kCopilotPackages[] = {"@github/copilot"};
constexpr std::string_view kCopilotLatest[] = {"--continue"};
constexpr RefusedOption kCopilotRefused[] = {
    {.option = "--connect",
     .why = "attaches to a remote session, whose events the completion watch cannot read and "
            "whose process the launch cannot hold, stop or retry"},
};
constexpr ErrorText kCopilotTexts[] = {
    {"No session, task, or name matched", EC::stale_session},
};

}  // namespace

constexpr AgentProfile kCopilotProfile = {
    .name = "copilot",
    .display_name = "GitHub Copilot CLI",
    .programs = kCopilotPrograms,
    .packages = kCopilotPackages,
    .session_id = {.assign_option = "--session-id",
                   .stdout_event = "",
                   .stdout_key = "",
                   .turn_event = "",
                   .stdout_flag = "",
                   .assign_resumes_existing = true},
    .resume = {.subcommand = "",
               .word = "--resume",
               .short_word = "-r",
               .latest_flags = kCopilotLatest,
               .valued_options = {},
               .resume_only_flags = {},
               .full_id_only = true},
    .session_file = &copilot_session_file,
    .session_file_shown = "$COPILOT_HOME/session-state/<session id>/events.jsonl",
    .completion = {.record_type = "assistant.message",
                   .container = "",
                   .subtype_key = "",
                   .subtype = "",
                   .text_path = {"data", "content"},
                   .block_type = ""},
    .errors = {.texts = kCopilotTexts,
               .exits = {},
               .generic_rules = true,
               .stdout_events = {},
               .plain_stdout = false},
    .refused_options = kCopilotRefused,
    .completion_on_stdout = {},
};

}  // namespace fleet
