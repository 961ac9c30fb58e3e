#pragma once
// OpenCode's launch profile: what launch-wrapper needs of it (agent/agent_profile.h says what
// each field means; agents/agents.h lists it).

#include "agent/agent_profile.h"

namespace fleet {

extern const AgentProfile kOpenCodeProfile;

}  // namespace fleet
