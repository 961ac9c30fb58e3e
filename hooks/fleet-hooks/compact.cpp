// fleet-hooks compact: rewrite the provenance store without damaged lines and later
// duplicates (common/store/store_compact.h).

#include <cstdio>

#include "base/cli.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "store/store_compact.h"
#include "subcommand.h"

namespace fleet_hooks {
namespace {

struct CompactOptions {
  std::string state_dir;
};

int run_compact(const CompactOptions& o) {
  const StateDirArgument state = state_dir_argument("compact", o.state_dir);
  if (state.exit_status) return *state.exit_status;
  const std::string store = fleet::provenance_store_path(state.dir);
  const fleet::CompactionReport report = fleet::compact_store(store);
  print(fleet::compaction_text(report, store));
  if (report.warning) {
    std::fprintf(stderr, "fleet-hooks compact: warning: %s\n", report.warning->c_str());
    return fleet::exit_status::failure;
  }
  return fleet::exit_status::ok;
}

}  // namespace

Subcommand add_compact(CLI::App& program) {
  auto o = std::make_shared<CompactOptions>();
  CLI::App* sub = program.add_subcommand(
      "compact",
      "Rewrite the store without damaged lines and later duplicates (safe with writers)");
  fleet::cli::add_state_dir_option(*sub, o->state_dir);
  return {sub, [o] { return run_compact(*o); }};
}

}  // namespace fleet_hooks
