// fleet-hooks install / uninstall: the suite's hook entries into or out of a settings file
// (common/settings/settings_update.h).

#include <algorithm>
#include <cstdio>
#include <span>

#include "agents/agent_texts.h"
#include "agents/agents.h"
#include "base/error.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "base/word_list.h"
#include "settings/policy_check.h"
#include "settings/settings_update.h"
#include "settings/trust_written.h"
#include "subcommand.h"

namespace fleet_hooks {
namespace {

struct SettingsOptions {
  std::string project = ".";
  std::string scope = "project";
  std::string bin_dir;
  std::vector<std::string> tools;
  bool fail_open_if_missing = false;
  bool dry_run = false;
  bool trust = false;
  std::vector<std::string> agents;
};

void add_scope_options(CLI::App& sub, SettingsOptions& o, const std::string& scope_help,
                       const std::string& agent_help) {
  sub.add_option("--project", o.project, "Project directory (default: .)");
  sub.add_option("--scope", o.scope, scope_help)
      ->check(CLI::IsMember({"project", "local", "user"}));
  add_agents_option(sub, o.agents, agent_help);
}

// Installs or uninstalls the suite's entries of `agent`, printing what changed; with `quiet`,
// nothing when nothing changed. Returns whether it changed (or would with --dry-run) a file.
bool run_one(const std::string& name, const SettingsOptions& o, const fleet::AgentCli& agent,
             const std::string& project_dir, bool install, bool quiet) {
  const fleet::SettingsRequest request{
      project_dir, fleet::settings_scope_named(o.scope), o.bin_dir, o.tools, o.fail_open_if_missing,
      &agent};
  const fleet::SettingsUpdate update = fleet::update_settings(
      request, install ? fleet::SettingsAction::install : fleet::SettingsAction::uninstall,
      o.dry_run);
  for (const std::string& note : update.notes)
    std::fprintf(stderr, "fleet-hooks %s: note: %s\n", name.c_str(), note.c_str());
  if (quiet && !update.changed) return false;
  if (o.dry_run) {
    print(update.text);
    return update.changed;
  }
  print(update.summary + "\n");
  if (install) {
    if (const auto note = fleet::install_note(request))
      std::fprintf(stderr, "fleet-hooks %s: note: %s\n", name.c_str(), note->c_str());
  }
  return update.changed;
}

// After an install: a note for each reason the agent CLI will not run the hooks just wired —
// one line, with the step that trusts them, when trusting them is all it takes (fleet-hooks
// check says why, finding by finding); each other finding (hooks turned off) as it is.
void note_untrusted(const std::string& name, const fleet::AgentCli& agent,
                    const std::string& project_dir) {
  if (agent.hook_trust.check == nullptr) return;
  fleet::CheckOptions options;
  options.project_dir = project_dir;
  options.agent = &agent;
  options.config_home = fleet::agent_config_home(agent);
  bool untrusted = false;
  for (const fleet::Finding& finding : fleet::trust_findings(options)) {
    untrusted = untrusted || finding.fixed_by_trust;
    if (finding.fixed_by_trust) continue;
    std::fprintf(stderr, "fleet-hooks %s: note: %s: %s\n", name.c_str(), finding.rule.c_str(),
                 finding.message.c_str());
  }
  if (!untrusted) return;
  std::fprintf(stderr, "fleet-hooks %s: note: %s skips these hooks until you trust them: %s\n",
               name.c_str(), std::string(agent.display_name).c_str(),
               fleet::trust_step(agent, project_dir).c_str());
}

// The CLIs to act on: those --agent names; else install wires Claude Code, and uninstall
// unwires every CLI of the project (only Claude Code has local and user settings).
std::vector<const fleet::AgentCli*> agents_to_act_on(const SettingsOptions& o, bool install) {
  if (install || !o.agents.empty() || o.scope != "project") return agents_named(o.agents);
  return {fleet::agent_clis().begin(), fleet::agent_clis().end()};
}

// The usage errors of a valid project: --scope with a CLI that has only the project's file;
// a project install into the home directory, whose files are each CLI's user settings.
std::optional<int> reject_misplaced(const std::string& name, const SettingsOptions& o,
                                    const std::vector<const fleet::AgentCli*>& agents,
                                    const std::string& project_dir, bool install) {
  for (const fleet::AgentCli* agent : agents) {
    fleet::SettingsRequest request;
    request.project_dir = project_dir;
    request.scope = fleet::settings_scope_named(o.scope);
    request.agent = agent;
    if (const auto problem = fleet::scope_problem(request, fleet::agent_clis())) {
      std::fprintf(stderr, "fleet-hooks %s: %s (nothing was changed)\n", name.c_str(),
                   problem->c_str());
      return fleet::exit_status::usage;
    }
  }
  const std::optional<std::string> home = fleet::real_path(fleet::env_value("HOME"));
  if (install && o.scope == "project" && home && fleet::real_path(project_dir) == home) {
    std::fprintf(stderr,
                 "fleet-hooks %s: the project %s is your home directory, where each agent CLI "
                 "keeps its user settings (%s), not a project's; run it in a project or pass "
                 "--project DIR — or --scope user to wire every project of yours into %s "
                 "(nothing was changed)\n",
                 name.c_str(), project_dir.c_str(), fleet::user_hook_files_text().c_str(),
                 fleet::scoped_clis_text().c_str());
    return fleet::exit_status::usage;
  }
  return std::nullopt;
}

// --trust without a CLI whose trust it writes: the usage error naming those CLIs.
int reject_trust_without_writer(const std::string& name) {
  std::fprintf(stderr, "fleet-hooks %s: --trust trusts the %s wiring: pass %s with it\n",
               name.c_str(), fleet::trust_writers_text().c_str(),
               fleet::trust_writer_options_text().c_str());
  return fleet::exit_status::usage;
}

// install --trust: trusts the project and the suite's hooks of `agent`'s project file, or says
// where it would with --dry-run.
void write_trust(const std::string& name, const fleet::AgentCli& agent,
                 const std::string& project_dir, bool dry_run) {
  const fleet::HookTrust& trust = agent.hook_trust;
  const std::string config_home = fleet::agent_config_home(agent);
  const std::string hook_file(agent.project_hook_file);
  if (dry_run) {
    std::fprintf(stderr,
                 "fleet-hooks %s: note: --dry-run trusts nothing; without it, --trust trusts the "
                 "project and the suite's hooks of %s in %s\n",
                 name.c_str(), hook_file.c_str(), trust.record_path(config_home).c_str());
    return;
  }
  const fleet::TrustUpdate trusted = trust.write(project_dir, config_home, false);
  if (trusted.project_trusted) {  // the user's trust was not there: uninstall takes it back
    fleet::note_trust_written(trusted.path, trusted.project, trusted.created);
  }
  // A trust of the folder alone (GitHub Copilot CLI) covers every hook of it.
  const std::string hooks =
      trusted.trusted.empty()
          ? ", which covers the hooks of " + hook_file
          : " and " + std::to_string(trusted.trusted.size()) + " fleet-hooks hooks of " + hook_file;
  print(std::string(trusted.changed ? "trusted" : "already trusted") + " in " + trusted.path +
        ": the project " + trusted.project + hooks + "\n");
  for (const fleet::TrustRefusal& refused : trusted.refused) {
    std::fprintf(stderr,
                 "fleet-hooks %s: warning: not trusted: %s runs a command fleet-hooks install "
                 "does not write, so %s keeps skipping it: %s. Remove that entry, then run "
                 "this again\n",
                 name.c_str(), refused.key.c_str(), std::string(trust.named_as).c_str(),
                 refused.command.c_str());
  }
}

// What uninstall took back (or would with --dry-run) of a CLI's trust: "the trust of 3
// fleet-hooks hooks and the project <dir> from <record>"; "" : nothing.
std::string untrusted_text(const fleet::TrustUpdate& removed) {
  std::vector<std::string> parts;
  if (!removed.untrusted.empty())
    parts.push_back(std::to_string(removed.untrusted.size()) + " fleet-hooks hooks");
  if (removed.project_trusted) parts.push_back("the project " + removed.project);
  if (parts.empty()) return "";
  return "the trust of " + fleet::word_list(parts, " and ", " and ") + " from " + removed.path +
         (removed.created ? " (install --trust had created it, so it is removed)" : "");
}

// uninstall, before `agent`'s project file is unwired (the trust is found through its hooks):
// takes back the trust install --trust wrote — the suite's hooks, and the project's own trust
// when install added it (trust_written.h); a trust the user gave stays. What cannot be looked
// at is a warning, never a failed uninstall.
void remove_trust(const std::string& name, const fleet::AgentCli& agent,
                  const std::string& project_dir, bool dry_run) {
  const fleet::HookTrust& trust = agent.hook_trust;
  if (trust.remove == nullptr) return;
  try {
    const std::string config_home = fleet::agent_config_home(agent);
    const std::string record = trust.record_path(config_home);
    const std::string project = fleet::real_path(project_dir).value_or(project_dir);
    const std::optional<fleet::WrittenTrust> written = fleet::trust_written(record, project);
    const fleet::TrustUpdate removed =
        trust.remove(project_dir, config_home, written ? &*written : nullptr, dry_run);
    const std::string what = untrusted_text(removed);
    if (dry_run) {
      if (!what.empty())
        std::fprintf(stderr, "fleet-hooks %s: note: --dry-run removes nothing; without it, %s\n",
                     name.c_str(), ("it removes " + what).c_str());
      return;
    }
    if (written) fleet::forget_trust_written(record, project);
    if (!what.empty()) print("removed " + what + "\n");
    if (written && !removed.project_trusted && !removed.text.empty()) {
      std::fprintf(stderr,
                   "fleet-hooks %s: note: the trust of the project %s in %s stays: it is no "
                   "longer as install --trust wrote it, so it is yours to remove\n",
                   name.c_str(), project.c_str(), record.c_str());
    }
  } catch (const fleet::Error& e) {
    std::fprintf(stderr, "fleet-hooks %s: warning: %s's trust of the suite's hooks stays: %s\n",
                 name.c_str(), std::string(trust.named_as).c_str(), e.what());
  }
}

int run_settings(const std::string& name, const SettingsOptions& o, bool install) {
  if (const auto bad = reject_bad_tools(name, o.tools)) return *bad;
  const ProjectArgument project = project_argument(name, o.project, o.scope != "user");
  if (project.exit_status) return *project.exit_status;
  const std::vector<const fleet::AgentCli*> agents = agents_to_act_on(o, install);
  if (const auto misplaced = reject_misplaced(name, o, agents, project.dir, install))
    return *misplaced;
  const std::vector<const fleet::AgentCli*> trusting =
      fleet::agent_clis_with(agents, fleet::writes_hook_trust);
  if (o.trust && trusting.empty()) return reject_trust_without_writer(name);
  if (install) {  // where each CLI keeps its trust is known before anything is written
    for (const fleet::AgentCli* agent : agents) {
      if (agent->hook_trust.check != nullptr) fleet::agent_config_home(*agent);
    }
  }
  // Unwiring every CLI of the project: a line for each file it changes, one if it changes none.
  const bool every_cli = !install && o.agents.empty() && o.scope == "project";
  bool changed = false;
  for (const fleet::AgentCli* agent : agents) {
    if (!install) remove_trust(name, *agent, project.dir, o.dry_run);
    changed = run_one(name, o, *agent, project.dir, install, every_cli) || changed;
  }
  if (every_cli && !changed) {
    print("nothing to remove: no file of an agent CLI in " + project.dir +
          " holds fleet-hooks entries (" + fleet::wired_files_text() + ")\n");
  }
  if (o.trust) {
    for (const fleet::AgentCli* agent : trusting) write_trust(name, *agent, project.dir, o.dry_run);
  }
  if (install && !o.dry_run) {
    for (const fleet::AgentCli* agent : agents) note_untrusted(name, *agent, project.dir);
  }
  return fleet::exit_status::ok;
}

}  // namespace

Subcommand add_install(CLI::App& program) {
  auto o = std::make_shared<SettingsOptions>();
  CLI::App* sub = program.add_subcommand(
      "install",
      "Wire resume-guard (before the dispatch tool) and provenance-writer (after it) into an "
      "agent CLI's hook file");
  const std::string default_name(fleet::default_agent_cli().name);
  add_scope_options(*sub, *o, "project, " + fleet::scope_files_text(),
                    "The agent CLI whose project file to wire: " + fleet::wired_files_text() +
                        "; repeatable (default: " + default_name + ")");
  sub->add_option("--bin-dir", o->bin_dir,
                  "Directory of the suite's binaries, written into local and user settings "
                  "(default: where fleet-hooks is); project settings find them on PATH");
  sub->add_option("--tool", o->tools, "Another dispatch tool name to guard and record (repeatable)")
      ->allow_extra_args(false)
      ->option_text("NAME");
  sub->add_flag("--fail-open-if-missing", o->fail_open_if_missing,
                "Let dispatches run unguarded (with an error shown) on a machine without "
                "resume-guard, instead of blocking them");
  sub->add_flag("--trust", o->trust,
                "Trust the suite's wiring where the CLI keeps its trust, so that it runs the "
                "hooks (doc/agents.md, Trust): " +
                    fleet::trust_written_text());
  sub->add_flag("--dry-run", o->dry_run, "Print the resulting file; write nothing");
  return {sub, [o] { return run_settings("install", *o, true); }};
}

Subcommand add_uninstall(CLI::App& program) {
  auto o = std::make_shared<SettingsOptions>();
  CLI::App* sub = program.add_subcommand(
      "uninstall",
      "Remove exactly the suite's hook entries (of every agent CLI's file) and the trust "
      "install --trust wrote");
  const std::string scoped = fleet::scoped_clis_text();
  add_scope_options(
      *sub, *o, "project, local or user (" + scoped + "'s settings files)",
      "The agent CLI whose project file to unwire: " +
          fleet::agent_cli_list(fleet::agent_clis(), &fleet::AgentCli::name, ", ", " or ") +
          "; repeatable (default: every CLI's file in the project, or with --scope "
          "local or user " +
          scoped + "'s)");
  sub->add_flag("--dry-run", o->dry_run, "Print the resulting file; write nothing");
  return {sub, [o] { return run_settings("uninstall", *o, false); }};
}

}  // namespace fleet_hooks
