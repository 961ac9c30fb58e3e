#include "store_query.h"

#include <fcntl.h>
#include <cerrno>

#include "error.h"
#include "files.h"
#include "json.h"
#include "line_scan.h"

namespace fleet {
namespace {

const std::string& field_of(const ProvenanceRecord& record, RecordField field) {
  switch (field) {
    case RecordField::session_id:
      return record.session_id;
    case RecordField::caller_session_id:
      return record.caller_session_id;
    case RecordField::kitchen_id:
      break;
  }
  return record.kitchen_id;
}

const char* verdict_name(GuardDecision::Kind kind) {
  switch (kind) {
    case GuardDecision::Kind::deny:
      return "deny";
    case GuardDecision::Kind::advisory:
      return "advisory";
    case GuardDecision::Kind::silent:
      break;
  }
  return "allowed";
}

}  // namespace

std::vector<ProvenanceRecord> find_records(const std::string& store_path, RecordField field,
                                           const std::string& value) {
  std::vector<ProvenanceRecord> found;
  const std::optional<UniqueFd> fd = open_regular_file_if_exists(store_path, O_RDONLY);
  if (!fd) return found;
  scan_lines_containing(fd->get(), 0, value, [&](std::string_view line, std::uint64_t) {
    auto record = parse_provenance_line(line);
    if (record && field_of(*record, field) == value) found.push_back(std::move(*record));
    return true;
  });
  return found;
}

std::string records_text(const std::vector<ProvenanceRecord>& records) {
  std::string text;
  for (const auto& record : records) text += to_json_line(record) + "\n";
  return text;
}

SessionRecords find_session_records(const std::string& store_path, const std::string& id) {
  SessionRecords result;
  StoreLookup lookup = lookup_session(store_path, id);
  if (lookup.status == StoreLookup::Status::unreadable) throw Error(lookup.error);
  result.status = lookup.status;
  result.matches = std::move(lookup.matches);
  if (lookup.status == StoreLookup::Status::found) {
    result.session_id = lookup.record.session_id;
    result.records = find_records(store_path, RecordField::session_id, result.session_id);
  }
  return result;
}

std::string verdict_text(const std::string& caller, const GuardDecision& decision) {
  return "verdict for caller '" + caller + "': " + verdict_name(decision.kind) +
         (decision.message.empty() ? "" : ": " + decision.message) + "\n";
}

std::string verdict_json(const std::string& caller, const std::string& session,
                         const GuardDecision& decision) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("verdict", rapidjson::StringRef(verdict_name(decision.kind)), alloc);
  doc.AddMember("caller", json_string(caller, alloc), alloc);
  doc.AddMember("session", json_string(session, alloc), alloc);
  doc.AddMember("reason", json_string(decision.message, alloc), alloc);
  return to_json(doc) + "\n";
}

}  // namespace fleet
