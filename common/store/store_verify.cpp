#include "store/store_verify.h"

#include <fcntl.h>
#include <cerrno>
#include <unordered_set>

#include <rapidjson/document.h>

#include "base/error.h"
#include "base/files.h"
#include "base/finding.h"
#include "base/json.h"
#include "base/line_scan.h"
#include "store/provenance_record.h"

namespace fleet {
namespace {

constexpr const char* kSkipped = "; readers skip this line (fleet-hooks compact drops it)";

// One complete line of the store, checked.
struct VerifiedLine {
  std::optional<StoreProblem> problem;    // nullopt when it is a valid record
  std::optional<std::string> session_id;  // when readers accept the line as a record
};

// A blank line is the store's own warning; every other line is checked against the record's
// schema (provenance_record.h). A line readers skip is an error that compact clears by
// dropping it; a record readers accept is at most a warning (compact keeps it: it may be the
// session's first record).
VerifiedLine verify_line(std::string_view line) {
  VerifiedLine verified;
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
    verified.problem = StoreProblem{
        0, "blank", "blank line; readers skip it (fleet-hooks compact drops it)", false};
    return verified;
  }
  CheckedLine checked = check_provenance_line(line);
  if (checked.record) verified.session_id = std::move(checked.record->session_id);
  if (checked.problem) {
    LineProblem& problem = *checked.problem;
    verified.problem = StoreProblem{
        0, problem.kind, problem.skipped ? problem.detail + kSkipped : std::move(problem.detail),
        problem.skipped};
  }
  return verified;
}

}  // namespace

bool StoreVerification::has_errors() const {
  return errors > 0;
}

StoreVerification verify_store(const std::string& store_path, std::size_t max_listed) {
  StoreVerification result;
  std::optional<UniqueFd> opened = open_regular_file_if_exists(store_path, O_RDONLY);
  if (!opened) return result;
  UniqueFd fd = std::move(*opened);
  result.exists = true;
  std::unordered_set<std::string> sessions;
  const auto note = [&](StoreProblem problem) {
    ++result.counts[problem.kind];
    if (problem.error) ++result.errors;
    if (result.problems.size() < max_listed) result.problems.push_back(std::move(problem));
  };
  const LineScanStats stats =
      scan_lines_containing(fd.get(), 0, "", [&](std::string_view line, std::uint64_t) {
        ++result.lines;
        VerifiedLine verified = verify_line(line);
        if (verified.problem) {
          verified.problem->line = result.lines;
          note(std::move(*verified.problem));
        }
        if (verified.session_id) {  // a record readers accept
          ++result.records;
          if (!sessions.insert(std::move(*verified.session_id)).second) ++result.duplicates;
        }
        return true;
      });
  if (stats.incomplete_tail) {
    ++result.lines;
    note({result.lines, "torn-tail",
          "the last line has no newline (a writer was interrupted, or is writing it now); "
          "readers skip it (fleet-hooks compact drops it)",
          false});
  }
  result.sessions = sessions.size();
  return result;
}

std::string verification_text(const StoreVerification& result, const std::string& store_path) {
  if (!result.exists) return store_path + ": no store yet (nothing to verify)\n";
  std::string text = store_path + ": " + std::to_string(result.lines) + " lines, " +
                     std::to_string(result.records) + " records of " +
                     std::to_string(result.sessions) + " sessions, " +
                     std::to_string(result.duplicates) + " later duplicates (ignored by readers)\n";
  for (const auto& [kind, count] : result.counts) {
    text += "  " + kind + ": " + std::to_string(count) + "\n";
  }
  for (const auto& problem : result.problems) {
    text += std::string(to_string(problem.error ? Severity::error : Severity::warning)) + " line " +
            std::to_string(problem.line) + ": " + problem.kind + ": " + problem.detail + "\n";
  }
  text += result.has_errors() ? "damaged: run fleet-hooks compact to drop the lines readers skip "
                                "(every error above); the first record of each session stays\n"
                              : "ok\n";
  return text;
}

std::string verification_json(const StoreVerification& result, const std::string& store_path) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("store", json_string(store_path, alloc), alloc);
  doc.AddMember("exists", result.exists, alloc);
  doc.AddMember("lines", result.lines, alloc);
  doc.AddMember("records", result.records, alloc);
  doc.AddMember("sessions", result.sessions, alloc);
  doc.AddMember("duplicates", result.duplicates, alloc);
  rapidjson::Value counts(rapidjson::kObjectType);
  for (const auto& [kind, count] : result.counts) {
    counts.AddMember(json_string(kind, alloc), rapidjson::Value(static_cast<std::uint64_t>(count)),
                     alloc);
  }
  doc.AddMember("counts", counts, alloc);
  rapidjson::Value problems(rapidjson::kArrayType);
  for (const auto& problem : result.problems) {
    rapidjson::Value item(rapidjson::kObjectType);
    item.AddMember("line", problem.line, alloc);
    item.AddMember("kind", json_string(problem.kind, alloc), alloc);
    item.AddMember(
        "severity",
        json_string(to_string(problem.error ? Severity::error : Severity::warning), alloc), alloc);
    item.AddMember("detail", json_string(problem.detail, alloc), alloc);
    problems.PushBack(item, alloc);
  }
  doc.AddMember("problems", problems, alloc);
  doc.AddMember("ok", !result.has_errors(), alloc);
  return to_json(doc) + "\n";
}

}  // namespace fleet
