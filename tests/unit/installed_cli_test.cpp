#include "settings/installed_cli.h"

#include <doctest/doctest.h>

using namespace fleet;

// As the CLIs print `--version` (claude 2.1.328, codex-cli 0.169.0, gemini 0.61.0).
TEST_CASE("installed_cli: the version a CLI prints, compared number by number") {
  CHECK(version_in("2.1.328 (Claude Code)\n") == "2.1.328");
  CHECK(version_in("codex-cli 0.169.0\n") == "0.169.0");
  CHECK(version_in("0.61.0\n") == "0.61.0");
  CHECK(version_in("tool v3 build 12.4-rc1") == "12.4");
  CHECK_FALSE(version_in("no version here 7").has_value());
  CHECK(version_newer("0.171.0", "0.169.0"));
  CHECK(version_newer("2.1.1000", "2.1.328"));
  CHECK(version_newer("1.0.0", "0.999.9"));
  CHECK_FALSE(version_newer("0.169.0", "0.169.0"));
  CHECK_FALSE(version_newer("0.9.0", "0.61.0"));
}
