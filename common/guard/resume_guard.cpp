#include "guard/resume_guard.h"

#include "base/error.h"
#include "base/ids.h"
#include "base/paths.h"
#include "store/provenance_store.h"
#include "store/store_safety.h"

namespace fleet {
namespace {

constexpr std::size_t kMinSelfPrefix = 8;

GuardDecision silent(const char* rule) {
  GuardDecision decision;
  decision.rule = rule;
  return decision;
}

GuardDecision deny(const char* rule, std::string reason) {
  return {Verdict::deny, std::move(reason), std::nullopt, rule};
}

// Input the guard cannot read: silent with a stderr line, or a deny under --strict.
GuardDecision unreadable_input(const std::string& why, const GuardOptions& options) {
  if (options.strict) {
    return deny("unreadable-input",
                "resume-guard could not read this tool call (" + why +
                    ") and runs with --strict, so the dispatch is refused. Retry the call with "
                    "well-formed input.");
  }
  return {Verdict::silent, "", "resume-guard: " + why + "; no decision made", "unreadable-input"};
}

// The store cannot vouch for the session: advise (fail open), or deny under --strict.
GuardDecision unverified(const char* rule, const std::string& id, const std::string& why,
                         const GuardOptions& options) {
  if (options.strict) {
    return deny(rule,
                "Refused to resume session '" + id + "': " + why +
                    ", and resume-guard runs with --strict. Resume only sessions recorded by "
                    "provenance-writer, or dispatch a fresh session without resume_session_id.");
  }
  std::string message =
      "resume-guard: resume of session '" + id + "' was not checked: " + why + ".";
  return {Verdict::advisory, message, message, rule};
}

std::string or_none(const std::string& value) {
  return value.empty() ? "(none)" : value;
}

std::string named_matches(const std::vector<std::string>& matches) {
  std::string names;
  for (const std::string& match : matches) names += (names.empty() ? "" : ", ") + match;
  return names;
}

bool is_self(std::string_view resume_id, std::string_view caller) {
  if (caller.empty()) return false;
  return resume_id == caller ||
         (resume_id.size() >= kMinSelfPrefix && caller.starts_with(resume_id));
}

GuardDecision self_resume(const std::string& id, std::string_view caller) {
  return deny("self-resume",
              "Refused to resume session '" + id + "': it is this session's own id (" +
                  std::string(caller) +
                  "), and a session cannot resume itself. Pass the id of a worker session you "
                  "dispatched, or omit resume_session_id to dispatch a fresh one.");
}

// Rules 2 to 7, for a valid id.
GuardDecision decide_for_id(const std::string& id, std::string_view caller,
                            std::string_view hook_cwd, const GuardOptions& options) {
  if (is_self(id, caller)) return self_resume(id, caller);

  std::string store;
  std::optional<std::string> kitchen;
  try {
    store = provenance_store_path(guard_state_dir(options, hook_cwd));
    kitchen = !options.policy_case         ? resolve_kitchen_id(options.kitchen_id)
              : options.kitchen_id.empty() ? std::nullopt
                                           : std::optional<std::string>(options.kitchen_id);
  } catch (const Error& e) {
    return unverified("store-unlocatable", id,
                      std::string("the provenance store could not be located (") + e.what() + ")",
                      options);
  }

  if (const StoreSafety safety = options.policy_case ? StoreSafety{} : store_safety(store);
      !safety.safe) {
    return unverified("store-untrusted", id,
                      "the provenance store cannot be trusted: " + safety.problem +
                          " (to fix: " + safety.fix + ")",
                      options);
  }
  StoreLookup found = lookup_session(store, id, !options.policy_case);
  switch (found.status) {
    case StoreLookup::Status::missing:
      return unverified("store-missing", id, "the provenance store " + store + " does not exist",
                        options);
    case StoreLookup::Status::unreadable:
      return unverified("store-unreadable", id,
                        "the provenance store is unreadable (" + found.error + ")", options);
    case StoreLookup::Status::not_found:
      return unverified("unrecorded", id, "it has no provenance record in " + store, options);
    case StoreLookup::Status::ambiguous:
      return deny("ambiguous-prefix",
                  "Refused to resume '" + id +
                      "': it is the start of more than one recorded session id (" +
                      named_matches(found.matches) + ", ...). Pass the full session id.");
    case StoreLookup::Status::found:
      break;
  }

  const ProvenanceRecord& owner = found.record;
  if (owner.session_id != id && owner.session_id == caller) return self_resume(id, caller);
  if (owner.recipe_name.empty()) {
    return deny("orchestrator-session",
                "Refused to resume session '" + owner.session_id +
                    "': its provenance record has no recipe_name, so it is an L3 orchestrator "
                    "session, not a worker. Only worker sessions can be resumed through the "
                    "dispatch tool; dispatch a fresh worker instead.");
  }
  if (!owner.caller_session_id.empty() && owner.caller_session_id == caller)
    return silent("caller-owns");
  if (!owner.kitchen_id.empty() && owner.kitchen_id == kitchen) return silent("kitchen-owns");
  return deny("not-owner",
              "Refused to resume session '" + owner.session_id + "': it was dispatched by " +
                  or_none(owner.caller_session_id) + " in kitchen " + or_none(owner.kitchen_id) +
                  ", not by this session (" + (caller.empty() ? "none" : std::string(caller)) +
                  ") or this kitchen (" + kitchen.value_or("none") +
                  "). Resume it from the orchestrator or kitchen that owns it, or dispatch a fresh "
                  "session.");
}

}  // namespace

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::deny:
      return "deny";
    case Verdict::advisory:
      return "advisory";
    case Verdict::silent:
      break;
  }
  return "silent";
}

std::optional<Verdict> parse_verdict(std::string_view name) {
  for (const Verdict verdict : {Verdict::silent, Verdict::deny, Verdict::advisory}) {
    if (name == to_string(verdict)) return verdict;
  }
  return std::nullopt;
}

std::optional<std::string> GuardDecision::output(const AgentCli& agent) const {
  switch (verdict) {
    case Verdict::deny:
      return pre_tool_use_deny(message, agent);
    case Verdict::advisory:
      return advisory(message, agent);
    case Verdict::silent:
      break;
  }
  return std::nullopt;
}

GuardDecision decide_resume(const ResumeRequest& request, const GuardOptions& options) {
  switch (request.kind) {
    case ResumeRequest::Kind::none:
      return silent("not-a-resume");
    case ResumeRequest::Kind::unreadable:
      return unreadable_input(request.problem, options);
    case ResumeRequest::Kind::not_a_string:
      return deny("malformed",
                  "Refused: resume_session_id must be a session id string, but it is a JSON " +
                      request.problem +
                      ". Pass the worker's session id as a string, or omit it to dispatch a fresh "
                      "session.");
    case ResumeRequest::Kind::resume:
      break;
  }
  if (request.resume_id.empty()) return silent("not-a-resume");
  const std::string id(request.resume_id);
  if (const auto problem = id_problem("resume_session_id", id)) {
    return deny("invalid-id",
                "Refused: " + *problem +
                    ", so it cannot be a recorded session. Pass the worker's session id exactly as "
                    "it was dispatched.");
  }
  return decide_for_id(id, request.caller, request.cwd, options);
}

std::string guard_state_dir(const GuardOptions& options, std::string_view hook_cwd) {
  return resolve_state_dir(options.state_dir, hook_cwd);
}

std::string judged_state_dir(const GuardOptions& options, const ResumeRequest& request) {
  try {
    return absolute_path(guard_state_dir(options, request.cwd));
  } catch (const std::exception&) {
    return "";
  }
}

}  // namespace fleet
