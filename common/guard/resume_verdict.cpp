#include "guard/resume_verdict.h"

#include "base/json.h"

namespace fleet {

std::string verdict_text(const std::string& caller, const GuardDecision& decision) {
  const std::string who = caller.empty() ? "no caller" : "caller '" + caller + "'";
  return "verdict for " + who + ": " + to_string(decision.verdict) +
         (decision.message.empty() ? "" : ": " + decision.message) + "\n";
}

std::string verdict_json(const std::string& caller, const std::string& session,
                         const GuardDecision& decision) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("verdict", rapidjson::StringRef(to_string(decision.verdict)), alloc);
  doc.AddMember("caller", json_string(caller, alloc), alloc);
  doc.AddMember("session", json_string(session, alloc), alloc);
  doc.AddMember("reason", json_string(decision.message, alloc), alloc);
  return to_json(doc) + "\n";
}

std::string query_verdict(const VerdictQuery& query) {
  const std::string& caller = query.caller;
  GuardOptions options;
  options.state_dir = query.state_dir;
  options.kitchen_id = query.kitchen_id;
  const GuardDecision decision = decide_resume(resume_request(caller, query.session), options);
  return query.json ? verdict_json(caller, query.session, decision)
                    : verdict_text(caller, decision);
}

}  // namespace fleet
