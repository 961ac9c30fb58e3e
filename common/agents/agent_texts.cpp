#include "agents/agent_texts.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "agents/agents.h"
#include "base/word_list.h"

namespace fleet {
namespace {

using Words = std::vector<std::string>;

// The parts one after the other.
std::string cat(std::initializer_list<std::string_view> parts) {
  std::string text;
  for (const std::string_view part : parts) text += part;
  return text;
}

// The user's hook file of `agent` under its default configuration directory:
// "~/.claude/settings.json".
std::string user_file_text(const AgentCli& agent) {
  return cat({"~/", agent.config_home_default, "/", agent.user_hook_file});
}

bool picks_own_id(const AgentProfile& agent) {
  return agent.session_id.assign_option.empty();
}

}  // namespace

std::string wired_files_text() {
  Words words;
  for (const AgentCli* agent : agent_clis())
    words.push_back(cat({agent->name, " (", agent->project_hook_file, ")"}));
  return word_list(words, ", ", " or ");
}

std::string checked_wiring_text() {
  Words words;
  for (const AgentCli* agent : agent_clis()) {
    const std::string_view trust = agent->hook_trust.checked;
    words.push_back(cat(
        {agent->name, " (", agent->project_hook_file, trust.empty() ? "" : " and ", trust, ")"}));
  }
  return word_list(words, ", ", " or ");
}

std::string trust_written_text() {
  Words words;
  for (const AgentCli* agent : agent_clis_with(agent_clis(), writes_hook_trust)) {
    const std::string home = agent->config_home_variable.empty()
                                 ? cat({"~/", agent->config_home_default})
                                 : cat({"$", agent->config_home_variable});
    words.push_back(cat({"with --agent ", agent->name, ", ", agent->hook_trust.written, " ",
                         agent->hook_trust.record_path(home)}));
  }
  return word_list(words, "; ", "; ");
}

std::string trust_writers_text() {
  Words words;
  for (const AgentCli* agent : agent_clis_with(agent_clis(), writes_hook_trust))
    words.emplace_back(agent->hook_trust.named_as);
  return word_list(words, ", ", " or ");
}

std::string trust_writer_options_text() {
  return agent_cli_list(agent_clis_with(agent_clis(), writes_hook_trust), &AgentCli::name, ", ",
                        " or ", "--agent ");
}

std::string trust_step(const AgentCli& agent, const std::string& project_dir) {
  const std::string name(agent.name);
  if (writes_hook_trust(agent))
    return "fleet-hooks install --project " + project_dir + " --agent " + name + " --trust";
  return "run `" + name + "` in " + project_dir + " and trust the folder";
}

std::string user_hook_files_text() {
  Words words;
  for (const AgentCli* agent : agent_clis())
    if (!agent->user_hook_file.empty()) words.push_back(user_file_text(*agent));
  return word_list(words, ", ", ", ");
}

std::string scoped_clis_text() {
  return agent_cli_list(agent_clis_with(agent_clis(), has_settings_scopes), &AgentCli::display_name,
                        ", ", " and ");
}

std::string scope_files_text() {
  Words local;
  Words user;
  for (const AgentCli* agent : agent_clis_with(agent_clis(), has_settings_scopes)) {
    local.emplace_back(agent->settings_scopes.local_file);
    user.push_back(user_file_text(*agent));
    if (!agent->config_home_variable.empty())
      user.back() +=
          cat({", or $", agent->config_home_variable, "/", agent->user_hook_file, " when set"});
  }
  return cat(
      {"local (", word_list(local, ", ", ", "), ") or user (", word_list(user, ", ", ", "), ")"});
}

std::string hook_event_text(std::string_view AgentCli::*event) {
  const std::string_view usual = default_agent_cli().*event;
  Words others;
  for (const AgentCli* agent : agent_clis()) {
    if (agent->*event != usual && !(agent->*event).empty())
      others.push_back(cat({agent->display_name, ": ", agent->*event}));
  }
  return others.empty() ? std::string(usual)
                        : cat({usual, " (", word_list(others, "; ", "; "), ")"});
}

std::string start_hooks_text() {
  Words words;
  for (const AgentProfile* agent : agent_profiles())
    if (picks_own_id(*agent))
      words.push_back(cat({agent->display_name, "'s ", agent->session_id.start_hook}));
  return word_list(words, ", ", " and ");
}

std::string self_naming_clis_text() {
  Words words;
  for (const AgentProfile* agent : agent_profiles())
    if (picks_own_id(*agent)) words.emplace_back(agent->display_name);
  return word_list(words, ", ", " and ");
}

std::string mcp_call_clis_text() {
  Words words;
  for (const AgentCli* cli : agent_clis()) {
    if (!cli->mcp_call.session_path.empty())
      words.push_back(std::string(cli->display_name) + ": its session");
    else if (!cli->mcp_call.call_id_key.empty())
      words.push_back(std::string(cli->display_name) + ": its call id");
    else if (binds_call_token(*cli))
      words.push_back(std::string(cli->display_name) + ": the guard's token in " +
                      std::string(cli->mcp_call.token_argument));
  }
  return word_list(words, "; ", "; ");
}

std::string record_types_text() {
  Words words;
  for (const AgentProfile* agent : agent_profiles()) {
    const std::string type(agent->completion.record_type);
    if (std::ranges::find(words, type) == words.end()) words.push_back(type);
  }
  return word_list(words, ", ", " or ");
}

std::string session_files_text() {
  Words words;
  Words on_stdout;
  for (const AgentProfile* agent : agent_profiles()) {
    if (agent->session_file == nullptr)
      on_stdout.emplace_back(agent->name);
    else
      words.push_back(cat({agent->name, ": ", agent->session_file_shown}));
  }
  if (!on_stdout.empty())
    words.push_back(word_list(on_stdout, ", ", " and ") +
                    (on_stdout.size() == 1 ? ": its stdout" : ": their stdout"));
  return word_list(words, "; ", "; ");
}

std::string plugin_dirs_text() {
  Words words;
  for (const AgentCli* agent : agent_clis_with(agent_clis(), loads_hook_plugins))
    words.push_back(cat({agent->display_name, " plugin directory loaded with ",
                         agent->hook_plugins.command, " --plugin-dir"}));
  return word_list(words, ", ", " or ");
}

}  // namespace fleet
