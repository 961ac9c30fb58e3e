// fleet-hooks query: the records of a session, caller or kitchen, and for a session the
// guard's verdict on resuming it (common/store/store_query.h, common/guard/resume_verdict.h).

#include <unistd.h>
#include <cstdio>

#include "base/cli.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "guard/resume_guard.h"
#include "guard/resume_verdict.h"
#include "store/provenance_record.h"
#include "store/provenance_store.h"
#include "store/store_query.h"
#include "subcommand.h"

namespace fleet_hooks {
namespace {

struct QueryOptions {
  std::string session, caller, kitchen, as_caller, kitchen_id;
  std::string state_dir;
  bool json = false;
};

int run_query(QueryOptions o) {
  const StateDirArgument state = state_dir_argument("query", o.state_dir);
  if (state.exit_status) return *state.exit_status;
  const std::string store = fleet::provenance_store_path(state.dir);
  fleet::RecordField field = fleet::RecordField::session_id;
  std::string value = o.session;
  if (!o.caller.empty()) field = fleet::RecordField::caller_session_id, value = o.caller;
  if (!o.kitchen.empty()) field = fleet::RecordField::kitchen_id, value = o.kitchen;
  if (value.empty()) {
    std::fprintf(stderr, "fleet-hooks query: pass --session, --caller or --kitchen\n");
    return fleet::exit_status::usage;
  }
  const auto note = [](const std::string& line) {
    std::fprintf(stderr, "fleet-hooks query: %s\n", line.c_str());
  };
  if (const auto project = fleet::project_taken_from_current_directory(o.state_dir)) {
    note(
        "no project given (no --state-dir, $FLEET_HOOKS_STATE_DIR, $AUTOSKILLIT_STATE_DIR or "
        "$CLAUDE_PROJECT_DIR): "
        "took the current directory " +
        *project + " for the project and read its store " + store);
  }
  const bool store_exists = ::access(store.c_str(), F_OK) == 0;
  if (field != fleet::RecordField::session_id) {
    const auto records = fleet::find_records(store, field, value);
    print(fleet::records_text(records));
    if (records.empty()) {
      note("no record has " +
           std::string(field == fleet::RecordField::kitchen_id ? "kitchen_id " : "caller ") +
           value + " in " + store + (store_exists ? "" : " (no store yet)"));
    }
    return records.empty() ? fleet::exit_status::failure : fleet::exit_status::ok;
  }
  std::string caller = o.as_caller;
  if (caller.empty()) {
    const fleet::Result<std::string> named = fleet::caller_from_environment(fleet::agent_clis());
    if (!named) note(named.problem() + "; pass --as-caller");
    caller = named ? *named : "";
  }
  if (caller.empty()) {
    note("no caller given (--as-caller, or " + fleet::caller_variables(fleet::agent_clis()) +
         "): the verdict is the guard's for a call that names no session");
  }
  const fleet::SessionRecords found = fleet::find_session_records(store, o.session);
  print(fleet::records_text(found.records));
  print(fleet::query_verdict({state.dir, o.session, caller, o.kitchen_id, o.json}));
  if (found.status == fleet::StoreLookup::Status::ambiguous) {
    std::string names;
    for (const auto& match : found.matches) names += (names.empty() ? "" : ", ") + match;
    note(o.session + " is the start of more than one recorded session id (" + names +
         ", ...); pass more of the id");
  } else if (found.records.empty()) {
    note("no record of session " + o.session + " in " + store +
         (store_exists ? "" : " (no store yet)"));
  }
  return found.records.empty() ? fleet::exit_status::failure : fleet::exit_status::ok;
}

}  // namespace

Subcommand add_query(CLI::App& program) {
  auto o = std::make_shared<QueryOptions>();
  CLI::App* sub =
      program.add_subcommand("query", "Show the records of a session, caller or kitchen");
  auto* by_session =
      sub->add_option("--session", o->session, "Records of this session, and the guard's verdict")
          ->option_text("ID");
  auto* by_caller =
      sub->add_option("--caller", o->caller, "Records of sessions this session launched")
          ->option_text("ID");
  auto* by_kitchen =
      sub->add_option("--kitchen", o->kitchen, "Records of this kitchen")->option_text("ID");
  by_session->excludes(by_caller)->excludes(by_kitchen);
  by_caller->excludes(by_kitchen);
  fleet::cli::set_usage(*sub,
                        "fleet-hooks query --session ID [--as-caller ID] [--kitchen-id ID] | "
                        "--caller ID | --kitchen ID\n"
                        "                         [--state-dir DIR] [--json]");
  sub->add_option("--as-caller", o->as_caller,
                  "With --session: the caller to judge a resume for (default: " +
                      fleet::caller_variables(fleet::agent_clis()) + ")")
      ->option_text("ID");
  sub->add_option("--kitchen-id", o->kitchen_id, "With --session: the current kitchen");
  fleet::cli::add_state_dir_option(*sub, o->state_dir);
  sub->add_flag("--json", o->json, "JSON lines only: the records, then the verdict as an object");
  return {sub, [o] { return run_query(*o); }};
}

}  // namespace fleet_hooks
