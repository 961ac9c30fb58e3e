#include "launch/session_id_capture.h"

#include <rapidjson/document.h>

#include "base/ids.h"
#include "base/json.h"

namespace fleet {

bool SessionIdCapture::feed(const char* data, std::size_t size) {
  if (hooks_done_ || form_.stdout_event.empty()) return false;
  bool found = false;
  lines_.feed({data, size}, [this, &found](std::string_view line) {
    found = read_line(line) || found;
    return !hooks_done_;
  });
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
  // No turn event: the CLI ran its start hooks before it printed this line.
  hooks_done_ = form_.turn_event.empty();
  return true;
}

}  // namespace fleet
