#include "hook_protocol.h"

#include <unistd.h>
#include <cerrno>
#include <cstring>

#include "json.h"

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

HookInput::HookInput(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    error_ = "hook input is empty";
    doc_.SetObject();
    return;
  }
  if (!parse_json(text, doc_)) {
    error_ = "hook input is not valid JSON (" + parse_error_sentence(doc_, text) + ")";
    doc_.SetObject();
    return;
  }
  if (!doc_.IsObject()) {
    error_ = std::string("hook input is a JSON ") + json_type_name(doc_) + ", not an object";
    doc_.SetObject();
  }
}

std::string_view HookInput::string_field(const char* key) const {
  return string_member(doc_, key).value_or(std::string_view());
}

std::string_view HookInput::hook_event_name() const {
  return string_field("hook_event_name");
}
std::string_view HookInput::tool_name() const {
  return string_field("tool_name");
}
std::string_view HookInput::session_id() const {
  return string_field("session_id");
}
std::string_view HookInput::cwd() const {
  return string_field("cwd");
}
const rapidjson::Value* HookInput::tool_input() const {
  return member(doc_, "tool_input");
}
const rapidjson::Value* HookInput::tool_response() const {
  return member(doc_, "tool_response");
}

std::string pre_tool_use_deny(std::string_view reason) {
  rapidjson::Document out(rapidjson::kObjectType);
  auto& alloc = out.GetAllocator();
  rapidjson::Value specific(rapidjson::kObjectType);
  specific.AddMember("hookEventName", "PreToolUse", alloc);
  specific.AddMember("permissionDecision", "deny", alloc);
  specific.AddMember("permissionDecisionReason", json_string(reason, alloc), alloc);
  out.AddMember("hookSpecificOutput", specific, alloc);
  return to_json(out) + "\n";
}

std::string advisory(std::string_view message) {
  rapidjson::Document out(rapidjson::kObjectType);
  out.AddMember("systemMessage", json_string(message, out.GetAllocator()), out.GetAllocator());
  return to_json(out) + "\n";
}

}  // namespace fleet
