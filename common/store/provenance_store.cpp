#include "store/provenance_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <unordered_set>

#include "base/error.h"
#include "base/files.h"
#include "base/ids.h"
#include "base/line_scan.h"
#include "store/provenance_index.h"
#include "store/store_safety.h"
#include "store/store_temporary.h"

namespace fleet {
namespace {

// Collects, in store order, what the records offered to it say about one id.
class SessionMatcher {
 public:
  explicit SessionMatcher(std::string_view id) : id_(id), may_be_prefix_(!is_uuid(id)) {}

  // Returns false once the first record of exactly `id` is seen: nothing later matters.
  bool offer(ProvenanceRecord&& record) {
    if (record.session_id == id_) {
      exact_ = std::move(record);
      found_ = true;
      return false;
    }
    if (may_be_prefix_ && std::string_view(record.session_id).starts_with(id_) &&
        prefixed_ids_.insert(record.session_id).second) {
      prefixed_.push_back(std::move(record));
    }
    return true;
  }

  void finish(StoreLookup& result) {
    if (found_) {
      result.status = StoreLookup::Status::found;
      result.record = std::move(exact_);
    } else if (prefixed_.size() == 1) {
      result.status = StoreLookup::Status::found;
      result.record = std::move(prefixed_.front());
    } else if (prefixed_.size() > 1) {
      result.status = StoreLookup::Status::ambiguous;
      for (const auto& record : prefixed_) result.matches.push_back(record.session_id);
    } else {
      result.status = StoreLookup::Status::not_found;
    }
  }

 private:
  std::string_view id_;
  bool may_be_prefix_;
  bool found_ = false;
  ProvenanceRecord exact_;
  std::vector<ProvenanceRecord> prefixed_;  // first record of each session `id` prefixes
  std::unordered_set<std::string> prefixed_ids_;
};

// Offers the lines the index points at, in store order, until the matcher has its answer.
// Returns false when an offset is not the start of a complete line (an index that disagrees
// with the store): the caller must scan instead. Lines that are not records of a matching id
// are skipped, as a scan would.
bool offer_indexed_lines(int fd, const std::vector<std::uint64_t>& offsets, std::string_view id,
                         SessionMatcher& matcher) {
  for (const std::uint64_t offset : offsets) {
    const auto line = read_line_at(fd, offset);
    if (!line) return false;
    if (line->find(id) == std::string::npos && line->find('\\') == std::string::npos) continue;
    auto record = parse_provenance_line(*line);
    if (!record) continue;
    if (!matcher.offer(std::move(*record))) return true;
  }
  return true;
}

// Offers every record line at or after `start` that contains `id` — or a backslash: an
// escape (\u0041) can spell the id in other bytes.
void scan_from(int fd, std::uint64_t start, std::string_view id, SessionMatcher& matcher,
               StoreLookup& result) {
  scan_lines_containing(
      fd, start, id,
      [&](std::string_view line, std::uint64_t) {
        auto record = parse_provenance_line(line);
        if (!record) {
          ++result.skipped_lines;
          return true;
        }
        return matcher.offer(std::move(*record));
      },
      '\\');
}

// Rebuilds the index of the store under the store's lock, when that lock is free right now
// and the state directory is writable: a guard never waits for a writer or a compaction.
// Returns false when it did not (the caller scans instead).
bool try_rebuild_index(const std::string& store_path) {
  if (::access(parent_directory(store_path).c_str(), W_OK) != 0) return false;
  OpenedFile opened = try_open_regular_file(store_path, O_RDONLY);
  if (opened.status != FileStatus::ok) return false;
  const UniqueFd fd = std::move(opened.fd);
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) return false;
  struct stat by_fd {};
  struct stat by_path {};
  if (::fstat(fd.get(), &by_fd) != 0 || ::lstat(store_path.c_str(), &by_path) != 0 ||
      by_fd.st_dev != by_path.st_dev || by_fd.st_ino != by_path.st_ino) {
    return false;  // replaced meanwhile
  }
  try {
    remove_stale_temporaries(store_path);
    update_index(store_path, fd.get(), nullptr, 0);
  } catch (const Error&) {
    return false;
  }
  return true;
}

}  // namespace

StoreLookup lookup_session(const std::string& store_path, std::string_view id,
                           bool maintain_index) {
  StoreLookup result;
  OpenedFile opened = try_open_regular_file(store_path, O_RDONLY);
  if (opened.status != FileStatus::ok) {
    result.status = opened.status == FileStatus::missing ? StoreLookup::Status::missing
                                                         : StoreLookup::Status::unreadable;
    result.error = std::move(opened.problem);
    return result;
  }
  const UniqueFd fd = std::move(opened.fd);
  try {
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw_errno("cannot stat " + store_path);
    auto candidates = index_candidates(store_path, fingerprint_of(fd.get(), st), id);
    if (!candidates.usable && maintain_index && try_rebuild_index(store_path) &&
        ::fstat(fd.get(), &st) == 0) {
      candidates = index_candidates(store_path, fingerprint_of(fd.get(), st), id);
      result.rebuilt_index = true;
    }
    if (candidates.usable) {
      SessionMatcher matcher(id);
      if (offer_indexed_lines(fd.get(), candidates.offsets, id, matcher)) {
        matcher.finish(result);
        result.used_index = true;
        return result;
      }
    }
    SessionMatcher matcher(id);  // no usable index: every line that contains the id
    scan_from(fd.get(), 0, id, matcher, result);
    matcher.finish(result);
  } catch (const Error& e) {
    result = StoreLookup{};
    result.status = StoreLookup::Status::unreadable;
    result.error = e.what();
  }
  return result;
}

AppendedRecord append_record(const std::string& store_path, const ProvenanceRecord& record,
                             const AppendOptions& options) {
  if (const auto problem = record_problem(record)) throw Error(*problem);
  if (const StoreSafety safety = store_safety(store_path); !safety.safe) {
    throw Error("refusing to append: " + safety.problem + "; to fix: " + safety.fix);
  }
  AppendedRecord appended;
  append_jsonl(store_path, to_json_line(record), options,
               [&](int fd, const FileFingerprint& before, std::uint64_t appended_bytes) {
                 remove_stale_temporaries(store_path);
                 try {
                   update_index(store_path, fd, &before, appended_bytes);
                 } catch (const Error& e) {
                   appended.index_warning =
                       std::string("the record is stored, but its index was not updated: ") +
                       e.what();
                 }
               });
  return appended;
}

}  // namespace fleet
