#include "store_verify.h"

#include <fcntl.h>
#include <cerrno>
#include <unordered_set>

#include <rapidjson/document.h>

#include "error.h"
#include "files.h"
#include "ids.h"
#include "json.h"
#include "line_scan.h"
#include "provenance_record.h"

namespace fleet {
namespace {

constexpr const char* kRequiredFields[] = {"session_id",  "caller_session_id", "kitchen_id",
                                           "dispatch_id", "recipe_name",       "step_name",
                                           "timestamp"};

constexpr const char* kSkipped = "; readers skip this line (fleet-hooks compact drops it)";

// What a field that reads as empty means for the guard, when it is the session's first record.
std::string empty_field_meaning(std::string_view field) {
  if (field == "recipe_name") {
    return "it reads as empty, so the guard takes the session for an L3 orchestrator and denies "
           "every resume of it";
  }
  if (field == "caller_session_id") {
    return "it reads as empty, so no caller owns the session: only its kitchen can resume it";
  }
  if (field == "kitchen_id") {
    return "it reads as empty, so no kitchen owns the session: only its caller can resume it";
  }
  return "it reads as empty (the guard does not use it)";
}

std::string invalid_id_meaning(std::string_view field) {
  if (field == "session_id") {
    return "the guard refuses such a resume_session_id, so this session is never resumed by "
           "its full id (a short prefix may still name it)";
  }
  if (field == "caller_session_id") {
    return "no caller's session id can equal it: only the session's kitchen can resume it";
  }
  if (field == "kitchen_id") {
    return "no current kitchen can equal it: only the session's caller can resume it";
  }
  return "the guard does not use it";
}

// The problem of one complete line, or nullopt when it is a valid record. A line readers
// skip (not a record) is an error that compact clears by dropping it; a record readers
// accept is at most a warning (compact keeps it: it may be the session's first record).
std::optional<StoreProblem> line_problem(std::string_view line, std::string& session_id) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
    return StoreProblem{0, "blank", "blank line; readers skip it (fleet-hooks compact drops it)",
                        false};
  }
  rapidjson::Document doc;
  if (!parse_json(line, doc)) {
    return StoreProblem{0, "not-json", parse_error_sentence(doc, line) + kSkipped, true};
  }
  if (!doc.IsObject()) {
    return StoreProblem{0, "not-object", std::string("a JSON ") + json_type_name(doc) + kSkipped,
                        true};
  }
  const auto record = parse_provenance_line(line);
  if (!record) {
    const rapidjson::Value* value = member(doc, "session_id");
    const std::string why = value == nullptr ? "no session_id"
                            : !value->IsString()
                                ? std::string("session_id is a JSON ") + json_type_name(*value)
                                : "session_id is empty";
    return StoreProblem{0, value == nullptr ? "missing-field" : "no-session-id", why + kSkipped,
                        true};
  }
  session_id = record->session_id;
  for (const char* field : kRequiredFields) {
    const rapidjson::Value* value = member(doc, field);
    if (value == nullptr) {
      return StoreProblem{0, "missing-field",
                          std::string(field) + " is missing: " + empty_field_meaning(field), false};
    }
    if (!value->IsString()) {
      return StoreProblem{0, "wrong-type",
                          std::string(field) + " is a JSON " + json_type_name(*value) + ": " +
                              empty_field_meaning(field),
                          false};
    }
  }
  for (const char* field : {"session_id", "caller_session_id", "kitchen_id", "dispatch_id"}) {
    const std::string value(string_member(doc, field).value());
    if (value.empty()) continue;
    if (const auto problem = id_problem(field, value)) {
      return StoreProblem{0, "invalid-id", *problem + ": " + invalid_id_meaning(field), false};
    }
  }
  return std::nullopt;
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
        std::string session_id;
        if (auto problem = line_problem(line, session_id)) {
          problem->line = result.lines;
          note(std::move(*problem));
        }
        if (!session_id.empty()) {  // a record readers accept
          ++result.records;
          if (!sessions.insert(session_id).second) ++result.duplicates;
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
    text += std::string(problem.error ? "error" : "warning") + " line " +
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
    item.AddMember("severity", rapidjson::StringRef(problem.error ? "error" : "warning"), alloc);
    item.AddMember("detail", json_string(problem.detail, alloc), alloc);
    problems.PushBack(item, alloc);
  }
  doc.AddMember("problems", problems, alloc);
  doc.AddMember("ok", !result.has_errors(), alloc);
  return to_json(doc) + "\n";
}

}  // namespace fleet
