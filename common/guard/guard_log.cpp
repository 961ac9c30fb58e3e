#include "guard/guard_log.h"

#include <rapidjson/document.h>

#include "base/error.h"
#include "base/json.h"
#include "base/paths.h"
#include "base/timestamp.h"
#include "store/rotating_jsonl.h"
#include "store/state_directory.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxFieldBytes = 1024;
constexpr std::size_t kMaxReasonBytes = 4096;

// `text` cut to `max` bytes (a cut inside a UTF-8 sequence becomes U+FFFD when written).
std::string_view cut(std::string_view text, std::size_t max) {
  return text.size() <= max ? text : text.substr(0, max);
}

void add(rapidjson::Document& doc, const char* key, std::string_view value, std::size_t max) {
  auto& alloc = doc.GetAllocator();
  doc.AddMember(rapidjson::StringRef(key), json_string(cut(value, max), alloc), alloc);
}

}  // namespace

std::string guard_log_path(const std::string& state_dir) {
  return state_dir + "/guard_log.jsonl";
}

std::string guard_log_line(const GuardLogEntry& entry) {
  rapidjson::Document doc(rapidjson::kObjectType);
  add(doc, "time", entry.time, kMaxFieldBytes);
  add(doc, "verdict", entry.verdict, kMaxFieldBytes);
  add(doc, "rule", entry.rule, kMaxFieldBytes);
  add(doc, "caller", entry.caller, kMaxFieldBytes);
  add(doc, "session", entry.session, kMaxFieldBytes);
  add(doc, "tool", entry.tool, kMaxFieldBytes);
  add(doc, "agent", entry.agent, kMaxFieldBytes);
  if (!entry.kitchen.empty()) add(doc, "kitchen", entry.kitchen, kMaxFieldBytes);
  add(doc, "reason", entry.reason, kMaxReasonBytes);
  return to_json(doc);
}

std::optional<GuardLogEntry> parse_guard_log_line(std::string_view line) {
  const auto doc = parse_json_object(line);
  if (!doc) return std::nullopt;
  const auto field = [&](const char* key) {
    return std::string(string_member(*doc, key).value_or(""));
  };
  GuardLogEntry entry{field("time"),   field("verdict"), field("rule"),
                      field("caller"), field("session"), field("tool"),
                      field("agent"),  field("kitchen"), field("reason")};
  if (entry.time.empty() || entry.verdict.empty() || entry.rule.empty()) return std::nullopt;
  return entry;
}

std::optional<std::string> log_guard_decision(const HookFields& hook, const ResumeRequest& request,
                                              const GuardDecision& decision,
                                              const GuardOptions& options) {
  if (decision.verdict == Verdict::silent) return std::nullopt;
  try {
    const std::string state_dir = guard_state_dir(options, request.cwd);
    GuardLogEntry entry{utc_timestamp_now(),
                        to_string(decision.verdict),
                        decision.rule,
                        std::string(request.caller),
                        std::string(request.resume_id),
                        std::string(hook.tool_name()),
                        std::string(hook.agent().name),
                        resolve_kitchen_id(options.kitchen_id).value_or(""),
                        decision.message};
    ensure_state_directory(state_dir);
    append_rotating_jsonl(guard_log_path(state_dir), guard_log_line(entry), kGuardLogLimitBytes);
  } catch (const std::exception& e) {
    return std::string("resume-guard: the ") + to_string(decision.verdict) +
           " was not written to the guard log (" + e.what() + "); the verdict stands";
  }
  return std::nullopt;
}

std::optional<std::string> view_guard_log_line(std::string_view line, const GuardLogView& view,
                                               GuardLogCounts& counts) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return std::nullopt;
  const std::optional<GuardLogEntry> entry = parse_guard_log_line(line);
  const std::optional<std::int64_t> time =
      entry && view.since_micros ? parse_timestamp_micros(entry->time) : std::nullopt;
  if (!entry || (view.since_micros && !time)) {
    ++counts.skipped;
    return std::nullopt;
  }
  if (view.since_micros && *time < *view.since_micros) return std::nullopt;
  ++counts.shown;
  if (view.json) return std::string(line) + "\n";
  const auto or_none = [](const std::string& value) { return value.empty() ? "(none)" : value; };
  std::string text = entry->time + " " + entry->verdict + " " + entry->rule +
                     " caller=" + or_none(entry->caller) + " session=" + or_none(entry->session) +
                     ": " + entry->reason;
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';  // one line, no terminal controls
  }
  return text + "\n";
}

}  // namespace fleet
