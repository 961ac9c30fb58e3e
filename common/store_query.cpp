#include "store_query.h"

#include <fcntl.h>
#include <cerrno>

#include "error.h"
#include "files.h"
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

}  // namespace

std::vector<ProvenanceRecord> find_records(const std::string& store_path, RecordField field,
                                           const std::string& value) {
  std::vector<ProvenanceRecord> found;
  UniqueFd fd;
  std::string error;
  if (const int code = try_open_regular_file(store_path, O_RDONLY, 0, fd, error)) {
    if (code == ENOENT) return found;
    throw Error(error, code);
  }
  scan_lines_containing(fd.get(), 0, value, [&](std::string_view line, std::uint64_t) {
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

}  // namespace fleet
