// fleet-hooks verify: check every line of the provenance store (common/store/store_verify.h).

#include "base/cli.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "store/store_verify.h"
#include "subcommand.h"

namespace fleet_hooks {
namespace {

struct VerifyOptions {
  std::string state_dir;
  bool json = false;
};

int run_verify(const VerifyOptions& o) {
  const StateDirArgument state = state_dir_argument("verify", o.state_dir);
  if (state.exit_status) return *state.exit_status;
  const std::string store = fleet::provenance_store_path(state.dir);
  const auto result = fleet::verify_store(store);
  print(o.json ? fleet::verification_json(result, store) : fleet::verification_text(result, store));
  return result.has_errors() ? fleet::exit_status::failure : fleet::exit_status::ok;
}

}  // namespace

Subcommand add_verify(CLI::App& program) {
  auto o = std::make_shared<VerifyOptions>();
  CLI::App* sub = program.add_subcommand("verify", "Check every line of the provenance store");
  fleet::cli::add_state_dir_option(*sub, o->state_dir);
  sub->add_flag("--json", o->json, "Report as JSON");
  return {sub, [o] { return run_verify(*o); }};
}

}  // namespace fleet_hooks
