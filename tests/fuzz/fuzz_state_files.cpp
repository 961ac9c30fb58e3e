// Fuzz target: the launch registry record and the session state record. What parses must
// survive a round trip.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "launch_registry.h"
#include "session_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string problem;
  if (auto record = fleet::parse_launch_record(text, problem)) {
    auto again = fleet::parse_launch_record(fleet::launch_record_json(*record), problem);
    if (!again || !(*again == *record)) std::abort();
  } else if (problem.empty()) {
    std::abort();  // a refusal always says why
  }
  problem.clear();
  if (auto state = fleet::parse_session_state(text, problem)) {
    auto again = fleet::parse_session_state(fleet::session_state_json(*state), problem);
    if (!again || !(*again == *state)) std::abort();
    fleet::plan_launch(*state);
  } else if (problem.empty()) {
    std::abort();
  }
  return 0;
}
