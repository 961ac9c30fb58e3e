#include "guard/resume_request.h"

#include "base/json.h"
#include "hook/tool_names.h"

namespace fleet {

ResumeRequest read_resume_request(const HookInput& hook, const std::vector<std::string>& tools) {
  if (!hook.valid()) return {ResumeRequest::Kind::unreadable, false, {}, {}, {}, hook.error()};
  return read_resume_request(static_cast<const HookFields&>(hook), tools);
}

ResumeRequest read_resume_request(const HookFields& hook, const std::vector<std::string>& tools) {
  ResumeRequest request;
  const AgentCli& agent = hook.agent();
  const std::string_view event = hook.hook_event_name();
  if (!event.empty() && event != agent.pre_tool_event) return request;
  if (!is_dispatch_tool(hook.tool_name(), tools, agent)) return request;
  request.dispatch = true;
  request.caller = hook.caller_session_id();
  request.call_id = hook.tool_use_id();
  request.cwd = hook.cwd();

  const rapidjson::Value* tool_input = hook.tool_input();
  if (tool_input == nullptr || tool_input->IsNull()) return request;
  if (!tool_input->IsObject()) {
    request.kind = ResumeRequest::Kind::unreadable;
    request.problem =
        std::string("tool_input is a JSON ") + json_type_name(*tool_input) + ", not an object";
    return request;
  }
  const rapidjson::Value* resume = member(*tool_input, "resume_session_id");
  if (resume == nullptr || resume->IsNull()) return request;
  if (!resume->IsString()) {
    request.kind = ResumeRequest::Kind::not_a_string;
    request.problem = json_type_name(*resume);
    return request;
  }
  request.resume_id = std::string_view(resume->GetString(), resume->GetStringLength());
  if (request.resume_id.empty()) return request;
  request.kind = ResumeRequest::Kind::resume;
  return request;
}

ResumeRequest resume_request(std::string_view caller, std::string_view resume_id) {
  ResumeRequest request;
  if (resume_id.empty()) return request;
  request.kind = ResumeRequest::Kind::resume;
  request.resume_id = resume_id;
  request.caller = caller;
  return request;
}

}  // namespace fleet
