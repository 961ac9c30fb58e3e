#pragma once
// `fleet-hooks query`: the records of a session, a caller or a kitchen, and the guard's verdict
// on resuming a session.
// Failing: a store that cannot be read throws Error; a missing store has no records; the
// verdict never throws (it is the guard's decision, advisory when the store cannot vouch).

#include <string>
#include <vector>

#include "guard/resume_guard.h"
#include "store/provenance_record.h"
#include "store/provenance_store.h"

namespace fleet {

// Every record whose `field` (provenance_record.h) equals `value`, in store order (only lines
// containing `value` are parsed). A missing store has no records. Throws Error when it cannot be
// read.
std::vector<ProvenanceRecord> find_records(const std::string& store_path, RecordField field,
                                           const std::string& value);

// One record per line, as stored (sorted keys).
std::string records_text(const std::vector<ProvenanceRecord>& records);

struct SessionRecords {
  StoreLookup::Status status =
      StoreLookup::Status::not_found;     // found, not_found, ambiguous, missing
  std::string session_id;                 // the session `id` resolved to (when found)
  std::vector<std::string> matches;       // when ambiguous: the sessions `id` is the start of
  std::vector<ProvenanceRecord> records;  // every record of the session, in store order
};

// The records of the session `id` names, resolved exactly as resume-guard resolves a
// resume_session_id (lookup_session): the exact id, or a short id (not a UUID) that is the
// start of exactly one recorded session. Throws Error when the store cannot be read.
SessionRecords find_session_records(const std::string& store_path, const std::string& id);

// The guard's verdict on `caller` resuming `session`, for a person: "verdict for caller 'C':
// silent|advisory: …|deny: …", or as one JSON object {"verdict", "caller", "session",
// "reason"} (verdict "silent", "advisory" or "deny", as to_string(Verdict) names them; reason
// "" when there is none).
std::string verdict_text(const std::string& caller, const GuardDecision& decision);
std::string verdict_json(const std::string& caller, const std::string& session,
                         const GuardDecision& decision);

struct VerdictQuery {
  std::string state_dir;   // the store's directory
  std::string session;     // the resume_session_id to judge
  std::string caller;      // "": $CLAUDE_CODE_SESSION_ID
  std::string kitchen_id;  // the current kitchen ("": from the environment, as the guard reads it)
  bool json = false;       // verdict_json rather than verdict_text
};

// `fleet-hooks query --session`'s verdict line: the guard's decision (decide_resume) on the
// caller's request to resume the session through the dispatch tool.
std::string query_verdict(const VerdictQuery& query);

}  // namespace fleet
