#include "suite.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>

#include "base/json.h"
#include "fixtures.h"
#include "process.h"

namespace fleet::test {

void write_record(const std::string& state_dir, const std::string& session,
                  const std::string& caller, const std::string& kitchen) {
  const auto r = run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id", session,
                              "--caller-session-id", caller, "--kitchen-id", kitchen,
                              "--recipe-name", "implement", "--state-dir", state_dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
}

std::string guard_decision(const std::string& state_dir, const std::string& kitchen,
                           const std::string& input) {
  const auto r = run_process(
      {FLEET_RESUME_GUARD, "--state-dir", state_dir, "--kitchen-id", kitchen}, {input, {}, ""});
  REQUIRE(r.exit_code == 0);
  if (r.out.empty()) return "silent";
  rapidjson::Document doc = fleet::test::json_document(r.out);
  return member(doc, "hookSpecificOutput") != nullptr ? "deny" : "advisory";
}

std::string query_verdict(const std::string& state_dir, const std::string& caller,
                          const std::string& kitchen, const std::string& session) {
  const auto r = run_process({FLEET_HOOKS_CLI, "query", "--session", session, "--as-caller", caller,
                              "--kitchen-id", kitchen, "--state-dir", state_dir});
  const std::string label = "verdict for caller '" + caller + "': ";
  const auto at = r.out.find(label);
  REQUIRE_MESSAGE(at != std::string::npos, r.out << r.err);
  const std::string rest = r.out.substr(at + label.size());
  for (const char* verdict : {"deny", "advisory", "silent"}) {
    if (rest.starts_with(verdict)) return verdict;
  }
  FAIL("unknown verdict: " << rest);
  return "";
}

void StoreDir::record(const std::string& session, const std::string& caller,
                      const std::string& kitchen) const {
  write_record(tmp.path(), session, caller, kitchen);
}

std::string StoreDir::guard(const std::string& caller, const std::string& kitchen,
                            const std::string& session, const std::string& tool) const {
  return guard_decision(tmp.path(), kitchen, pre_tool_use(caller, session, tool));
}

std::string StoreDir::query(const std::string& caller, const std::string& kitchen,
                            const std::string& session) const {
  return query_verdict(tmp.path(), caller, kitchen, session);
}

void link_suite(const std::string& bin_dir, std::initializer_list<std::string> names) {
  static const std::map<std::string, std::string> kBuilt = {
      {"resume-guard", FLEET_RESUME_GUARD},
      {"provenance-writer", FLEET_PROVENANCE_WRITER},
      {"launch-wrapper", FLEET_LAUNCH_WRAPPER},
      {"fleet-hooks", FLEET_HOOKS_CLI}};
  for (const std::string& name : names) {
    REQUIRE(::symlink(kBuilt.at(name).c_str(), (bin_dir + "/" + name).c_str()) == 0);
  }
}

void require_suite_absent(const std::string& path) {
  REQUIRE_MESSAGE(
      run_process({"/bin/sh", "-c", "command -v resume-guard"}, {"", {{"PATH", path}}, ""})
              .exit_code != 0,
      "resume-guard is installed in /usr/bin or /bin; these tests need a PATH without it");
}

SuiteMachine::SuiteMachine() {
  for (const std::string& d : {dir, home, bin}) ::mkdir(d.c_str(), 0755);
  link_suite(bin, {"resume-guard", "provenance-writer", "fleet-hooks"});
}

SettingsProject::SettingsProject(const std::string& settings, unsigned mode) {
  ::mkdir((dir + "/.claude").c_str(), 0755);
  write_file(file(), settings);
  ::chmod(file().c_str(), static_cast<mode_t>(mode));
}

rapidjson::Document SettingsProject::settings() const {
  rapidjson::Document doc = fleet::test::json_document(read_file(file()));
  return doc;
}

std::string SuiteMachine::path(bool suite_on_path) const {
  return suite_on_path ? bin + ":" + kSystemPath : kSystemPath;
}

RunResult SuiteMachine::run(std::vector<std::string> args, bool suite_on_path,
                            const std::string& program) const {
  args.insert(args.begin(), program);
  return run_process(args, {"", {{"HOME", home}, {"PATH", path(suite_on_path)}}, ""});
}

}  // namespace fleet::test
