#pragma once
// GitHub Copilot CLI's launch profile: what launch-wrapper needs of it (agent/agent_profile.h
// says what each field means; agents/agents.h lists it).

#include "agent/agent_profile.h"

namespace fleet {

extern const AgentProfile kCopilotProfile;

}  // namespace fleet
