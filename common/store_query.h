#pragma once
// `fleet-hooks query`: the records of a session, a caller or a kitchen.

#include <string>
#include <vector>

#include "provenance_record.h"

namespace fleet {

enum class RecordField { session_id, caller_session_id, kitchen_id };

// Every record whose `field` equals `value`, in store order (only lines containing `value`
// are parsed). A missing store has no records. Throws Error when it cannot be read.
std::vector<ProvenanceRecord> find_records(const std::string& store_path, RecordField field,
                                           const std::string& value);

// One record per line, as stored (sorted keys).
std::string records_text(const std::vector<ProvenanceRecord>& records);

}  // namespace fleet
