#pragma once
// The provenance store, session_provenance.jsonl: appending records and finding the
// authoritative (first) record of a session.
// Failing: a lookup never throws (a store that is missing or unreadable is a StoreLookup
// status); an append that stores nothing throws Error, one that stores the record returns.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/jsonl_append.h"
#include "store/provenance_record.h"

namespace fleet {

struct StoreLookup {
  enum class Status {
    found,       // `record` is the first record of the session
    not_found,   // no record names the session
    ambiguous,   // `matches` names two of the sessions a short id is the start of (which
                 // two depends on the order the lookup met them)
    missing,     // the store does not exist
    unreadable,  // `error` says why
  };
  Status status = Status::not_found;
  ProvenanceRecord record;
  std::vector<std::string> matches;
  std::string error;
  std::uint64_t skipped_lines = 0;    // candidate lines that were not valid records
  std::uint64_t candidate_lines = 0;  // lines the answer was looked for in (read or parsed)
  bool used_index = false;            // answered from the index (it described the store exactly)
  bool rebuilt_index = false;         // the lookup rebuilt the index first (maintain_index)
};

// Finds the first record whose session_id is `id`. When there is none and `id` is not a
// UUID, a short id that prefixes exactly one recorded session resolves to that session's
// first record; one that prefixes several is ambiguous, and the lookup stops collecting at
// the second session (it then only looks for the id itself): time and memory do not grow with
// how many sessions a short id is the start of. Only candidate lines are parsed: those the
// index (provenance_index.h) points at when it describes the store exactly as it is, else
// every line containing `id`. Either way the answer is the one a scan of the whole store gives.
// With `maintain_index`, a lookup that finds the index out of date (another program wrote
// the store) rebuilds it first when it can take the store's lock without waiting and write
// the state directory, so that later lookups are fast again; otherwise it scans.
StoreLookup lookup_session(const std::string& store_path, std::string_view id,
                           bool maintain_index = false);

// What an append that stored its record has to tell.
struct AppendedRecord {
  // Why the index could not be brought up to date ("the record is stored, but its index was
  // not updated: …"): the record is stored and readers still find it (they scan). Absent
  // when the index is up to date.
  std::optional<std::string> index_warning;
};

// Validates `record` (record_problem), refuses a store others could write (store_safety.h),
// and appends it under the store's lock, then removes temporaries a dead compaction left and
// brings the index up to date under the same lock. Throws Error when the record is invalid,
// the store unsafe or the append fails (nothing is stored); a stored record is an
// AppendedRecord, with a warning when only its index could not be updated.
AppendedRecord append_record(const std::string& store_path, const ProvenanceRecord& record,
                             const AppendOptions& options);

// What `provenance-writer record` is given.
struct RecordRequest {
  ProvenanceRecord record;  // the fields given on the command line (record_to_append)
  DispatchCall call;        // --mcp-call, --mcp-meta: what names its caller
  std::string state_dir;    // --state-dir ("": as launch_state_dir finds it)
  AppendOptions append;
};

// What became of a RecordRequest, and its line for stderr, if any.
struct RecordOutcome {
  enum class Status {
    stored,   // `message`: why the index was not updated, when it was not ("warning: …")
    refused,  // the request names no caller or breaks a rule (a usage error): `message`
    failed,   // nothing was stored: `message` says why ("…; nothing written")
  };
  Status status = Status::stored;
  std::optional<std::string> message;
};

// Appends the record `request` describes (record_to_append: its caller, when not given, learnt
// as launch-wrapper --record-provenance learns it, among the agent CLIs `known`) to the
// provenance store of its state directory: the one --state-dir or the environment names, else
// the one the guard judged the caller's dispatch calls with (launch_state_dir), as
// launch-wrapper records. Never throws.
RecordOutcome append_requested_record(const RecordRequest& request, const CallerClis& known);

}  // namespace fleet
