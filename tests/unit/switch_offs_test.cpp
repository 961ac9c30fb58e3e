#include "settings/switch_offs.h"

#include <doctest/doctest.h>

#include "agents/agents.h"

using fleet::env_file_names;
using fleet::find_agent_cli;
using fleet::suite_variable;
using Names = std::vector<std::string>;

TEST_CASE("switch_offs: the names a .env file sets, as dotenv reads them") {
  CHECK(env_file_names("A=1\n# B=2\n\nexport C=3\n  D = 4\nE\n=5\nF.G=6\r\n") ==
        Names{"A", "C", "D", "F.G"});
  CHECK(env_file_names("").empty());
}

TEST_CASE("switch_offs: the variables a file must not set for the hooks") {
  const fleet::AgentCli& claude = *find_agent_cli("claude");
  const fleet::AgentCli& qwen = *find_agent_cli("qwen");
  for (const char* name :
       {"PATH", "HOME", "TMPDIR", "XDG_RUNTIME_DIR", "FLEET_HOOKS_STATE_DIR",
        "FLEET_HOOKS_KITCHEN_ID", "AUTOSKILLIT_STATE_DIR", "AUTOSKILLIT_CAMPAIGN_ID",
        "CLAUDE_PROJECT_DIR", "CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_SHELL_PREFIX"}) {
    CAPTURE(name);
    CHECK(suite_variable(name, claude));
  }
  CHECK(suite_variable("QWEN_CODE_SAFE_MODE", qwen));
  CHECK_FALSE(suite_variable("QWEN_CODE_SAFE_MODE", claude));
  CHECK_FALSE(suite_variable("LANG", claude));
  CHECK_FALSE(suite_variable("PATHS", claude));
}
