#pragma once
// The `--agent claude|codex|gemini` option of the hook programs: which agent CLI's hook input
// they read and whose dialect they answer in (agent_cli.h). Named explicitly on the command
// line that install writes, never guessed from the input.
// Failing: an unknown name is a CLI11 ValidationError (a usage error of the program, reported
// by cli::parse as "--agent must be one of claude, codex, gemini, not NAME").
// Inline: it runs on the guard's hot path, in the translation unit of the program's main, so
// that no other translation unit pays CLI11's static initialisers at every start.

#include <string>

#include <CLI/CLI.hpp>

#include "agents/agents.h"

namespace fleet {

// Adds --agent NAME to `app` and points `agent` at default_agent_cli(); parsing the option
// points it at that CLI's table.
inline CLI::Option* add_agent_option(CLI::App& app, const AgentCli*& agent) {
  agent = &default_agent_cli();
  return app
      .add_option_function<std::string>(
          "--agent",
          [&agent](const std::string& name) {
            agent = find_agent_cli(name);
            if (agent == nullptr) {
              throw CLI::ValidationError("--agent",
                                         name + " not in {" + agent_cli_names(",") + "}");
            }
          },
          "The agent CLI that runs this hook: its hook input is read and answered in its "
          "dialect (default: " +
              std::string(agent->name) + ")")
      ->option_text(agent_cli_names("|"));
}

// Checks an --agent value kept as the name (provenance-writer record's agent_cli): another
// word is "NAME not in {claude,codex,…}", as add_agent_option says it.
inline CLI::Validator agent_cli_name_check() {
  return CLI::Validator(
      [](const std::string& name) {
        return find_agent_cli(name) != nullptr ? std::string()
                                               : name + " not in {" + agent_cli_names(",") + "}";
      },
      "", "agent-cli");
}

}  // namespace fleet
