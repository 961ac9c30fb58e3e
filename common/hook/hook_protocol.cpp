#include "hook/hook_protocol.h"

#include <unistd.h>
#include <cerrno>
#include <cstring>

#include "base/json.h"

namespace fleet {

BoundedRead read_bounded(int fd, std::size_t cap) {
  BoundedRead result;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      result.error = std::strerror(errno);
      break;
    }
    const auto got = static_cast<std::size_t>(n);
    const std::size_t room = cap - result.text.size();
    if (got > room) {
      result.text.append(chunk, room);
      result.truncated = true;
      break;
    }
    result.text.append(chunk, got);
  }
  return result;
}

HookInput::HookInput(std::string_view text, const AgentCli& agent) : HookFields(agent) {
  object_ = &doc_;
  parse(text);
}

HookInput::HookInput(const BoundedRead& input, const AgentCli& agent) : HookFields(agent) {
  object_ = &doc_;
  if (input.error) {
    error_ = "cannot read stdin: " + *input.error;
    doc_.SetObject();
  } else if (input.truncated) {
    error_ = "hook input is larger than " + std::to_string(kMaxHookInputBytes / (1024 * 1024)) +
             " MiB and was not read further";
    doc_.SetObject();
  } else {
    parse(input.text);
  }
}

void HookInput::parse(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    error_ = "hook input is empty";
    doc_.SetObject();
    return;
  }
  Result<rapidjson::Document> parsed = parse_json(text);
  if (!parsed) {
    error_ = "hook input is not valid JSON (" + parsed.problem() + ")";
    doc_.SetObject();
    return;
  }
  doc_ = std::move(*parsed);
  if (!doc_.IsObject()) {
    error_ = std::string("hook input is a JSON ") + json_type_name(doc_) + ", not an object";
    doc_.SetObject();
  }
}

std::string_view HookFields::string_field(const char* key) const {
  return string_member(*object_, key).value_or(std::string_view());
}

std::string_view HookFields::hook_event_name() const {
  return string_field(agent_->fields.hook_event_name);
}
std::string_view HookFields::tool_name() const {
  return string_field(agent_->fields.tool_name);
}
std::string_view HookFields::session_id() const {
  return string_field(agent_->fields.session_id);
}
std::string_view HookFields::caller_session_id() const {
  const std::string_view parent = string_field(agent_->fields.parent_session_id);
  return parent.empty() ? session_id() : parent;
}
std::string_view HookFields::cwd() const {
  return string_field(agent_->fields.cwd);
}
std::string_view HookFields::tool_use_id() const {
  // Only a CLI that sends the id on to its MCP server (McpCallBinding::call_id_key) has one.
  if (*agent_->fields.tool_use_id == '\0' || agent_->mcp_call.call_id_key.empty()) return {};
  return string_field(agent_->fields.tool_use_id);
}
const rapidjson::Value* HookFields::tool_input() const {
  return member(*object_, agent_->fields.tool_input);
}
const rapidjson::Value* HookFields::tool_response() const {
  return member(*object_, agent_->fields.tool_response);
}
std::string_view HookFields::reader_result_text(const HookFileReader& reader) const {
  const rapidjson::Value* result = member(*object_, reader.result_field);
  if (result == nullptr) return {};
  return string_member(*result, reader.result_text).value_or(std::string_view());
}

std::string pre_tool_use_input(std::string_view session_id, std::string_view tool_name,
                               std::string_view resume_session_id, std::string_view cwd,
                               const AgentCli& agent) {
  const HookFieldNames& names = agent.fields;
  rapidjson::Document input(rapidjson::kObjectType);
  auto& alloc = input.GetAllocator();
  input.AddMember(rapidjson::StringRef(names.session_id), json_string(session_id, alloc), alloc);
  if (!cwd.empty())
    input.AddMember(rapidjson::StringRef(names.cwd), json_string(cwd, alloc), alloc);
  input.AddMember(rapidjson::StringRef(names.hook_event_name),
                  json_string(agent.pre_tool_event, alloc), alloc);
  input.AddMember(rapidjson::StringRef(names.tool_name), json_string(tool_name, alloc), alloc);
  rapidjson::Value tool_input(rapidjson::kObjectType);
  tool_input.AddMember("resume_session_id", json_string(resume_session_id, alloc), alloc);
  input.AddMember(rapidjson::StringRef(names.tool_input), tool_input, alloc);
  return to_json(input);
}

std::string pre_tool_use_deny(std::string_view reason, const AgentCli& agent) {
  const DenyForm& form = agent.deny;
  rapidjson::Document out(rapidjson::kObjectType);
  auto& alloc = out.GetAllocator();
  rapidjson::Value decision(rapidjson::kObjectType);
  const bool wrapped = *form.wrapper != '\0';
  if (wrapped) {
    decision.AddMember(
        rapidjson::StringRef(form.event_key),
        rapidjson::StringRef(agent.pre_tool_event.data(),
                             static_cast<rapidjson::SizeType>(agent.pre_tool_event.size())),
        alloc);
  }
  decision.AddMember(rapidjson::StringRef(form.decision_key), "deny", alloc);
  decision.AddMember(rapidjson::StringRef(form.reason_key), json_string(reason, alloc), alloc);
  if (!wrapped) return to_json(decision) + "\n";
  out.AddMember(rapidjson::StringRef(form.wrapper), decision, alloc);
  return to_json(out) + "\n";
}

std::string advisory(std::string_view message, const AgentCli& agent) {
  rapidjson::Document out(rapidjson::kObjectType);
  out.AddMember(rapidjson::StringRef(agent.advisory_key), json_string(message, out.GetAllocator()),
                out.GetAllocator());
  return to_json(out) + "\n";
}

std::string pre_tool_use_rewrite(const rapidjson::Value& tool_input, std::string_view argument,
                                 std::string_view value, std::string_view advisory_message,
                                 const AgentCli& agent) {
  const InputRewriteForm& form = agent.input_rewrite;
  rapidjson::Document out(rapidjson::kObjectType);
  auto& alloc = out.GetAllocator();
  rapidjson::Value input(tool_input, alloc);
  const rapidjson::Value key = json_string(argument, alloc);
  if (auto written = input.FindMember(key); written != input.MemberEnd())
    input.RemoveMember(written);
  input.AddMember(json_string(argument, alloc), json_string(value, alloc), alloc);
  if (!advisory_message.empty()) {
    out.AddMember(rapidjson::StringRef(agent.advisory_key), json_string(advisory_message, alloc),
                  alloc);
  }
  if (*form.wrapper == '\0') {
    out.AddMember(rapidjson::StringRef(form.input_key), input, alloc);
    return to_json(out) + "\n";
  }
  rapidjson::Value wrapped(rapidjson::kObjectType);
  if (*form.event_key != '\0')
    wrapped.AddMember(rapidjson::StringRef(form.event_key),
                      json_string(agent.pre_tool_event, alloc), alloc);
  wrapped.AddMember(rapidjson::StringRef(form.input_key), input, alloc);
  out.AddMember(rapidjson::StringRef(form.wrapper), wrapped, alloc);
  return to_json(out) + "\n";
}

}  // namespace fleet
