#include "store/store_query.h"

#include <fcntl.h>
#include <cerrno>

#include "base/error.h"
#include "base/files.h"
#include "base/json.h"
#include "base/line_scan.h"
#include "base/paths.h"

namespace fleet {
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

}  // namespace fleet
