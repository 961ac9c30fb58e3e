// Fuzz target: the launch registry record and the session state record. What parses is
// written so that it reads back, and a second round trip changes nothing (the first may
// replace text that is not valid UTF-8).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "agent/agent_profile.h"
#include "agents/agents.h"
#include "launch/registry.h"
#include "launch/session_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto record = fleet::parse_launch_record(text)) {
    auto once = fleet::parse_launch_record(fleet::launch_record_json(*record));
    if (!once) std::abort();
    auto again = fleet::parse_launch_record(fleet::launch_record_json(*once));
    if (!again || !(*again == *once)) std::abort();
  } else if (record.problem().empty()) {
    std::abort();  // a refusal always says why
  }
  if (auto state = fleet::parse_session_state(text)) {
    auto once = fleet::parse_session_state(fleet::session_state_json(*state));
    if (!once) std::abort();
    auto again = fleet::parse_session_state(fleet::session_state_json(*once));
    if (!again || !(*again == *once)) std::abort();
    for (const fleet::AgentProfile* agent : fleet::agent_profiles()) {
      fleet::plan_session_launch(*state, "k", {std::string(agent->name), "-p", "x"},
                                 "--append-system-prompt", *agent);
    }
  } else if (state.problem().empty()) {
    std::abort();
  }
  return 0;
}
