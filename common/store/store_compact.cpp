#include "store/store_compact.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unordered_set>

#include "base/error.h"
#include "base/files.h"
#include "base/line_scan.h"
#include "process/file_writers.h"
#include "store/jsonl_append.h"
#include "store/provenance_index.h"
#include "store/provenance_record.h"
#include "store/store_temporary.h"

namespace fleet {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kWriterPoll = std::chrono::milliseconds(2);

enum class WaitFor {
  first_seen,  // the writers seen at the start (new ones may come and go meanwhile)
  all,         // no writer at all
};

// Waits until the processes writing the file (`dev`, `ino`) are gone, as `what` says, for at
// most `wait`. Returns those still there then (none: done).
std::vector<FileWriter> wait_for_writers(dev_t dev, ino_t ino, WaitFor what,
                                         std::chrono::milliseconds wait) {
  std::vector<FileWriter> waiting = processes_writing(dev, ino);
  const auto deadline = Clock::now() + wait;
  while (!waiting.empty() && Clock::now() < deadline) {
    std::this_thread::sleep_for(kWriterPoll);
    std::vector<FileWriter> now = processes_writing(dev, ino);
    if (what == WaitFor::first_seen) {
      std::erase_if(waiting, [&](const FileWriter& w) {
        return std::find(now.begin(), now.end(), w) == now.end();
      });
    } else {
      waiting = std::move(now);
    }
  }
  return waiting;
}

std::string seconds(std::chrono::milliseconds wait) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(wait.count()) / 1000);
  return text;
}

std::string named(const std::vector<FileWriter>& writers) {
  std::string names;
  for (const FileWriter& writer : writers) {
    if (names.find(describe(writer)) == std::string::npos)
      names += (names.empty() ? "" : ", ") + describe(writer);
  }
  return names;
}

// A process that keeps the store open for writing may write to it after the compaction has
// replaced it, where nobody reads it again: refuse before changing anything.
void refuse_if_kept_open(const std::string& store_path, std::chrono::milliseconds wait) {
  struct stat st {};
  if (::stat(store_path.c_str(), &st) != 0) return;  // no store: nothing to compact
  const std::vector<FileWriter> kept =
      wait_for_writers(st.st_dev, st.st_ino, WaitFor::first_seen, wait);
  if (kept.empty()) return;
  throw Error(store_path + " is kept open for writing by " + named(kept) + " for " + seconds(wait) +
              ": a compaction replaces the file, and what that process wrote to the old one "
              "afterwards would be lost. Nothing was changed; compact when it has closed the "
              "store");
}

// Appends to `kept` the first record of every session on the complete lines of the store,
// counting what it drops. Returns the offset just past the last complete line.
std::uint64_t keep_first_records(int store, std::string& kept, CompactionReport& report) {
  std::unordered_set<std::string> sessions;
  const LineScanStats stats =
      scan_lines_containing(store, 0, "", [&](std::string_view line, std::uint64_t) {
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
  return stats.end_offset;
}

// The complete lines of the store from `from` on, as they are; `from` moves past them.
std::string complete_lines_from(int store, std::uint64_t& from, std::uint64_t& lines) {
  std::string text;
  const LineScanStats stats =
      scan_lines_containing(store, from, "", [&](std::string_view line, std::uint64_t) {
        text.append(line);
        text += '\n';
        ++lines;
        return true;
      });
  from = std::max(from, stats.end_offset);
  return text;
}

// Whether the file open on `fd` is empty or ends with '\n'.
bool ends_a_line(int fd) {
  struct stat st {};
  char last = '\n';
  return ::fstat(fd, &st) != 0 || st.st_size == 0 || ::pread(fd, &last, 1, st.st_size - 1) != 1 ||
         last == '\n';
}

// After the rename: a writer that takes no lock (AutoSkillit's open('a') + write) may have
// opened the old file before it and write to it after. Once no process has the old file open
// for writing, every complete line past `consumed` is appended to the new one (`out`, still
// locked); a last line left incomplete then was torn by a writer that died, and is dropped.
void carry_over_late_lines(const std::string& store_path, int old_store, std::uint64_t consumed,
                           int out, std::chrono::milliseconds wait, CompactionReport& report) {
  struct stat old_stat {};
  if (::fstat(old_store, &old_stat) != 0) throw_errno("cannot stat " + store_path);
  const std::vector<FileWriter> left =
      wait_for_writers(old_stat.st_dev, old_stat.st_ino, WaitFor::all, wait);
  std::uint64_t carried = 0;
  const std::string late = complete_lines_from(old_store, consumed, carried);
  struct stat end {};
  if (::fstat(old_store, &end) == 0 && static_cast<std::uint64_t>(end.st_size) > consumed &&
      left.empty()) {
    ++report.dropped_damaged;
  }
  if (!late.empty()) {
    const int flags = ::fcntl(out, F_GETFL);
    if (flags < 0 || ::fcntl(out, F_SETFL, flags | O_APPEND) != 0)
      throw_errno("cannot append to " + store_path);
    // After a line a lock-free writer that died left torn in the new file, not glued to it.
    write_all(out, ends_a_line(out) ? late : "\n" + late, store_path);
    if (::fsync(out) != 0) throw_errno("cannot sync " + store_path);
    report.carried_over += carried;
    try {
      update_index(store_path, out, nullptr, 0);
    } catch (const Error&) {
      // Readers scan until the next append rebuilds the index.
    }
  }
  if (!left.empty()) {
    report.warning = named(left) + " still has the replaced store open for writing after " +
                     seconds(wait) +
                     ": what it writes from now on is not in the store. Stop it, or make it "
                     "append with flock";
  }
}

}  // namespace

CompactionReport compact_store(const std::string& store_path,
                               std::chrono::milliseconds writer_wait) {
  CompactionReport report;
  refuse_if_kept_open(store_path, writer_wait);
  std::optional<UniqueFd> opened = open_locked_jsonl_if_exists(store_path);
  if (!opened) return report;
  const UniqueFd store = std::move(*opened);
  report.existed = true;
  std::string kept;
  std::uint64_t consumed = keep_first_records(store.get(), kept, report);

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
    // Lines writers that take no lock appended while the store was read come along as they
    // are, in their place after the kept ones.
    kept += complete_lines_from(store.get(), consumed, report.carried_over);
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
  // Writers waiting for the old file's lock go on to the new file (and close the old one).
  ::flock(store.get(), LOCK_UN);
  carry_over_late_lines(store_path, store.get(), consumed, out.get(), writer_wait, report);
  return report;  // closing `out` releases the new file's lock: waiting writers append
}

std::string compaction_text(const CompactionReport& report, const std::string& store_path) {
  if (!report.existed) return store_path + ": no store yet; nothing to compact\n";
  return store_path + ": kept " + std::to_string(report.kept) + " records, dropped " +
         std::to_string(report.dropped_damaged) + " damaged lines and " +
         std::to_string(report.dropped_duplicates) + " later duplicates" +
         (report.carried_over == 0 ? std::string()
                                   : "; carried over " + std::to_string(report.carried_over) +
                                         " lines appended meanwhile by writers that take no lock") +
         "\n";
}

}  // namespace fleet
