#pragma once
// What launch-wrapper needs to know of an agent CLI (Claude Code, Codex CLI, Gemini CLI), one
// table per CLI, looked up by the name `--agent` takes (agent/agent_cli.h holds the hook side):
// which command line is the agent's own, how a session id is given or learned, how a session
// is resumed, where its session file is and which record in it (or on its stdout) finishes
// a turn, and which of its failures are worth another attempt. The types only: each CLI's row is in
// its home, common/agents/<name>/, and agents/agents.h lists them (doc/development.md, "Adding a
// CLI").

#include <span>
#include <string>
#include <string_view>

#include "agent/completion_record.h"
#include "agent/error_form.h"
#include "agent/hook_switches.h"

namespace fleet {

// How the CLI resumes a session: `word` <id>, right after the program name when `subcommand`
// is empty (Claude Code, Gemini: "--resume <id>"), else right after that subcommand word
// (Codex: "exec resume <id>"). `short_word` is another spelling of `word`; `latest_flags`
// resume the most recent session without an id (Claude Code's --continue, Codex's --last).
// With a subcommand, the resume word is the first word after it that is neither an option nor
// the value of one of `valued_options` (the options of the subcommand and of its resume that
// take a value, e.g. Codex's `-m <MODEL>`), and the id is the next such word;
// `resume_only_flags` belong to the resume alone and go with it (Codex's --all).
struct ResumeForm {
  std::string_view subcommand;
  std::string_view word;
  std::string_view short_word;
  std::span<const std::string_view> latest_flags;
  std::span<const std::string_view> valued_options = {};
  std::span<const std::string_view> resume_only_flags = {};
  // The CLI also resumes by an id's prefix, a session's name or the latest session (GitHub
  // Copilot CLI's --resume): a launch resumes only by a full id (a UUID), which it can verify,
  // and refuses the other forms.
  bool full_id_only = false;
};

// How the launch knows the session id. `assign_option`: the option that gives the CLI its id
// ("" : the CLI picks its own). `stdout_event`/`stdout_key`: the JSON line on the agent's
// stdout whose "type" is `stdout_event` names the id in member `stdout_key` ("" : none).
// `turn_event`: any line after the one of this type comes after the session's start hooks
// have run (they run before the turn's first model request); "" : the line naming the id does.
// `stdout_flag`: the option without which the CLI prints no such lines, as a user writes it:
// a flag ("--json") or an option and its value ("--format json").
struct SessionIdForm {
  std::string_view assign_option;
  std::string_view stdout_event;
  std::string_view stdout_key;
  std::string_view turn_event;
  std::string_view stdout_flag;
  // `assign_option` with the id of a session that exists resumes it (GitHub Copilot CLI's
  // --session-id), and one that names no session starts it: a launch gives it new ids only.
  bool assign_resumes_existing = false;
  // The hook that records a launch under the id the CLI picked (`assign_option` empty), as a
  // message tells the user to wire it.
  std::string_view start_hook = "SessionStart hook";
};

// An option of the CLI that a launch cannot supervise, and why (for the refusal).
struct RefusedOption {
  std::string_view option;  // "--remote" (also "--remote=<value>")
  std::string_view why;
};

// A CLI whose session file records no finished turn reports it on its stdout when run with
// `option` (or `short_option`) `value`: the completion watch then reads the records of the
// profile's `completion` form there, as they pass through (stdout_completion.h).
struct StdoutCompletionForm {
  std::string_view option;  // "" : the completion watch reads the session file
  std::string_view short_option;
  std::string_view value;
};

struct AgentProfile {
  std::string_view name;                       // as --agent takes it: "claude", "codex", "gemini"
  std::string_view display_name;               // "Claude Code"
  std::span<const std::string_view> programs;  // base names of its command: "claude"
  // The npm packages whose scripts run it under a JavaScript runtime, as a script's path shows
  // them ("@qwen-code/qwen-code": Qwen Code runs as `node --expose-gc …/qwen-code/cli.js`);
  // with `programs`, how a running process is known for this CLI (process/agent_process.h).
  std::span<const std::string_view> packages = {};
  SessionIdForm session_id;
  ResumeForm resume;
  // The session file of `session_id` for working directory `cwd`, "" when it is not found
  // (yet): a file whose name the CLI chooses when the session starts is found once it exists.
  // nullptr for a CLI whose completion is read on its stdout (completion_on_stdout).
  std::string (*session_file)(const std::string& session_id, const std::string& cwd);
  // Where `session_file` finds it, as --help shows a person: "~/.claude/projects/<munged
  // cwd>/<session id>.jsonl"; "" with no session_file.
  std::string_view session_file_shown = {};
  CompletionRecordForm completion;
  ErrorForm errors;
  std::span<const RefusedOption> refused_options = {};
  StdoutCompletionForm completion_on_stdout = {};
  // What makes one run of the CLI skip the hooks (hook_switches.h): launch-wrapper warns.
  std::span<const RunSwitch> run_switches = {};
};

// The name ending of a session file kept compressed (zstd), which nothing here decompresses
// (Codex's rollout-…-<id>.jsonl.zst).
inline constexpr std::string_view kCompressedSuffix = ".zst";

}  // namespace fleet
