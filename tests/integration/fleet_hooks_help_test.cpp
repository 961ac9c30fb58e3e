// `fleet-hooks <subcommand> --help` and the manual (doc/fleet-hooks.md) agree: every option
// --help lists is in the manual's synopsis of that subcommand, with the same placeholder, and
// every option of the synopsis is in --help — so a person reading either types what works.

#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "agents/agents.h"
#include "process.h"
#include "temp_dir.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::split_lines;

namespace {

// option → placeholder ("" for a flag), as "--name PLACEHOLDER" words in `text`.
std::map<std::string, std::string> options_in(const std::string& text) {
  static const std::regex option(R"((--[a-z][a-z-]*)(?: ([A-Z][A-Za-z.]*|[a-z]+(?:\|[a-z]+)+))?)");
  std::map<std::string, std::string> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), option);
       it != std::sregex_iterator(); ++it) {
    found.emplace((*it)[1].str(), (*it)[2].str());
  }
  return found;
}

// The synopsis lines of each subcommand in doc/fleet-hooks.md (its first code block), joined.
std::map<std::string, std::string> manual_synopsis() {
  const std::string page = read_file(FLEET_FIXTURES "/../../doc/fleet-hooks.md");
  const std::size_t begin = page.find("```\n") + 4;
  const std::string block = page.substr(begin, page.find("```", begin) - begin);
  std::map<std::string, std::string> synopsis;
  std::string current;
  for (const std::string& line : split_lines(block)) {
    if (line.starts_with("fleet-hooks ")) {
      current = line.substr(12, line.find(' ', 12) - 12);
      synopsis[current] = line.substr(12 + current.size());
    } else if (!current.empty()) {
      synopsis[current] += " " + line;
    }
  }
  return synopsis;
}

// The options --help lists: the lines that start with "  --".
std::map<std::string, std::string> help_options(const std::string& subcommand) {
  const auto r = run_process({FLEET_HOOKS_CLI, subcommand, "--help"});
  REQUIRE(r.exit_code == 0);
  std::string listed;
  for (const std::string& line : split_lines(r.out)) {
    if (!line.starts_with("  --")) continue;
    // The name and its placeholder: CLI11's first column (28 wide; a longer one stands alone,
    // its description on the next line), without an annotation such as "(required)".
    const bool alone = line.size() > 30 && line[29] != ' ';
    std::string column = line.size() > 30 && !alone ? line.substr(2, 28) : line.substr(2);
    column = column.substr(0, column.find(" ("));
    listed += column + "\n";
  }
  std::map<std::string, std::string> options = options_in(listed);
  options.erase("--help");
  return options;
}

}  // namespace

TEST_CASE("fleet-hooks --help of each subcommand lists the options of the manual's synopsis") {
  const std::map<std::string, std::string> synopsis = manual_synopsis();
  for (const char* subcommand :
       {"install", "uninstall", "check", "verify", "query", "compact", "replay", "log"}) {
    INFO(subcommand);
    REQUIRE(synopsis.count(subcommand) == 1);
    const std::map<std::string, std::string> manual = options_in(synopsis.at(subcommand));
    const std::map<std::string, std::string> help = help_options(subcommand);
    for (const auto& [option, placeholder] : help) {
      const std::string missing = option + " is not in the manual's synopsis";
      CHECK_MESSAGE(manual.count(option) == 1, missing);
      if (manual.count(option) == 1) {
        const std::string differs =
            option + ": --help says '" + placeholder + "', the manual '" + manual.at(option) + "'";
        CHECK_MESSAGE(manual.at(option) == placeholder, differs);
      }
    }
    for (const auto& [option, placeholder] : manual) {
      const std::string missing = option + " of the manual is not in --help";
      CHECK_MESSAGE(help.count(option) == 1, missing);
    }
  }
}

TEST_CASE("fleet-hooks query --help shows its alternatives as the manual's synopsis does") {
  // The manual writes options that exclude each other as alternatives (`--session ID … |
  // --caller ID | --kitchen ID`); --help shows that usage line, not a note of its own.
  const auto collapsed = [](const std::string& text) {
    return std::regex_replace(text, std::regex("\\s+"), " ");
  };
  const std::string manual = collapsed("fleet-hooks query" + manual_synopsis().at("query"));
  const auto r = run_process({FLEET_HOOKS_CLI, "query", "--help"});
  REQUIRE(r.exit_code == 0);
  const std::size_t usage = r.out.find("Usage: ");
  REQUIRE(usage != std::string::npos);
  const std::string shown = r.out.substr(usage + 7, r.out.find("\n\n", usage) - usage - 7);
  CHECK(collapsed(shown) == manual);
  for (const char* subcommand :
       {"install", "uninstall", "check", "verify", "query", "compact", "replay", "log"}) {
    CAPTURE(subcommand);
    CHECK_FALSE(contains(run_process({FLEET_HOOKS_CLI, subcommand, "--help"}).out, "(not with"));
  }
}

TEST_CASE("fleet-hooks --help says the suite wires every agent CLI") {
  const auto r = run_process({FLEET_HOOKS_CLI, "--help"});
  for (const fleet::AgentCli* agent : fleet::agent_clis())
    CHECK(contains(r.out, std::string(agent->display_name)));
  CHECK_FALSE(contains(r.out, "into Claude Code settings"));
  const auto uninstall = run_process({FLEET_HOOKS_CLI, "uninstall", "--help"});
  CHECK_FALSE(contains(uninstall.out, "to wire"));
  CHECK(contains(uninstall.out, "to unwire"));
  const auto writer = run_process({FLEET_PROVENANCE_WRITER, "--help"});
  for (const fleet::AgentCli* agent : fleet::agent_clis())
    CHECK(contains(writer.out, std::string(agent->display_name)));
}

TEST_CASE("--help names every agent CLI where an option or a default takes one") {
  const auto help = [](const std::string& program, const std::vector<std::string>& words) {
    std::vector<std::string> argv{program};
    argv.insert(argv.end(), words.begin(), words.end());
    argv.push_back("--help");
    const auto r = run_process(argv);
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  const std::string install = help(FLEET_HOOKS_CLI, {"install"});
  const std::string uninstall = help(FLEET_HOOKS_CLI, {"uninstall"});
  const std::string check = help(FLEET_HOOKS_CLI, {"check"});
  const std::string query = help(FLEET_HOOKS_CLI, {"query"});
  const std::string wrapper = help(FLEET_LAUNCH_WRAPPER, {});
  const std::string record = help(FLEET_PROVENANCE_WRITER, {"record"});
  for (const fleet::AgentCli* agent : fleet::agent_clis()) {
    const std::string name(agent->name);
    const std::string file = name + " (" + std::string(agent->project_hook_file);
    CAPTURE(name);
    CHECK(contains(install, file + ")"));
    CHECK(contains(check, file));
    CHECK(contains(uninstall, name));
    if (agent->hook_trust.write != nullptr) CHECK(contains(install, "with --agent " + name + ","));
    const std::string variable = std::string("$").append(agent->caller_variable);
    if (!agent->caller_variable.empty()) {
      CHECK(contains(query, variable));
      CHECK(contains(wrapper, variable));
      CHECK(contains(record, variable));
    }
  }
  for (const fleet::AgentProfile* profile : fleet::agent_profiles()) {
    CAPTURE(profile->name);
    CHECK(contains(wrapper, std::string(profile->completion.record_type)));
    if (profile->session_id.assign_option.empty())
      CHECK(contains(wrapper, std::string(profile->display_name)));
  }
}
