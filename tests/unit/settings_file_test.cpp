#include "settings_file.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "error.h"
#include "json.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;
using fleet::test::write_file;

TEST_CASE("settings_file: paths per scope") {
  ScopedEnv home("HOME", "/home/u");
  CHECK(settings_path(SettingsScope::project, "/p") == "/p/.claude/settings.json");
  CHECK(settings_path(SettingsScope::local, "/p") == "/p/.claude/settings.local.json");
  CHECK(settings_path(SettingsScope::user, "/p") == "/home/u/.claude/settings.json");
}

TEST_CASE("settings_file: missing - empty - object - invalid") {
  TempDir tmp;
  rapidjson::Document doc;
  load_settings(tmp / "missing.json", doc);
  CHECK(doc.IsObject());
  write_file(tmp / "empty.json", " \n");
  load_settings(tmp / "empty.json", doc);
  CHECK(doc.ObjectEmpty());
  write_file(tmp / "bad.json", "{\"a\": 1,}");
  CHECK_THROWS_AS(load_settings(tmp / "bad.json", doc), Error);
  write_file(tmp / "array.json", "[]");
  CHECK_THROWS_AS(load_settings(tmp / "array.json", doc), Error);
}

TEST_CASE("settings_file: writes keep the mode - make a .bak - refuse read-only files") {
  TempDir tmp;
  const std::string path = tmp / ".claude/settings.json";
  write_settings(path, "{}\n");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
  ::chmod(path.c_str(), 0640);
  write_settings(path, "{\"a\": 1}\n");
  CHECK(read_file(path) == "{\"a\": 1}\n");
  CHECK(read_file(path + ".bak") == "{}\n");
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);
  ::chmod(path.c_str(), 0444);
  CHECK_THROWS_AS(write_settings(path, "{}\n"), Error);
  CHECK(read_file(path) == "{\"a\": 1}\n");
}

TEST_CASE("settings_file: pretty text keeps unicode as UTF-8") {
  rapidjson::Document doc;
  doc.Parse("{\"k\":\"h\\u00e9\",\"n\":[1,2]}");
  CHECK(settings_text(doc) == "{\n  \"k\": \"h\xc3\xa9\",\n  \"n\": [\n    1,\n    2\n  ]\n}\n");
}

TEST_CASE("settings_file: lone surrogates are refused rather than written (found by fuzzing)") {
  rapidjson::Document doc;
  REQUIRE(fleet::parse_json(R"({"f":0.5,"t":10})", doc));
  const std::string once = settings_text(doc);
  CHECK(once.find("\"t\": 10\n") != std::string::npos);
  rapidjson::Document again;
  REQUIRE(fleet::parse_json(once, again));
  CHECK(settings_text(again) == once);
  REQUIRE(fleet::parse_json(R"({"env":{"X":"\udeed"}})", doc));
  CHECK_THROWS_AS(settings_text(doc), Error);
}
