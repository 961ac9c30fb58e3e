#include "store_compact.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <unordered_set>

#include "error.h"
#include "files.h"
#include "jsonl_append.h"
#include "line_scan.h"
#include "provenance_index.h"
#include "provenance_record.h"

namespace fleet {

CompactionReport compact_store(const std::string& store_path) {
  CompactionReport report;
  UniqueFd store;
  try {
    store = open_locked_jsonl(store_path, false);
  } catch (const Error& e) {
    if (e.code() == ENOENT) return report;
    throw;
  }
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
  std::string temporary = store_path + ".compact.XXXXXX";
  UniqueFd out(::mkostemp(temporary.data(), O_CLOEXEC));
  if (!out) throw_errno("cannot create a temporary file beside " + store_path);
  try {
    if (::fchmod(out.get(), st.st_mode & 0600) != 0)
      throw_errno("cannot set the mode of " + temporary);
    write_all(out.get(), kept, temporary);
    if (::fsync(out.get()) != 0) throw_errno("cannot sync " + temporary);
    update_index(store_path, out.get());  // indexes the new inode before anyone can see it
    if (::rename(temporary.c_str(), store_path.c_str()) != 0)
      throw_errno("cannot replace " + store_path);
  } catch (const Error&) {
    ::unlink(temporary.c_str());
    throw;
  }
  UniqueFd dir(::open(parent_directory(store_path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir) ::fsync(dir.get());
  return report;  // closing `store` releases the lock: waiting writers reopen the new file
}

}  // namespace fleet
