#include "settings/settings_file.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/json.h"
#include "fixtures.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;
using fleet::test::write_file;

TEST_CASE("settings_file: paths per scope") {
  ScopedEnv home("HOME", "/home/u");
  const AgentCli& claude = fleet::claude_code();
  CHECK(settings_path(SettingsScope::project, "/p", claude) == "/p/.claude/settings.json");
  CHECK(settings_path(SettingsScope::local, "/p", claude) == "/p/.claude/settings.local.json");
  CHECK(settings_path(SettingsScope::user, "/p", claude) == "/home/u/.claude/settings.json");
}

TEST_CASE("settings_file: missing - empty - object - invalid") {
  TempDir tmp;
  rapidjson::Document doc;
  load_settings(tmp / "missing.json", doc, fleet::claude_code());
  CHECK(doc.IsObject());
  write_file(tmp / "empty.json", " \n");
  load_settings(tmp / "empty.json", doc, fleet::claude_code());
  CHECK(doc.ObjectEmpty());
  write_file(tmp / "bad.json", "{\"a\": 1,}");
  CHECK_THROWS_AS(load_settings(tmp / "bad.json", doc, fleet::claude_code()), Error);
  write_file(tmp / "array.json", "[]");
  CHECK_THROWS_AS(load_settings(tmp / "array.json", doc, fleet::claude_code()), Error);
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
  rapidjson::Document doc = fleet::test::json_document(R"({"f":0.5,"t":10})");
  const std::string once = settings_text(doc);
  CHECK(once.find("\"t\": 10\n") != std::string::npos);
  rapidjson::Document again = fleet::test::json_document(once);
  CHECK(settings_text(again) == once);
  doc = fleet::test::json_document(R"({"env":{"X":"\udeed"}})");
  CHECK_THROWS_AS(settings_text(doc), Error);
}

TEST_CASE("settings_file: read like Claude Code - BOM - duplicate keys last wins - comments") {
  TempDir tmp;
  rapidjson::Document doc;
  write_file(tmp / "bom.json", "\xEF\xBB\xBF{\"a\": 1}");
  SettingsRead read = read_settings(tmp / "bom.json", doc);
  CHECK(read.status == SettingsRead::Status::ok);
  CHECK(read.bom);
  CHECK(doc["a"].GetInt() == 1);

  write_file(tmp / "dup.json",
             R"({"hooks": {"PreToolUse": [1]}, "model": "x", "hooks": {"PreToolUse": []}})");
  read = read_settings(tmp / "dup.json", doc);
  CHECK(read.status == SettingsRead::Status::ok);
  CHECK(read.duplicate_keys == std::vector<std::string>{"/hooks"});
  CHECK(doc.MemberCount() == 2);
  CHECK(doc["hooks"]["PreToolUse"].Empty());  // the last one
  CHECK_THROWS_WITH_AS(load_settings(tmp / "dup.json", doc, fleet::claude_code()),
                       doctest::Contains("appear more than once (/hooks)"), Error);

  for (const char* text : {"{\n  // mine\n  \"a\": 1\n}", "{\"a\": [1, 2,], }"}) {
    write_file(tmp / "lenient.json", text);
    read = read_settings(tmp / "lenient.json", doc);
    CHECK(read.status == SettingsRead::Status::ignored);
    CHECK(read.problem.find(" is not plain JSON (") != std::string::npos);
    CHECK((doc["a"].IsNumber() || doc["a"].IsArray()));
    CHECK_THROWS_WITH_AS(load_settings(tmp / "lenient.json", doc, fleet::claude_code()),
                         doctest::Contains("so Claude Code ignores the whole file"), Error);
  }
  write_file(tmp / "bad.json", "{\"a\": ");
  CHECK(read_settings(tmp / "bad.json", doc).status == SettingsRead::Status::invalid);
}

TEST_CASE("settings_file: symlinked files are read and written through the link (issue 13.4)") {
  TempDir tmp;
  ::mkdir((tmp / "dotfiles").c_str(), 0755);
  ::mkdir((tmp / ".claude").c_str(), 0755);
  write_file(tmp / "dotfiles/settings.json", "{\"a\": 1}\n");
  const std::string link = tmp / ".claude/settings.json";
  REQUIRE(::symlink("../dotfiles/settings.json", link.c_str()) == 0);
  rapidjson::Document doc;
  const SettingsRead read = read_settings(link, doc);
  CHECK(read.status == SettingsRead::Status::ok);
  CHECK(doc["a"].GetInt() == 1);
  write_settings(link, "{\"a\": 2}\n");
  struct stat st {};
  REQUIRE(::lstat(link.c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));  // the link stays
  CHECK(read_file(tmp / "dotfiles/settings.json") == "{\"a\": 2}\n");
  CHECK(read_file(tmp / "dotfiles/settings.json.bak") == "{\"a\": 1}\n");
  // A link to nowhere is refused, not replaced by a file.
  REQUIRE(::symlink("../dotfiles/gone.json", (tmp / ".claude/dangling.json").c_str()) == 0);
  CHECK(read_settings(tmp / ".claude/dangling.json", doc).status == SettingsRead::Status::invalid);
  CHECK_THROWS_AS(write_settings(tmp / ".claude/dangling.json", "{}\n"), Error);
  REQUIRE(::lstat((tmp / ".claude/dangling.json").c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
}

TEST_CASE("settings_file: backups - the first keeps the original - later ones are numbered") {
  TempDir tmp;
  const std::string path = tmp / "settings.json";
  write_file(path, "original\n");
  write_settings(path, "second\n");
  write_settings(path, "third\n");
  write_settings(path, "fourth\n");
  CHECK(read_file(path + ".bak") == "original\n");
  CHECK(read_file(path + ".bak.1") == "second\n");
  CHECK(read_file(path + ".bak.2") == "third\n");
  CHECK(read_file(path) == "fourth\n");
  // Back to a content the newest backup holds: no new backup.
  write_file(path, "third\n");
  write_settings(path, "fifth\n");
  CHECK(::access((path + ".bak.3").c_str(), F_OK) != 0);
}

TEST_CASE("settings_file: owner - group - mode are kept as root (issue 13.2)") {
  if (::geteuid() != 0) {
    MESSAGE("not root: ownership is only changeable as root");
    return;
  }
  TempDir tmp;
  ::chmod(tmp.path().c_str(), 0755);
  const std::string path = tmp / "settings.json";
  write_file(path, "{}\n");
  REQUIRE(::chown(path.c_str(), 1000, 1001) == 0);
  ::chmod(path.c_str(), 0664);
  write_settings(path, "{\"a\": 1}\n");
  for (const std::string& file : {path, path + ".bak"}) {
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK(st.st_uid == 1000);
    CHECK(st.st_gid == 1001);
    CHECK((st.st_mode & 07777) == 0664);
  }
  // A new file in a user's directory, created by root: the directory's owner.
  ::mkdir((tmp / "proj").c_str(), 0755);
  REQUIRE(::chown((tmp / "proj").c_str(), 1000, 1000) == 0);
  write_settings(tmp / "proj/.claude/settings.json", "{}\n");
  for (const std::string& file : {tmp / "proj/.claude", tmp / "proj/.claude/settings.json"}) {
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK(st.st_uid == 1000);
  }
}
