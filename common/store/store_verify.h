#pragma once
// `fleet-hooks verify`: every line of the provenance store checked against the format in
// doc/files.md. The store's own rules live here (blank lines, a torn last line,
// later duplicates); each record line is checked by the record's validator
// (provenance_record.h, check_provenance_line).
// Failing: what is wrong with the store is the verification's list of problems; a store
// that cannot be read throws Error.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fleet {

struct StoreProblem {
  std::uint64_t line = 0;  // 1-based
  std::string kind;        // e.g. "not-json", "missing-field", "invalid-id", "torn-tail"
  std::string detail;
  bool error = true;  // false: a warning
};

struct StoreVerification {
  bool exists = false;
  std::uint64_t lines = 0;
  std::uint64_t records = 0;     // complete lines readers accept as records (warnings or not)
  std::uint64_t sessions = 0;    // distinct session ids among them
  std::uint64_t duplicates = 0;  // later records of a recorded session (allowed; first wins)
  std::map<std::string, std::uint64_t> counts;  // problems per kind
  std::vector<StoreProblem> problems;           // the first ones, in file order
  std::uint64_t errors = 0;                     // problems that are errors (listed or not)
  bool has_errors() const;
};

// Checks each line. A line readers skip — not JSON, not an object, no non-empty string
// session_id — is an error, which `fleet-hooks compact` clears (it drops such lines). A record
// readers accept is at most a warning, saying what it means for the guard: a field that is
// absent or not a string (read as empty), an id that is not valid. A blank line or a torn last
// line (no '\n') is a warning too; compact drops them. Throws Error when the store cannot be
// read.
StoreVerification verify_store(const std::string& store_path, std::size_t max_listed = 20);

std::string verification_text(const StoreVerification& result, const std::string& store_path);
std::string verification_json(const StoreVerification& result, const std::string& store_path);

}  // namespace fleet
