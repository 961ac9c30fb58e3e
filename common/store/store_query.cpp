#include "store/store_query.h"

#include <fcntl.h>
#include <cerrno>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/line_scan.h"
#include "base/paths.h"

namespace fleet {
namespace {}  // namespace

std::vector<ProvenanceRecord> find_records(const std::string& store_path, RecordField field,
                                           const std::string& value) {
  std::vector<ProvenanceRecord> found;
  const std::optional<UniqueFd> fd = open_regular_file_if_exists(store_path, O_RDONLY);
  if (!fd) return found;
  scan_lines_containing(fd->get(), 0, value, [&](std::string_view line, std::uint64_t) {
    auto record = parse_provenance_line(line);
    if (record && field_value(*record, field) == value) found.push_back(std::move(*record));
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
  return "verdict for caller '" + caller + "': " + to_string(decision.verdict) +
         (decision.message.empty() ? "" : ": " + decision.message) + "\n";
}

std::string verdict_json(const std::string& caller, const std::string& session,
                         const GuardDecision& decision) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("verdict", rapidjson::StringRef(to_string(decision.verdict)), alloc);
  doc.AddMember("caller", json_string(caller, alloc), alloc);
  doc.AddMember("session", json_string(session, alloc), alloc);
  doc.AddMember("reason", json_string(decision.message, alloc), alloc);
  return to_json(doc) + "\n";
}

std::string query_verdict(const VerdictQuery& query) {
  const std::string caller =
      query.caller.empty() ? env_value("CLAUDE_CODE_SESSION_ID") : query.caller;
  GuardOptions options;
  options.state_dir = query.state_dir;
  options.kitchen_id = query.kitchen_id;
  const GuardDecision decision = decide_resume(resume_request(caller, query.session), options);
  return query.json ? verdict_json(caller, query.session, decision)
                    : verdict_text(caller, decision);
}

}  // namespace fleet
