#include "base/paths.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include "base/error.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::ScopedEnv;

TEST_CASE("paths: state dir resolution order") {
  ScopedEnv project("CLAUDE_PROJECT_DIR", "/proj");
  SUBCASE("the flag wins") {
    ScopedEnv fleet_dir("FLEET_HOOKS_STATE_DIR", "/fleet");
    CHECK(resolve_state_dir("/flag", "/cwd") == "/flag");
  }
  SUBCASE("FLEET_HOOKS_STATE_DIR before AUTOSKILLIT_STATE_DIR") {
    ScopedEnv fleet_dir("FLEET_HOOKS_STATE_DIR", "/fleet");
    ScopedEnv auto_dir("AUTOSKILLIT_STATE_DIR", "/auto");
    CHECK(resolve_state_dir("", "/cwd") == "/fleet");
  }
  SUBCASE("AUTOSKILLIT_STATE_DIR") {
    ScopedEnv auto_dir("AUTOSKILLIT_STATE_DIR", "/auto");
    CHECK(resolve_state_dir("", "/cwd") == "/auto");
  }
  SUBCASE("project default, with the campaign as a subdirectory") {
    CHECK(resolve_state_dir("", "/cwd") == "/proj/.autoskillit/temp");
    ScopedEnv campaign("AUTOSKILLIT_CAMPAIGN_ID", "camp-7");
    CHECK(resolve_state_dir("", "/cwd") == "/proj/.autoskillit/temp/camp-7");
  }
  SUBCASE("a campaign id that is not a valid directory name is refused") {
    ScopedEnv campaign("AUTOSKILLIT_CAMPAIGN_ID", "../../etc");
    CHECK_THROWS_AS(resolve_state_dir("", "/cwd"), Error);
  }
}

TEST_CASE("paths: project root is CLAUDE_PROJECT_DIR - else the hook cwd - else the process cwd") {
  {
    ScopedEnv project("CLAUDE_PROJECT_DIR", "/proj");
    CHECK(resolve_project_root("/cwd") == "/proj");
  }
  ScopedEnv project("CLAUDE_PROJECT_DIR", nullptr);
  CHECK(resolve_project_root("/cwd") == "/cwd");
  char here[4096];
  REQUIRE(getcwd(here, sizeof here) != nullptr);
  CHECK(resolve_project_root("") == here);
  CHECK(resolve_state_dir("", "") == std::string(here) + "/.autoskillit/temp");
}

TEST_CASE("paths: current kitchen") {
  CHECK_FALSE(resolve_kitchen_id(""));
  ScopedEnv campaign("AUTOSKILLIT_CAMPAIGN_ID", "camp");
  CHECK(resolve_kitchen_id("") == "camp");
  ScopedEnv kitchen("FLEET_HOOKS_KITCHEN_ID", "kit");
  CHECK(resolve_kitchen_id("") == "kit");
  CHECK(resolve_kitchen_id("flag") == "flag");
  ScopedEnv empty("FLEET_HOOKS_KITCHEN_ID", "");
  CHECK(resolve_kitchen_id("") == "camp");
  ScopedEnv no_campaign("AUTOSKILLIT_CAMPAIGN_ID", "");
  CHECK_FALSE(resolve_kitchen_id(""));  // set but empty: no kitchen
}

TEST_CASE("paths: store path") {
  CHECK(provenance_store_path("/s") == "/s/session_provenance.jsonl");
}

TEST_CASE("paths: the executable's directory and absolute paths") {
  const std::string dir = executable_directory().value_or("");
  CHECK(dir.front() == '/');
  CHECK(::access((dir + "/unit_tests").c_str(), X_OK) == 0);
  CHECK(absolute_path("/x/y") == "/x/y");
  CHECK(absolute_path("") == "");
  char here[4096];
  REQUIRE(getcwd(here, sizeof here) != nullptr);
  CHECK(absolute_path("rel/p") == std::string(here) + "/rel/p");
}

TEST_CASE("absolute_path prints a path normalised - directory_problem names what is wrong") {
  CHECK(fleet::absolute_path("/p/./.claude") == "/p/.claude");
  CHECK(fleet::absolute_path("/p//q/.") == "/p/q");
  CHECK(fleet::absolute_path("/p/q/") == "/p/q");
  CHECK(fleet::absolute_path("/p/../q") == "/p/../q");
  CHECK(fleet::absolute_path("/.") == "/");
  CHECK_FALSE(fleet::directory_problem("/").has_value());
  CHECK(fleet::directory_problem("/nonexistent-fleet-hooks-dir") == "does not exist");
  CHECK(fleet::directory_problem("/dev/null") == "is not a directory");  // Linux and macOS
}
