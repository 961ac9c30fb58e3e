// Fuzz target: the completion-marker match on arbitrary transcript lines.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "agents/agents.h"
#include "launch/completion_marker.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  static const fleet::MarkerRule strict{"%%DONE%%", "assistant", false,
                                        &fleet::claude_profile().completion};
  static const fleet::MarkerRule anywhere{"%%DONE%%", "assistant", true,
                                          &fleet::claude_profile().completion};
  const bool on_own_line = fleet::record_has_marker(line, strict);
  const bool inside = fleet::record_has_marker(line, anywhere);
  if (on_own_line && !inside) std::abort();  // anywhere accepts everything strict does
  return 0;
}
