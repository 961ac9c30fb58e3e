#pragma once
// The resume-ownership decision of resume-guard (doc/resume-guard.md, "Decision table"),
// on a request read out of a hook input (resume_request.h), and the names of its verdicts.
// The guard never allows: it denies, advises, or stays silent.
// Failing: nothing here throws for an expected outcome (this is the guard's hot path): input
// the guard cannot read, and a store it cannot use, are decisions (silent with a log line, an
// advisory, or a deny under --strict).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "guard/resume_request.h"

namespace fleet {

// The guard's verdict, named the same wherever it is shown (the `fleet-hooks query` verdict,
// the `fleet-hooks replay` outcomes).
enum class Verdict {
  silent,    // no output: the agent CLI's own permission rules apply (the call proceeds)
  deny,      // a deny in the agent CLI's dialect: the CLI does not call the tool
  advisory,  // a systemMessage: nothing is decided (the call proceeds)
};

// "silent", "deny" or "advisory".
const char* to_string(Verdict verdict);

// The verdict `name` names, nullopt for any other word.
std::optional<Verdict> parse_verdict(std::string_view name);

struct GuardOptions {
  std::string state_dir;   // --state-dir ("" resolves as doc/files.md, "State directory", says)
  std::string kitchen_id;  // --kitchen-id ("" resolves from the environment)
  std::vector<std::string> tools;   // --tool: more dispatch tool names
  bool strict = false;              // deny when the store cannot vouch for the session
  const AgentCli* agent = nullptr;  // --agent: whose hook input is read and answered
  // A case of `fleet-hooks replay`, which must decide the same wherever it is replayed: from
  // the request and the store's records alone — the kitchen is `kitchen_id` ("": none),
  // never the environment's; the store's owner and mode (a checkout's) are not judged; and
  // nothing is written beside it (no index).
  bool policy_case = false;
};

struct GuardDecision {
  Verdict verdict = Verdict::silent;
  std::string message;             // deny: the reason; advisory: the message shown to the user
  std::optional<std::string> log;  // one line for stderr, when there is one
  // The rule of the decision table that decided, as a stable short name (the guard log's
  // `rule`, doc/resume-guard.md): "not-a-resume", "unreadable-input", "malformed",
  // "invalid-id", "self-resume", "store-unlocatable", "store-untrusted", "store-missing",
  // "store-unreadable", "unrecorded", "ambiguous-prefix", "orchestrator-session",
  // "caller-owns", "kitchen-owns", "not-owner"; a static string.
  const char* rule = "not-a-resume";

  // What the hook prints on stdout: the JSON of a deny or an advisory in `agent`'s dialect;
  // nullopt when silent.
  std::optional<std::string> output(const AgentCli& agent) const;
};

// Decides on one request (the decision table, rule by rule).
GuardDecision decide_resume(const ResumeRequest& request, const GuardOptions& options);

// The state directory the guard judges a request from `hook_cwd` with (resolve_state_dir of
// --state-dir): where its store is, and where its log goes (guard/guard_log.h). The one
// function here that throws: Error for an invalid $AUTOSKILLIT_CAMPAIGN_ID.
std::string guard_state_dir(const GuardOptions& options, std::string_view hook_cwd);

// guard_state_dir for `request`'s cwd, absolute; "" where it cannot be resolved (never throws).
std::string judged_state_dir(const GuardOptions& options, const ResumeRequest& request);

}  // namespace fleet
