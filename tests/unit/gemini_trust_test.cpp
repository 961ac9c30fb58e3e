#include "agents/gemini/gemini_trust.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "temp_dir.h"

using namespace fleet;

// As gemini-cli 0.61.0's LoadedTrustedFolders.isPathTrusted judges a folder.
TEST_CASE("gemini_trust: the longest rule whose folder holds the project decides") {
  CHECK(gemini_folder_trusted(R"({"/w/p": "TRUST_FOLDER"})", "/w/p") == true);
  CHECK(gemini_folder_trusted(R"({"/w/p": "TRUST_FOLDER"})", "/w/p/sub") == true);
  CHECK_FALSE(gemini_folder_trusted(R"({"/w/p": "TRUST_FOLDER"})", "/w/pq").has_value());
  CHECK_FALSE(gemini_folder_trusted(R"({"/w/p/sub": "TRUST_FOLDER"})", "/w/p").has_value());
  CHECK_FALSE(gemini_folder_trusted("{}", "/w/p").has_value());
  // TRUST_PARENT trusts the folder that holds the path named.
  CHECK(gemini_folder_trusted(R"({"/w/p/x": "TRUST_PARENT"})", "/w/p") == true);
  CHECK(gemini_folder_trusted(R"({"/w/p/x": "TRUST_PARENT"})", "/w/q").has_value() == false);
  // A longer rule wins over a shorter one, either way.
  CHECK(gemini_folder_trusted(R"({"/w": "TRUST_FOLDER", "/w/p": "DO_NOT_TRUST"})", "/w/p/s") ==
        false);
  CHECK(gemini_folder_trusted(R"({"/w": "DO_NOT_TRUST", "/w/p": "TRUST_FOLDER"})", "/w/p") == true);
  CHECK(gemini_folder_trusted(R"({"/": "TRUST_FOLDER"})", "/w/p") == true);
  CHECK_FALSE(gemini_folder_trusted(R"({"/w/p": "YES"})", "/w/p").has_value());
}

TEST_CASE("gemini_trust: rules and the project are compared through symlinks") {
  fleet::test::TempDir tmp;
  const std::string real = tmp / "real";
  REQUIRE(::mkdir(real.c_str(), 0755) == 0);
  REQUIRE(::symlink(real.c_str(), (tmp / "link").c_str()) == 0);
  CHECK(gemini_folder_trusted("{\"" + real + "\": \"TRUST_FOLDER\"}", tmp / "link") == true);
  CHECK(gemini_folder_trusted("{\"" + (tmp / "link") + "\": \"TRUST_FOLDER\"}", real) == true);
}
