// fleet-hooks check: the CI policy check of the effective hook configuration
// (common/settings/policy_check.h).

#include "agents/agent_texts.h"
#include "agents/agents.h"
#include "base/cli.h"
#include "base/exit_status.h"
#include "base/paths.h"
#include "settings/check_report.h"
#include "settings/installed_cli.h"
#include "settings/policy_check.h"
#include "settings/settings_file.h"
#include "subcommand.h"

namespace fleet_hooks {
namespace {

struct CheckArguments {
  std::string project = ".";
  std::string state_dir;
  std::vector<std::string> tools;
  std::vector<std::string> plugin_dirs;
  std::vector<std::string> agents;
  bool json = false;
};

// The options checking `agent` in `project_dir`. With `home_required` false (finding out
// whether the CLI is wired at all), a CLI whose home is unknown is looked for in the project's
// file only: a CLI not wired there needs no home, and one wired there is checked, which then
// names the variable to set.
fleet::CheckOptions check_options(const CheckArguments& a, const std::string& project_dir,
                                  const fleet::AgentCli& agent, bool home_required = true) {
  fleet::CheckOptions options;
  options.project_dir = project_dir;
  options.state_dir = a.state_dir;
  options.tools = a.tools;
  options.agent = &agent;
  options.hosts = fleet::hook_file_hosts(agent);
  if (fleet::has_settings_scopes(agent)) {
    for (const std::string& dir : a.plugin_dirs)
      options.plugin_dirs.push_back(fleet::absolute_path(dir));
    options.user_settings = fleet::user_settings_path(agent).value_or("");
  } else {
    options.config_home = home_required ? fleet::agent_config_home(agent)
                                        : fleet::known_config_home(agent).value_or("");
  }
  return options;
}

// The CLIs to check: those --agent names; else each CLI whose hooks for the project hold the
// suite's entries (the default CLI when none does, so that the check fails saying how to wire).
fleet::CheckedClis clis_to_check(const CheckArguments& a, const std::string& project_dir) {
  fleet::CheckedClis clis;
  if (!a.agents.empty()) {
    clis.checked = agents_named(a.agents);
    return clis;
  }
  clis.chosen = true;
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    (fleet::suite_wired(check_options(a, project_dir, *agent, false)) ? clis.checked : clis.unwired)
        .push_back(agent);
  }
  clis.none_wired = clis.checked.empty();
  if (clis.none_wired) clis.checked.push_back(&fleet::default_agent_cli());
  return clis;
}

int run_check(const CheckArguments& a) {
  if (const auto bad = reject_bad_tools("check", a.tools)) return *bad;
  const ProjectArgument project = project_argument("check", a.project);
  if (project.exit_status) return *project.exit_status;
  const fleet::CheckedClis clis = clis_to_check(a, project.dir);
  std::vector<fleet::Finding> all;
  std::string text = fleet::checked_clis_text(clis, project.dir);
  for (const fleet::AgentCli* agent : clis.checked) {
    fleet::CheckResult result = fleet::check_wiring(check_options(a, project.dir, *agent));
    const std::vector<fleet::Finding> installed =
        fleet::installed_cli_findings(*agent, project.dir, result.findings);
    result.findings.insert(result.findings.end(), installed.begin(), installed.end());
    text += fleet::check_report_text(result.findings, result.checked_tools, *agent);
    all.insert(all.end(), result.findings.begin(), result.findings.end());
  }
  print(a.json ? fleet::findings_json(all) : text);
  if (fleet::only_untrusted(all)) return fleet::exit_status::untrusted;
  return fleet::has_errors(all) ? fleet::exit_status::failure : fleet::exit_status::ok;
}

}  // namespace

Subcommand add_check(CLI::App& program) {
  auto a = std::make_shared<CheckArguments>();
  CLI::App* sub = program.add_subcommand(
      "check",
      "CI policy check of the effective hook configuration (exit 1 on any error; 3 when every "
      "error is that an agent CLI skips the hooks until they are trusted)");
  sub->add_option("--project", a->project, "Project directory (default: .)");
  fleet::cli::add_state_dir_option(*sub, a->state_dir);
  sub->add_option("--tool", a->tools,
                  "A dispatch tool that must be guarded besides the default (dispatch_food_truck "
                  "and the tools the wired guards name; repeatable)")
      ->allow_extra_args(false)
      ->option_text("NAME");
  sub->add_option("--plugin-dir", a->plugin_dirs,
                  "A " + fleet::plugin_dirs_text() + " (repeatable)")
      ->allow_extra_args(false);
  add_agents_option(
      *sub, a->agents,
      "The agent CLI whose wiring to check, as it reads it: " + fleet::checked_wiring_text() +
          "; repeatable (default: every CLI wired in the project)");
  sub->add_flag("--json", a->json, "Findings as a JSON array");
  return {sub, [a] { return run_check(*a); }};
}

}  // namespace fleet_hooks
