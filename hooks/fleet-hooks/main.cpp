// fleet-hooks: wire the suite into Claude Code settings, check the wiring in CI, and look
// after the provenance store (verify, query, compact, replay policy cases).

#include <unistd.h>
#include <cstdio>

#include <CLI/CLI.hpp>

#include "cli.h"
#include "error.h"
#include "exit_status.h"
#include "paths.h"
#include "policy_check.h"
#include "policy_replay.h"
#include "provenance_store.h"
#include "resume_guard.h"
#include "settings_file.h"
#include "settings_update.h"
#include "store_compact.h"
#include "store_query.h"
#include "store_verify.h"
#include "tool_names.h"
#include "version.h"

namespace {

void print(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

fleet::SettingsScope parse_scope(const std::string& scope) {
  if (scope == "local") return fleet::SettingsScope::local;
  if (scope == "user") return fleet::SettingsScope::user;
  return fleet::SettingsScope::project;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Wires fleet-hooks into Claude Code settings, checks the wiring, and maintains the "
      "provenance store.",
      "fleet-hooks"};
  app.set_version_flag("--version", std::string("fleet-hooks ") + fleet::kVersion);
  app.require_subcommand(1);

  std::string project = ".";
  std::string scope = "project";
  std::string bin_dir;
  std::string state_dir;
  bool dry_run = false;
  bool json = false;
  std::vector<std::string> tools;
  std::vector<std::string> plugin_dirs;
  bool fail_open_if_missing = false;
  const std::string state_dir_help =
      "State directory (default: $FLEET_HOOKS_STATE_DIR, $AUTOSKILLIT_STATE_DIR, or "
      "<project>/.autoskillit/temp[/<campaign>])";

  CLI::App* install = app.add_subcommand(
      "install",
      "Add resume-guard (PreToolUse) and provenance-writer (PostToolUse) to a settings file");
  install->add_option("--project", project, "Project directory (default: .)");
  install->add_option("--scope", scope, "project, local (settings.local.json) or user (~/.claude)")
      ->check(CLI::IsMember({"project", "local", "user"}));
  install->add_option("--bin-dir", bin_dir,
                      "Directory of the suite's binaries, written into local and user settings "
                      "(default: where fleet-hooks is); project settings find them on PATH");
  install
      ->add_option("--tool", tools, "Another dispatch tool name to guard and record (repeatable)")
      ->allow_extra_args(false);
  install->add_flag("--fail-open-if-missing", fail_open_if_missing,
                    "Let dispatches run unguarded (with an error shown) on a machine without "
                    "resume-guard, instead of blocking them");
  install->add_flag("--dry-run", dry_run, "Print the resulting file; write nothing");

  CLI::App* uninstall = app.add_subcommand("uninstall", "Remove exactly the suite's hook entries");
  uninstall->add_option("--project", project, "Project directory (default: .)");
  uninstall->add_option("--scope", scope, "project, local or user")
      ->check(CLI::IsMember({"project", "local", "user"}));
  uninstall->add_flag("--dry-run", dry_run, "Print the resulting file; write nothing");

  CLI::App* check = app.add_subcommand(
      "check", "CI policy check of the effective hook configuration (exit 1 on any error)");
  check->add_option("--project", project, "Project directory (default: .)");
  check->add_option("--state-dir", state_dir, state_dir_help);
  check->add_option("--tool", tools, "A dispatch tool name that must be guarded (repeatable)")
      ->allow_extra_args(false);
  check
      ->add_option("--plugin-dir", plugin_dirs,
                   "A Claude Code plugin directory loaded with claude --plugin-dir (repeatable)")
      ->allow_extra_args(false);
  check->add_flag("--json", json, "Findings as a JSON array");

  CLI::App* verify = app.add_subcommand("verify", "Check every line of the provenance store");
  verify->add_option("--state-dir", state_dir, state_dir_help);
  verify->add_flag("--json", json, "Report as JSON");

  std::string session, caller, kitchen, as_caller, kitchen_id;
  CLI::App* query = app.add_subcommand("query", "Show the records of a session, caller or kitchen");
  auto* by_session =
      query->add_option("--session", session, "Records of this session, and the guard's verdict");
  auto* by_caller =
      query->add_option("--caller", caller, "Records of sessions this session launched");
  auto* by_kitchen = query->add_option("--kitchen", kitchen, "Records of this kitchen");
  by_session->excludes(by_caller)->excludes(by_kitchen);
  by_caller->excludes(by_kitchen);
  query->add_option(
      "--as-caller", as_caller,
      "With --session: the caller to judge a resume for (default: $CLAUDE_CODE_SESSION_ID)");
  query->add_option("--kitchen-id", kitchen_id, "With --session: the current kitchen");
  query->add_option("--state-dir", state_dir, state_dir_help);
  query->add_flag("--json", json, "JSON lines only: the records, then the verdict as an object");

  CLI::App* compact = app.add_subcommand(
      "compact",
      "Rewrite the store without damaged lines and later duplicates (safe with writers)");
  compact->add_option("--state-dir", state_dir, state_dir_help);

  std::string cases;
  CLI::App* replay =
      app.add_subcommand("replay", "Run ownership policy cases through the guard's logic");
  replay->add_option("cases", cases, "JSON-lines file of cases (- reads standard input)")
      ->required();
  replay->add_option("--state-dir", state_dir, state_dir_help);

  fleet::cli::Settings cli;
  cli.usage_exit = fleet::exit_status::usage;
  if (const auto parsed = fleet::cli::parse(app, argc, argv, cli); parsed.exit_status) {
    return *parsed.exit_status;
  }

  // A tool name goes into a hook matcher: anything but letters, digits, _ and - is a usage
  // error, like any other bad value.
  for (const std::string& tool : tools) {
    if (fleet::is_valid_tool_name(tool)) continue;
    std::fprintf(stderr,
                 "fleet-hooks %s: --tool must be a tool name (1-128 letters, digits, _ and -), "
                 "not '%s'\n",
                 install->parsed() ? "install" : "check", tool.c_str());
    return fleet::exit_status::usage;
  }

  try {
    project = fleet::absolute_path(project);
    if ((install->parsed() || uninstall->parsed() || check->parsed()) &&
        !fleet::directory_problem(project).empty()) {
      std::fprintf(stderr, "fleet-hooks: the project directory %s does not exist\n",
                   project.c_str());
      return fleet::exit_status::usage;
    }
    if (install->parsed() || uninstall->parsed()) {
      const fleet::SettingsScope where = parse_scope(scope);
      const std::string path = fleet::settings_path(where, project);
      fleet::WiringOptions wiring;
      wiring.tools = tools;
      wiring.fail_open_if_missing = fail_open_if_missing;
      // The project's settings are committed: they name no path of this machine.
      if (where != fleet::SettingsScope::project) {
        wiring.bin_dir =
            fleet::absolute_path(bin_dir.empty() ? fleet::executable_directory() : bin_dir);
      } else if (install->parsed() && !bin_dir.empty()) {
        fleet::require_suite_binaries(fleet::absolute_path(bin_dir));
      }
      const fleet::SettingsUpdate update =
          install->parsed() ? fleet::plan_install(path, wiring) : fleet::plan_uninstall(path);
      if (dry_run) {
        print(update.text);
        return 0;
      }
      fleet::apply_update(update);
      print(update.summary + "\n");
      if (install->parsed() && where == fleet::SettingsScope::project) {
        const std::string note = fleet::portable_install_note(
            bin_dir.empty() ? fleet::executable_directory() : fleet::absolute_path(bin_dir));
        if (!note.empty()) std::fprintf(stderr, "fleet-hooks: note: %s\n", note.c_str());
      }
      return 0;
    }
    if (check->parsed()) {
      fleet::CheckOptions options;
      options.project_dir = project;
      options.state_dir = state_dir;
      options.tools = tools;
      for (const std::string& dir : plugin_dirs)
        options.plugin_dirs.push_back(fleet::absolute_path(dir));
      const std::string home = fleet::env_value("HOME");
      if (!home.empty()) options.user_settings = home + "/.claude/settings.json";
      std::vector<std::string> checked;
      const auto findings = fleet::check_wiring(options, &checked);
      if (json) {
        print(fleet::findings_json(findings));
      } else {
        print(fleet::findings_text(findings));
        if (!fleet::has_errors(findings)) {
          std::string names;
          for (const std::string& tool : checked)
            names += (names.empty() ? "" : ", ") + tool + " and mcp__*__" + tool;
          print("ok: resume-guard guards " + names + ", and denied a forged self-resume\n");
        }
      }
      return fleet::has_errors(findings) ? fleet::exit_status::failure : 0;
    }

    const std::string state = fleet::absolute_path(
        fleet::state_dir_for_project(state_dir, fleet::resolve_project_root("")));
    if (const std::string problem = fleet::directory_problem(state);
        !state_dir.empty() && !problem.empty()) {
      std::fprintf(stderr, "fleet-hooks %s: state directory %s %s (--state-dir)\n",
                   app.get_subcommands().front()->get_name().c_str(), state.c_str(),
                   problem.c_str());
      return fleet::exit_status::usage;
    }
    const std::string store = fleet::provenance_store_path(state);
    if (verify->parsed()) {
      const auto result = fleet::verify_store(store);
      print(json ? fleet::verification_json(result, store)
                 : fleet::verification_text(result, store));
      return result.has_errors() ? fleet::exit_status::failure : 0;
    }
    if (compact->parsed()) {
      const auto report = fleet::compact_store(store);
      if (!report.existed) {
        print(store + ": no store yet; nothing to compact\n");
      } else {
        print(store + ": kept " + std::to_string(report.kept) + " records, dropped " +
              std::to_string(report.dropped_damaged) + " damaged lines and " +
              std::to_string(report.dropped_duplicates) + " later duplicates\n");
      }
      return 0;
    }
    if (replay->parsed()) {
      fleet::GuardOptions options;
      options.state_dir = state;
      const auto results = fleet::replay_cases(cases, options);
      if (results.empty()) {
        std::fprintf(stderr, "fleet-hooks replay: %s holds no case; nothing was tested\n",
                     cases == "-" ? "standard input" : fleet::absolute_path(cases).c_str());
        return fleet::exit_status::failure;
      }
      print(fleet::replay_table(results));
      for (const auto& r : results) {
        if (!r.passed) return fleet::exit_status::failure;
      }
      return 0;
    }
    // query
    fleet::RecordField field = fleet::RecordField::session_id;
    std::string value = session;
    if (!caller.empty()) field = fleet::RecordField::caller_session_id, value = caller;
    if (!kitchen.empty()) field = fleet::RecordField::kitchen_id, value = kitchen;
    if (value.empty()) {
      std::fprintf(stderr, "fleet-hooks query: pass --session, --caller or --kitchen\n");
      return fleet::exit_status::usage;
    }
    const auto note = [](const std::string& line) {
      std::fprintf(stderr, "fleet-hooks query: %s\n", line.c_str());
    };
    const bool store_exists = ::access(store.c_str(), F_OK) == 0;
    if (field != fleet::RecordField::session_id) {
      const auto records = fleet::find_records(store, field, value);
      print(fleet::records_text(records));
      if (records.empty()) {
        note("no record has " +
             std::string(field == fleet::RecordField::kitchen_id ? "kitchen_id " : "caller ") +
             value + " in " + store + (store_exists ? "" : " (no store yet)"));
      }
      return records.empty() ? fleet::exit_status::failure : 0;
    }
    const fleet::SessionRecords found = fleet::find_session_records(store, session);
    print(fleet::records_text(found.records));
    print(fleet::query_verdict({state, session, as_caller, kitchen_id, json}));
    if (found.status == fleet::StoreLookup::Status::ambiguous) {
      std::string names;
      for (const auto& match : found.matches) names += (names.empty() ? "" : ", ") + match;
      note(session + " is the start of " + std::to_string(found.matches.size()) +
           " recorded session ids (" + names + "); pass more of the id");
    } else if (found.records.empty()) {
      note("no record of session " + session + " in " + store +
           (store_exists ? "" : " (no store yet)"));
    }
    return found.records.empty() ? fleet::exit_status::failure : 0;
  } catch (const fleet::Error& e) {
    std::fprintf(stderr, "fleet-hooks: %s\n", e.what());
    return fleet::exit_status::failure;
  }
}
