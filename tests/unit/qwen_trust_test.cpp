#include "agents/qwen/qwen_trust.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <string>

#include "fixtures.h"
#include "temp_dir.h"

using namespace fleet;

namespace {

// A user's ~/.qwen and a project whose .qwen/settings.json holds the suite's guard.
struct QwenMachine {
  fleet::test::TempDir tmp;
  std::string qwen_dir = tmp / "qwen";
  std::string project = tmp / "project";
  ConfiguredHook guard;

  QwenMachine() {
    for (const std::string& dir : {qwen_dir, project, project + "/.qwen"})
      REQUIRE(::mkdir(dir.c_str(), 0755) == 0);
    guard.file = project + "/.qwen/settings.json";
    guard.event = "PreToolUse";
    guard.command = "resume-guard --agent qwen";
  }
  std::vector<Finding> findings() const {
    return qwen_trust_findings(project, qwen_dir, {{&guard, "the resume-guard hook"}});
  }
};

}  // namespace

TEST_CASE("qwen_trust: folder trust is off unless the user turned it on") {
  QwenMachine m;
  CHECK(m.findings().empty());  // Qwen Code 0.24.4: security.folderTrust.enabled defaults false
  fleet::test::write_file(m.qwen_dir + "/settings.json",
                          "{\n  // Qwen Code reads comments\n  \"security\": {\"folderTrust\": "
                          "{\"enabled\": true}}\n}\n");
  const std::vector<Finding> untrusted = m.findings();
  REQUIRE(untrusted.size() == 1);
  CHECK(untrusted[0].rule == "qwen-folder-untrusted");
  CHECK(untrusted[0].severity == Severity::error);
  CHECK(untrusted[0].message.find("\"" + m.project + "\": \"TRUST_FOLDER\"") != std::string::npos);

  // Its trustedFolders.json is judged as Gemini CLI's (gemini_trust.h).
  fleet::test::write_file(m.qwen_dir + "/trustedFolders.json",
                          "{\"" + m.project + "\": \"DO_NOT_TRUST\"}");
  REQUIRE(m.findings().size() == 1);
  CHECK(m.findings()[0].message.find("DO_NOT_TRUST") != std::string::npos);
  fleet::test::write_file(m.qwen_dir + "/trustedFolders.json",
                          "{\"" + m.tmp.path() + "/x\": \"TRUST_PARENT\"}");
  CHECK(m.findings().empty());
}

TEST_CASE("qwen_trust: disableAllHooks in any settings file it merges turns the guard off") {
  QwenMachine m;
  fleet::test::write_file(m.project + "/.qwen/settings.json", R"({"disableAllHooks": true})");
  const std::vector<Finding> off = m.findings();
  REQUIRE(off.size() == 1);
  CHECK(off[0].rule == "qwen-hooks-disabled");
  CHECK(off[0].file == m.project + "/.qwen/settings.json");
  // Set false (or not at all): the hooks run.
  fleet::test::write_file(m.project + "/.qwen/settings.json", R"({"disableAllHooks": false})");
  CHECK(m.findings().empty());
}
