#include "store/provenance_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>

#include "base/error.h"
#include "base/files.h"
#include "base/ids.h"
#include "base/line_scan.h"
#include "base/paths.h"
#include "process/launch_caller.h"
#include "store/provenance_index.h"
#include "store/state_directory.h"
#include "store/store_safety.h"
#include "store/store_temporary.h"

namespace fleet {
namespace {

// A short id is ambiguous once it is the start of this many sessions: the lookup stops
// collecting there, so its time and memory do not grow with how many sessions an id prefixes.
constexpr std::size_t kAmbiguityWitnesses = 2;

// Collects what the records offered to it say about one id. The first record offered of a
// session must be its first in the store.
class SessionMatcher {
 public:
  explicit SessionMatcher(std::string_view id)
      : id_(id), quoted_id_('"' + std::string(id) + '"'), may_be_prefix_(!is_uuid(id)) {}

  // Whether the record on `line`, if it is one, can change the answer: it may name a session
  // starting with the id (or spell one with escapes) — once the id is ambiguous, only a line
  // that may hold the id itself.
  bool wants(std::string_view line) const {
    if (line.find('\\') != std::string_view::npos) return true;
    return line.find(ambiguous() ? std::string_view(quoted_id_) : id_) != std::string_view::npos;
  }

  bool ambiguous() const { return prefixed_.size() >= kAmbiguityWitnesses; }

  // Returns false once the first record of exactly `id` is seen: nothing later matters.
  bool offer(ProvenanceRecord&& record) {
    if (record.session_id == id_) {
      exact_ = std::move(record);
      found_ = true;
      return false;
    }
    if (may_be_prefix_ && !ambiguous() && std::string_view(record.session_id).starts_with(id_) &&
        (prefixed_.empty() || prefixed_.front().session_id != record.session_id)) {
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
  std::string quoted_id_;
  bool may_be_prefix_;
  bool found_ = false;
  ProvenanceRecord exact_;
  std::vector<ProvenanceRecord> prefixed_;  // first records of the first sessions `id` starts
};

// Offers the lines the index points at to the matcher until it has its answer. Returns false
// when the index cannot be used, or an offset is not the start of a complete line (an index
// that disagrees with the store): the caller must scan instead. Lines that are not records of
// a matching id are skipped, as a scan would.
bool offer_indexed_lines(int fd, const std::string& store_path, const FileFingerprint& print,
                         std::string_view id, SessionMatcher& matcher, StoreLookup& result) {
  bool complete = true;
  const bool usable = visit_index_candidates(store_path, print, id, [&](std::uint64_t offset) {
    const auto line = read_line_at(fd, offset);
    if (!line) {
      complete = false;
      return CandidateNeed::nothing;
    }
    ++result.candidate_lines;
    if (matcher.wants(*line)) {
      auto record = parse_provenance_line(*line);
      if (record && !matcher.offer(std::move(*record))) return CandidateNeed::nothing;
    }
    return matcher.ambiguous() ? CandidateNeed::exact_key : CandidateNeed::all;
  });
  return usable && complete;
}

// Offers every record line at or after `start` that contains `id` — or a backslash: an
// escape (\u0041) can spell the id in other bytes.
void scan_from(int fd, std::uint64_t start, std::string_view id, SessionMatcher& matcher,
               StoreLookup& result) {
  scan_lines_containing(
      fd, start, id,
      [&](std::string_view line, std::uint64_t) {
        if (!matcher.wants(line)) return true;
        ++result.candidate_lines;
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

// Answers the lookup from the index when it describes the store — after rebuilding it, with
// `maintain_index`, when it does not. Returns false when the caller must scan instead.
bool answer_from_index(int fd, const std::string& store_path, std::string_view id,
                       bool maintain_index, StoreLookup& result) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw_errno("cannot stat " + store_path);
  SessionMatcher matcher(id);
  bool usable = offer_indexed_lines(fd, store_path, fingerprint_of(fd, st), id, matcher, result);
  if (!usable && maintain_index && try_rebuild_index(store_path) && ::fstat(fd, &st) == 0) {
    result.rebuilt_index = true;
    result.candidate_lines = 0;
    matcher = SessionMatcher(id);
    usable = offer_indexed_lines(fd, store_path, fingerprint_of(fd, st), id, matcher, result);
  }
  result.candidate_lines = usable ? result.candidate_lines : 0;
  if (!usable) return false;
  matcher.finish(result);
  result.used_index = true;
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
    if (answer_from_index(fd.get(), store_path, id, maintain_index, result)) return result;
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
  ensure_state_directory(parent_directory(store_path));
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

RecordOutcome append_requested_record(const RecordRequest& request, const CallerClis& known) {
  using Status = RecordOutcome::Status;
  const Result<ProvenanceRecord> built = record_to_append(request.record, known, request.call);
  if (!built) return {Status::refused, built.problem()};
  try {
    const std::string state_dir = launch_state_dir(request.state_dir, built->caller_session_id);
    const AppendedRecord appended =
        append_record(provenance_store_path(state_dir), *built, request.append);
    if (!appended.index_warning) return {Status::stored, std::nullopt};
    return {Status::stored, "warning: " + *appended.index_warning};
  } catch (const Error& e) {
    return {Status::failed, std::string(e.what()) + "; nothing written"};
  }
}

}  // namespace fleet
