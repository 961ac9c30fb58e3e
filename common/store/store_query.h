#pragma once
// `fleet-hooks query`: the records of a session, a caller or a kitchen (the guard's verdict on
// resuming a session is guard/resume_verdict.h).
// Failing: a store that cannot be read throws Error; a missing store has no records.

#include <string>
#include <vector>

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

}  // namespace fleet
