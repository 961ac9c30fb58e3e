#include "provenance_store.h"

#include <cerrno>
#include <fcntl.h>
#include <unordered_set>

#include "error.h"
#include "files.h"
#include "ids.h"
#include "line_scan.h"

namespace fleet {

StoreLookup lookup_session(const std::string& store_path, std::string_view id) {
  StoreLookup result;
  UniqueFd fd;
  if (const int code = try_open_regular_file(store_path, O_RDONLY, 0, fd, result.error)) {
    result.status = code == ENOENT ? StoreLookup::Status::missing : StoreLookup::Status::unreadable;
    return result;
  }

  const bool may_be_prefix = !is_uuid(id);
  std::vector<ProvenanceRecord> prefixed;  // first record of each session `id` prefixes
  std::unordered_set<std::string> prefixed_ids;
  bool found = false;
  try {
    scan_lines_containing(fd.get(), id, [&](std::string_view line, std::uint64_t) {
      auto record = parse_provenance_line(line);
      if (!record) {
        ++result.skipped_lines;
        return true;
      }
      if (record->session_id == id) {
        result.record = std::move(*record);
        found = true;
        return false;  // the first record is authoritative
      }
      if (may_be_prefix && std::string_view(record->session_id).starts_with(id)) {
        if (prefixed_ids.insert(record->session_id).second) prefixed.push_back(std::move(*record));
      }
      return true;
    });
  } catch (const Error& e) {
    result.status = StoreLookup::Status::unreadable;
    result.error = e.what();
    return result;
  }

  if (found) {
    result.status = StoreLookup::Status::found;
  } else if (prefixed.size() == 1) {
    result.status = StoreLookup::Status::found;
    result.record = std::move(prefixed.front());
  } else if (prefixed.size() > 1) {
    result.status = StoreLookup::Status::ambiguous;
    for (const auto& record : prefixed) result.matches.push_back(record.session_id);
  }
  return result;
}

void append_record(const std::string& store_path, const ProvenanceRecord& record,
                   const AppendOptions& options) {
  const std::string problem = record_problem(record);
  if (!problem.empty()) throw Error(problem);
  append_jsonl(store_path, to_json_line(record), options);
}

}  // namespace fleet
