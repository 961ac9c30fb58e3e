#include "round_trip.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string_view>

#include "agent_configs.h"
#include "agents/agents.h"
#include "fixtures.h"
#include "temp_dir.h"
#include "tree.h"

namespace fleet::test {
namespace {

namespace fs = std::filesystem;

// Qwen Code 0.24.4's first run in the project: "$version" added to the project's settings,
// the file written again by JSON.stringify(…, null, 2), with no line break at its end. Once
// the suite's entries are out, `{"$version": 4}` is left.
std::vector<CliOwnFile> migrate_qwen_settings(const AgentCli& agent, const std::string& project) {
  const std::string file = project + "/" + std::string(agent.project_hook_file);
  const std::string wired = read_file(file);
  const std::string entries = wired.substr(0, wired.rfind('}'));  // each entry's line
  const std::size_t last_end = entries.rfind('\n');               // ends the last entry
  std::string migrated;
  migrated.append(entries, 0, last_end)
      .append(",")
      .append(entries, last_end)
      .append("  \"$version\": 4\n}");
  write_file(file, migrated);
  return {{std::string(agent.project_hook_file), "{\n  \"$version\": 4\n}\n"}};
}

// OpenCode 1.18.33 on every start: a .gitignore in the project's config folder (the folder
// above the plugins', .opencode/), naming what its install of @opencode-ai/plugin writes there
// and itself, with no line break at its end.
std::vector<CliOwnFile> write_opencode_gitignore(const AgentCli& agent,
                                                 const std::string& project) {
  const std::string path = fs::path(agent.plugin.folder).parent_path().string() + "/.gitignore";
  const std::string content = "node_modules\npackage.json\npackage-lock.json\nbun.lock\n.gitignore";
  write_file(project + "/" + path, content);
  return {{path, content}};
}

// What a CLI writes into a project when it first runs there, for the CLIs that write there.
struct FirstRunWrite {
  std::string_view cli;  // AgentCli::name
  std::vector<CliOwnFile> (*write)(const AgentCli& agent, const std::string& project);
};

constexpr FirstRunWrite kFirstRunWrites[] = {
    {.cli = "qwen", .write = &migrate_qwen_settings},
    {.cli = "opencode", .write = &write_opencode_gitignore},
};

// The path of a snapshot_tree entry.
std::string entry_path(const std::string& entry) {
  return entry.substr(0, entry.find(" perms="));
}

// `entries` without those of `own` files and of the directories that hold them.
std::vector<std::string> without(std::vector<std::string> entries,
                                 const std::vector<CliOwnFile>& own) {
  std::erase_if(entries, [&](const std::string& entry) {
    const std::string path = entry_path(entry);
    return std::any_of(own.begin(), own.end(), [&](const CliOwnFile& file) {
      return file.path == path || file.path.starts_with(path + "/");
    });
  });
  return entries;
}

}  // namespace

void furnish_home(const std::string& home) {
  for (const char* dir : {"/.codex", "/.copilot", "/.gemini", "/.qwen"})
    ::mkdir((home + dir).c_str(), 0755);
  write_file(home + "/.codex/config.toml", "# mine\nmodel = \"o3\"\n");
  ::chmod((home + "/.codex/config.toml").c_str(), 0600);
  write_file(home + "/.copilot/config.json",
             std::string(kCopilotConfigComments) +
                 "{\n  \"firstLaunchAt\": \"2026-11-26T00:00:00.000Z\"\n}\n");
}

std::vector<std::string> install_args(const AgentCli& agent, const std::string& project) {
  std::vector<std::string> args = {"install", "--project", project, "--agent",
                                   std::string(agent.name)};
  if (writes_hook_trust(agent)) args.push_back("--trust");
  return args;
}

std::vector<CliOwnFile> run_cli_once(const AgentCli& agent, const std::string& project) {
  for (const FirstRunWrite& cli : kFirstRunWrites) {
    REQUIRE_MESSAGE(find_agent_cli(cli.cli) != nullptr, "no agent CLI is named " << cli.cli);
    if (cli.cli == agent.name) return cli.write(agent, project);
  }
  return {};
}

void check_as_before_but_own(const std::string& project, const std::vector<std::string>& before,
                             const std::vector<CliOwnFile>& own) {
  for (const CliOwnFile& file : own)
    CHECK_MESSAGE(read_file(project + "/" + file.path) == file.after_uninstall, file.path);
  CHECK(without(snapshot_tree(project), own) == without(before, own));
}

void check_round_trip(const AgentCli& agent, const std::string& project, const std::string& home,
                      const FleetHooksRun& fleet_hooks,
                      const std::vector<std::string>& uninstall_options) {
  CAPTURE(agent.name);
  const auto project_before = snapshot_tree(project);
  const auto home_before = snapshot_tree(home);
  const RunResult installed = fleet_hooks(install_args(agent, project));
  REQUIRE_MESSAGE(installed.exit_code == 0, installed.out << installed.err);
  REQUIRE(snapshot_tree(project) != project_before);
  const std::vector<CliOwnFile> own = run_cli_once(agent, project);

  std::vector<std::string> uninstall = {"uninstall", "--project", project};
  uninstall.insert(uninstall.end(), uninstall_options.begin(), uninstall_options.end());
  const RunResult removed = fleet_hooks(uninstall);
  REQUIRE_MESSAGE(removed.exit_code == 0, removed.out << removed.err);
  check_as_before_but_own(project, project_before, own);
  CHECK(snapshot_tree(home) == home_before);
}

void check_round_trip_every_cli(const std::string& bin) {
  for (const AgentCli* agent : agent_clis()) {
    TempDir t;
    const std::string project = t / "project";
    const std::string home = t / "home";
    for (const std::string& dir : {project, home}) ::mkdir(dir.c_str(), 0755);
    furnish_home(home);
    check_round_trip(*agent, project, home, [&](const std::vector<std::string>& args) {
      std::vector<std::string> argv = {bin + "/fleet-hooks"};
      argv.insert(argv.end(), args.begin(), args.end());
      return run_with_only_env({"HOME=" + home, "PATH=" + bin + ":" + kSystemPath}, argv);
    });
  }
}

}  // namespace fleet::test
