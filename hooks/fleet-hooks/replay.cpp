// fleet-hooks replay: run ownership policy cases through the guard's logic
// (common/guard/policy_replay.h).

#include <cstdio>

#include "base/cli.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "guard/policy_replay.h"
#include "guard/resume_guard.h"
#include "subcommand.h"

namespace fleet_hooks {
namespace {

struct ReplayOptions {
  std::string cases;
  std::string state_dir;
};

int run_replay(const ReplayOptions& o) {
  if (o.cases.empty()) {
    std::fprintf(stderr,
                 "fleet-hooks replay: CASES.jsonl is required (a JSON-lines file of cases, or - "
                 "for standard input)\n");
    return fleet::exit_status::usage;
  }
  const StateDirArgument state = state_dir_argument("replay", o.state_dir);
  if (state.exit_status) return *state.exit_status;
  fleet::GuardOptions options;
  options.state_dir = state.dir;
  options.policy_case = true;                   // the same outcome on every checkout and runner
  options.agent = &fleet::default_agent_cli();  // cases are in the default CLI's hook input
  const auto results = fleet::replay_cases(o.cases, options);
  if (results.empty()) {
    std::fprintf(stderr, "fleet-hooks replay: %s holds no case; nothing was tested\n",
                 o.cases == "-" ? "standard input" : fleet::absolute_path(o.cases).c_str());
    return fleet::exit_status::failure;
  }
  print(fleet::replay_table(results));
  for (const auto& r : results) {
    if (!r.passed) return fleet::exit_status::failure;
  }
  return fleet::exit_status::ok;
}

}  // namespace

Subcommand add_replay(CLI::App& program) {
  auto o = std::make_shared<ReplayOptions>();
  CLI::App* sub =
      program.add_subcommand("replay", "Run ownership policy cases through the guard's logic");
  // Not ->required(): CLI11 would name it "cases", not CASES.jsonl as the manual does.
  sub->add_option("cases", o->cases,
                  "CASES.jsonl: JSON-lines file of cases (- reads standard input)");
  fleet::cli::add_state_dir_option(*sub, o->state_dir);
  return {sub, [o] { return run_replay(*o); }};
}

}  // namespace fleet_hooks
