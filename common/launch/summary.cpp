#include "launch/summary.h"

#include <rapidjson/document.h>

#include "base/json.h"

namespace fleet {
namespace {

rapidjson::Value final_stdout_json(const FinalStdout& final_stdout,
                                   rapidjson::Document::AllocatorType& alloc) {
  const SpoolDelivery& delivery = final_stdout.delivery;
  rapidjson::Value out(rapidjson::kObjectType);
  out.AddMember("attempt", final_stdout.attempt, alloc);
  out.AddMember("bytes", static_cast<std::uint64_t>(delivery.bytes), alloc);
  out.AddMember("truncated", delivery.truncated, alloc);
  if (delivery.dropped > 0)
    out.AddMember("dropped_bytes", static_cast<std::uint64_t>(delivery.dropped), alloc);
  if (delivery.problem) out.AddMember("problem", json_string(*delivery.problem, alloc), alloc);
  return out;
}

}  // namespace

std::string launch_summary_json(const LaunchSummary& summary) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("event", "launch-wrapper.summary", alloc);
  if (!summary.member.empty()) doc.AddMember("member", json_string(summary.member, alloc), alloc);
  doc.AddMember("session_id", json_string(summary.session_id, alloc), alloc);
  if (!summary.session_key.empty()) {
    doc.AddMember("session_key", json_string(summary.session_key, alloc), alloc);
    if (summary.session_state) {
      doc.AddMember("session_state", json_string(to_string(*summary.session_state), alloc), alloc);
    }
  }
  doc.AddMember("attempts", summary.attempts, alloc);
  doc.AddMember("exit_code", summary.exit_code, alloc);
  doc.AddMember("kill_reason", json_string(to_string(summary.kill_reason), alloc), alloc);
  if (!summary.signal.empty()) doc.AddMember("signal", json_string(summary.signal, alloc), alloc);
  if (!summary.output_spool.empty())
    doc.AddMember("output_spool", json_string(summary.output_spool, alloc), alloc);
  if (summary.final_stdout)
    doc.AddMember("final_stdout", final_stdout_json(*summary.final_stdout, alloc), alloc);
  doc.AddMember("completion_seen", summary.completion_seen, alloc);
  rapidjson::Value pids(rapidjson::kArrayType);
  for (pid_t pid : summary.pids) pids.PushBack(static_cast<std::int64_t>(pid), alloc);
  doc.AddMember("pids", pids, alloc);
  rapidjson::Value classes(rapidjson::kArrayType);
  for (const ErrorClass c : summary.failure_classes)
    classes.PushBack(json_string(to_string(c), alloc), alloc);
  doc.AddMember("failure_classes", classes, alloc);
  if (!summary.not_retried.empty())
    doc.AddMember("not_retried", json_string(summary.not_retried, alloc), alloc);
  return to_json(doc) + "\n";
}

}  // namespace fleet
