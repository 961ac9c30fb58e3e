// fleet-hooks: wire the suite into the agent CLIs' hook files (`fleet-hooks agents` lists
// them), check the wiring in CI, look after the provenance store (verify, query, compact,
// replay policy cases), and show the guard log. Each subcommand is one file here (its options, and
// its result mapped to output and an exit status); main adds them, parses the command line, runs
// the one named and reports a fleet::Error, naming the program and the subcommand.

#include <cstdio>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/cli.h"
#include "base/error.h"
#include "base/exit_status.h"
#include "subcommand.h"
#include "version.h"

namespace {

// In the order --help lists them.
constexpr fleet_hooks::AddSubcommand kSubcommands[] = {
    fleet_hooks::add_install, fleet_hooks::add_uninstall, fleet_hooks::add_check,
    fleet_hooks::add_verify,  fleet_hooks::add_query,     fleet_hooks::add_compact,
    fleet_hooks::add_replay,  fleet_hooks::add_log,       fleet_hooks::add_agents,
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Wires fleet-hooks into the hooks of the agent CLIs (" +
          fleet::agent_cli_display_names(", ") +
          "; fleet-hooks agents lists them), checks the wiring, and maintains the provenance "
          "store.",
      "fleet-hooks"};
  app.set_version_flag("--version", std::string("fleet-hooks ") + fleet::kVersion);
  app.require_subcommand(1);
  std::vector<fleet_hooks::Subcommand> subcommands;
  for (const fleet_hooks::AddSubcommand add : kSubcommands) subcommands.push_back(add(app));

  fleet::cli::Settings cli;
  cli.usage_exit = fleet::exit_status::usage;
  if (const auto parsed = fleet::cli::parse(app, argc, argv, cli); parsed.exit_status) {
    return *parsed.exit_status;
  }
  for (const fleet_hooks::Subcommand& subcommand : subcommands) {
    if (!subcommand.app->parsed()) continue;
    try {
      return subcommand.run();
    } catch (const fleet::Error& e) {
      std::fprintf(stderr, "fleet-hooks %s: %s\n", subcommand.app->get_name().c_str(), e.what());
      return fleet::exit_status::failure;
    }
  }
  return fleet::exit_status::usage;  // not reached: require_subcommand(1)
}
