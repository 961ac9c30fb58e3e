#pragma once
// The form of the record of an agent CLI's session file that finishes a turn (one per CLI, in
// its AgentProfile; read by launch/completion_marker.h).

#include <string_view>

namespace fleet {

// Which record finishes a turn, and where its text is: a record whose "type" is `record_type`
// (and, when `subtype_key` is set, whose member `container` has `subtype_key` == `subtype`),
// its text at `text_path` (one or two member names): a string, or an array of blocks with a
// "text" (of "type" `block_type` when that is not empty).
struct CompletionRecordForm {
  std::string_view record_type;
  std::string_view container;  // "" : the record itself
  std::string_view subtype_key;
  std::string_view subtype;
  std::string_view text_path[2];  // second "" : one member
  std::string_view block_type;
};

}  // namespace fleet
