#include "agents/agents.h"

#include <array>

#include "agents/claude/claude_cli.h"
#include "agents/claude/claude_profile.h"
#include "agents/codex/codex_cli.h"
#include "agents/codex/codex_profile.h"
#include "agents/copilot/copilot_cli.h"
#include "agents/copilot/copilot_profile.h"
#include "agents/gemini/gemini_cli.h"
#include "agents/gemini/gemini_profile.h"
#include "agents/opencode/opencode_cli.h"
#include "agents/opencode/opencode_profile.h"
#include "agents/qwen/qwen_cli.h"
#include "agents/qwen/qwen_profile.h"

namespace fleet {
namespace {

// One CLI: its hook table and its launch profile (the same name).
struct AgentHome {
  const AgentCli* cli;
  const AgentProfile* profile;
};

// The CLIs the suite knows, one line each, the default (Claude Code) first.
constexpr AgentHome kHomes[] = {
    {.cli = &kClaudeCli, .profile = &kClaudeProfile},
    {.cli = &kCodexCli, .profile = &kCodexProfile},
    {.cli = &kGeminiCli, .profile = &kGeminiProfile},
    {.cli = &kQwenCli, .profile = &kQwenProfile},
    {.cli = &kCopilotCli, .profile = &kCopilotProfile},
    {.cli = &kOpenCodeCli, .profile = &kOpenCodeProfile},
};

constexpr auto kClis = [] {
  std::array<const AgentCli*, std::size(kHomes)> clis{};
  for (std::size_t i = 0; i < clis.size(); ++i) clis[i] = kHomes[i].cli;
  return clis;
}();

constexpr auto kProfiles = [] {
  std::array<const AgentProfile*, std::size(kHomes)> profiles{};
  for (std::size_t i = 0; i < profiles.size(); ++i) profiles[i] = kHomes[i].profile;
  return profiles;
}();

}  // namespace

const AgentCli& default_agent_cli() {
  return *kHomes[0].cli;
}

const AgentCli& claude_code() {
  return kClaudeCli;
}

std::span<const AgentCli* const> agent_clis() {
  return kClis;
}

const AgentCli* find_agent_cli(std::string_view name) {
  for (const AgentHome& home : kHomes) {
    if (home.cli->name == name) return home.cli;
  }
  return nullptr;
}

std::vector<const AgentCli*> hook_file_hosts(const AgentCli& reader) {
  std::vector<const AgentCli*> hosts;
  for (const AgentCli* host : kClis) {
    for (const HookFileReader& other : host->also_read_by) {
      if (other.display_name == reader.display_name) hosts.push_back(host);
    }
  }
  return hosts;
}

std::string agent_cli_names(std::string_view separator) {
  return agent_cli_list(kClis, &AgentCli::name, separator, separator);
}

std::string agent_cli_display_names(std::string_view separator) {
  return agent_cli_list(kClis, &AgentCli::display_name, separator, separator);
}

const AgentProfile& claude_profile() {
  return *kHomes[0].profile;
}

const AgentProfile* find_agent_profile(std::string_view name) {
  for (const AgentHome& home : kHomes) {
    if (home.profile->name == name) return home.profile;
  }
  return nullptr;
}

std::span<const AgentProfile* const> agent_profiles() {
  return kProfiles;
}

}  // namespace fleet
