// Whatever install_suite_hooks accepts and writes, check_wiring passes: settings generated
// from matchers (names, patterns, too broad, invalid), guard commands with and without
// --tool, groups of the suite's alone, shared with a user's hook or holding two suite entries
// for different tools, and timeouts, installed
// with and without --tool, then checked with stand-ins for the suite's executables. The
// generation is a fixed enumeration: the same cases every run.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "agents/agents.h"
#include "base/error.h"
#include "base/json.h"
#include "fixtures.h"
#include "settings/check_report.h"
#include "settings/hook_wiring.h"
#include "settings/policy_check.h"
#include "settings/settings_file.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;
using fleet::test::write_file;
using fleet::test::write_script;

namespace {

const std::vector<std::string> kMatchers = {
    "",
    "*",
    "dispatch_food_truck",
    "Bash",
    "dispatch_food_truck|Bash",
    "Read, dispatch_food_truck",
    "dispatch_food_truck|spawn_worker",
    "spawn_worker",
    "^(mcp__.*__)?dispatch_food_truck$",
    "^(mcp__.*__)?(dispatch_food_truck|Bash)$",
    "^(mcp__.*__)?(dispatch_food_truck|spawn_worker)$",
    "^(mcp__.*__)?spawn_worker$",
    "dispatch_food_truck.*",
    ".*dispatch_food_truck$",
    "^Bash$",
    "^(?=mcp__)(mcp__.*__)?dispatch_food_truck$",
    "(",
};
const std::vector<std::string> kArguments = {"", " --tool spawn_worker", " --tool Bash"};
const std::vector<std::string> kTimeouts = {"", ",\"timeout\":2", ",\"timeout\":30"};
const std::vector<std::vector<std::string>> kAsked = {{}, {"spawn_worker"}, {"Bash"}};

// A project and stand-ins for the suite in `bin`: the guard denies by exiting 2.
struct Machine {
  TempDir tmp;
  std::string project = tmp / "project";
  std::string bin = tmp / "bin";
  std::string state = tmp / "state";
  ScopedEnv config_dir{"CLAUDE_CONFIG_DIR", (tmp / "config").c_str()};

  Machine() {
    for (const std::string& dir : {project, project + "/.claude", bin, state, tmp / "config"})
      REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
    write_script(bin + "/resume-guard", "cat >/dev/null; exit 2");
    write_script(bin + "/provenance-writer", "cat >/dev/null; exit 0");
  }
  std::vector<Finding> check(std::vector<std::string> tools) const {
    CheckOptions options;
    options.agent = &fleet::claude_code();
    options.project_dir = project;
    options.state_dir = state;
    options.tools = std::move(tools);
    return check_wiring(options).findings;
  }
};

// What else a group holds beside the suite's entry.
enum class Beside { nothing, users_hook, second_suite_entry };

std::string group(const std::string& matcher, const std::string& command, Beside beside,
                  const std::string& timeout) {
  rapidjson::Document name;
  name.SetString(matcher.c_str(), name.GetAllocator());
  return R"({"matcher":)" + to_json(name) + R"(,"hooks":[)" +
         (beside == Beside::users_hook ? R"({"type":"command","command":"audit-log"},)" : "") +
         R"({"type":"command","command":")" + command + "\"" + timeout + "}" +
         (beside == Beside::second_suite_entry
              ? R"(,{"type":"command","command":")" + command + R"( --tool open_kitchen"})"
              : "") +
         "]}";
}

}  // namespace

TEST_CASE(
    "install-check property: what install accepts, check passes - and install again is a "
    "no-op") {
  Machine m;
  int accepted = 0, refused = 0, cases = 0;
  for (const std::string& matcher : kMatchers) {
    for (const std::string& arguments : kArguments) {
      for (const Beside beside :
           {Beside::nothing, Beside::users_hook, Beside::second_suite_entry}) {
        for (const auto& asked : kAsked) {
          const std::string& timeout = kTimeouts[static_cast<std::size_t>(cases++) % 3];
          const std::string text =
              R"({"hooks":{"PreToolUse":[)" +
              group(matcher, m.bin + "/resume-guard" + arguments, beside, timeout) +
              R"(],"PostToolUse":[)" +
              group(matcher, m.bin + "/provenance-writer hook" + arguments, beside, timeout) +
              "]}}";
          CAPTURE(text);
          CAPTURE(asked.size() == 1 ? asked[0] : "");
          rapidjson::Document doc = fleet::test::json_document(text);
          const WiringOptions options{m.bin, asked, false, &fleet::claude_code()};
          try {
            install_suite_hooks(doc, options);
          } catch (const Error&) {
            ++refused;
            rapidjson::Document original = fleet::test::json_document(text);
            CHECK(settings_text(doc) == settings_text(original));  // nothing changed
            continue;
          }
          ++accepted;
          const std::string written = settings_text(doc);
          write_file(m.project + "/.claude/settings.json", written);
          std::vector<Finding> findings = m.check({});
          CHECK_MESSAGE(!has_errors(findings), findings_text(findings));
          std::vector<std::string> required = {"dispatch_food_truck"};
          required.insert(required.end(), asked.begin(), asked.end());
          findings = m.check(required);
          CHECK_MESSAGE(!has_errors(findings), findings_text(findings));
          // A second install changes nothing and has nothing to say.
          CHECK(install_suite_hooks(doc, options).empty());
          CHECK(settings_text(doc) == written);
        }
      }
    }
  }
  // Both outcomes are exercised.
  CHECK(accepted > 50);
  CHECK(refused > 50);
  MESSAGE(accepted << " accepted, " << refused << " refused");
}
