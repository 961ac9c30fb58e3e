#include "store/store_compact.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <unordered_set>

#include "base/error.h"
#include "base/files.h"
#include "store/jsonl_append.h"
#include "base/line_scan.h"
#include "store/provenance_index.h"
#include "store/provenance_record.h"
#include "store/store_temporary.h"

namespace fleet {

CompactionReport compact_store(const std::string& store_path) {
  CompactionReport report;
  std::optional<UniqueFd> opened = open_locked_jsonl_if_exists(store_path);
  if (!opened) return report;
  const UniqueFd store = std::move(*opened);
  report.existed = true;
  std::string kept;
  std::unordered_set<std::string> sessions;
  const LineScanStats stats =
      scan_lines_containing(store.get(), 0, "", [&](std::string_view line, std::uint64_t) {
        const auto record = parse_provenance_line(line);
        if (!record) {
          ++report.dropped_damaged;
        } else if (!sessions.insert(record->session_id).second) {
          ++report.dropped_duplicates;
        } else {
          ++report.kept;
          kept.append(line);
          kept += '\n';
        }
        return true;
      });
  if (stats.incomplete_tail) ++report.dropped_damaged;

  struct stat st {};
  if (::fstat(store.get(), &st) != 0) throw_errno("cannot stat " + store_path);
  remove_stale_temporaries(store_path);
  // Created under the store's lock and locked while written: a compaction that dies leaves
  // a temporary nobody holds, which the next compaction or append removes.
  const StoreTemporary created = create_store_temporary(store_path, "compact");
  const std::string& temporary = created.path;
  const UniqueFd& out = created.fd;
  try {
    if (::fchmod(out.get(), st.st_mode & 0600) != 0)
      throw_errno("cannot set the mode of " + temporary);
    write_all(out.get(), kept, temporary);
    if (::fsync(out.get()) != 0) throw_errno("cannot sync " + temporary);
    if (::rename(temporary.c_str(), store_path.c_str()) != 0)
      throw_errno("cannot replace " + store_path);
  } catch (const Error&) {
    ::unlink(temporary.c_str());
    throw;
  }
  UniqueFd dir(::open(parent_directory(store_path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir) ::fsync(dir.get());
  // `out` is still locked: writers that were waiting for the old file's lock reopen the
  // path and wait for this one's, so the new store is indexed before any of them appends.
  try {
    update_index(store_path, out.get(), nullptr, 0);
  } catch (const Error&) {
    // The store is compacted; readers scan until the next append rebuilds the index.
  }
  return report;  // closing `store` releases the lock: waiting writers reopen the new file
}

std::string compaction_text(const CompactionReport& report, const std::string& store_path) {
  if (!report.existed) return store_path + ": no store yet; nothing to compact\n";
  return store_path + ": kept " + std::to_string(report.kept) + " records, dropped " +
         std::to_string(report.dropped_damaged) + " damaged lines and " +
         std::to_string(report.dropped_duplicates) + " later duplicates\n";
}

}  // namespace fleet
