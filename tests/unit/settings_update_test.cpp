#include "settings/settings_update.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::TempDir;
using fleet::test::write_file;

TEST_CASE("settings_update: install writes once - then nothing changes - uninstall restores") {
  TempDir tmp;
  ::mkdir((tmp / "bin").c_str(), 0755);
  for (const char* binary : {"resume-guard", "provenance-writer"}) {
    write_file(tmp / ("bin/" + std::string(binary)), "#!/bin/sh\n");
    ::chmod((tmp / ("bin/" + std::string(binary))).c_str(), 0755);
  }
  const std::string path = tmp / ".claude/settings.json";
  ::mkdir((tmp / ".claude").c_str(), 0755);
  write_file(path, "{\"model\": \"opus\"}");

  const SettingsUpdate first =
      plan_install(path, WiringOptions{tmp / "bin", {}, false, &fleet::claude_code()});
  CHECK(first.changed);
  CHECK(read_file(path) == "{\"model\": \"opus\"}");  // planning writes nothing
  apply_update(first);
  CHECK(read_file(path) == first.text);
  const SettingsUpdate second =
      plan_install(path, WiringOptions{tmp / "bin", {}, false, &fleet::claude_code()});
  CHECK_FALSE(second.changed);
  CHECK(second.summary.find("unchanged") == 0);
  const SettingsUpdate removed = plan_uninstall(path, fleet::claude_code());
  CHECK(removed.changed);
  CHECK(removed.text == "{\"model\": \"opus\"}");  // the user's bytes, from the .bak
  CHECK_THROWS_AS(
      plan_install(path, WiringOptions{tmp / "nowhere", {}, false, &fleet::claude_code()}), Error);
}

TEST_CASE("settings_update: uninstall without a settings file creates nothing (issue 13.5)") {
  TempDir tmp;
  const std::string path = tmp / ".claude/settings.json";
  const SettingsUpdate update = plan_uninstall(path, fleet::claude_code());
  CHECK_FALSE(update.changed);
  apply_update(update);
  CHECK(::access((tmp / ".claude").c_str(), F_OK) != 0);
  // A file without the suite's entries is left byte for byte, formatting included.
  ::mkdir((tmp / ".claude").c_str(), 0755);
  write_file(path, "{\"model\":\"x\"}");
  const SettingsUpdate none = plan_uninstall(path, fleet::claude_code());
  CHECK_FALSE(none.changed);
  CHECK(none.text == "{\"model\":\"x\"}");
}
