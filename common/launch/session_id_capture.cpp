#include "launch/session_id_capture.h"

#include <rapidjson/document.h>

#include "base/ids.h"
#include "base/json.h"

namespace fleet {
namespace {

// Longer lines are not the event that names the session (it is a few dozen bytes).
constexpr std::size_t kMaxLine = 64 * 1024;

}  // namespace

bool SessionIdCapture::feed(const char* data, std::size_t size) {
  if (hooks_done_ || form_.stdout_event.empty()) return false;
  std::string_view rest(data, size);
  bool found = false;
  while (!rest.empty() && !hooks_done_) {
    const std::size_t newline = rest.find('\n');
    const std::string_view piece = rest.substr(0, newline);
    if (!skipping_) partial_.append(piece);
    if (partial_.size() > kMaxLine) {
      partial_.clear();
      skipping_ = true;
    }
    if (newline == std::string_view::npos) break;
    rest.remove_prefix(newline + 1);
    found = read_line(skipping_ ? std::string_view() : partial_) || found;
    partial_.clear();
    skipping_ = false;
  }
  return found;
}

bool SessionIdCapture::read_line(std::string_view line) {
  if (turn_started_) {
    hooks_done_ = true;
    return false;
  }
  const Result<rapidjson::Document> doc = parse_json_object(line);
  if (!doc) return false;
  if (!id_.empty()) {
    turn_started_ = string_member(*doc, "type") == form_.turn_event;
    return false;
  }
  if (string_member(*doc, "type") != form_.stdout_event) return false;
  const auto id = string_member(*doc, std::string(form_.stdout_key).c_str());
  if (!id || !is_valid_id(*id)) return false;
  id_ = std::string(*id);
  return true;
}

}  // namespace fleet
