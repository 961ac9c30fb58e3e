#include "agents/codex/toml_keys.h"

#include <doctest/doctest.h>

#include <string>

#include "base/error.h"

using namespace fleet;

TEST_CASE("toml_keys: reads the keys Codex's config.toml trusts with") {
  const std::string text =
      "model = \"o3\" # a comment\n"
      "[projects.\"/home/me/repo\"]\n"
      "trust_level = \"trusted\"\n"
      "\n"
      "[projects.'/tmp/a b']\n"
      "trust_level = 'untrusted'\n"
      "[hooks.state.\"/r/.codex/hooks.json:pre_tool_use:0:0\"]\n"
      "trusted_hash = \"sha256:ab\"\n"
      "enabled = false\n"
      "[features]\n"
      "hooks = true\n"
      "list = [\"a\", \"b\",\n  \"c]\"]\n"
      "inline = { x = \"y\" }\n"
      "text = \"\"\"\n[not.a.table]\nx = 1\n\"\"\"\n"
      "\"dotted\".key = \"\\u00e9\\\"\"\n"
      "[[array]]\n"
      "trust_level = \"trusted\"\n";
  const TomlScan scan = scan_toml(text);
  CHECK(scan.problems.empty());
  const auto string_at = [&](const TomlPath& path) {
    const TomlEntry* entry = find_toml_entry(scan, path);
    REQUIRE_MESSAGE(entry != nullptr, path.back());
    CHECK(entry->kind == TomlEntry::Kind::string);
    return entry->text;
  };
  CHECK(string_at({"model"}) == "o3");
  CHECK(string_at({"projects", "/home/me/repo", "trust_level"}) == "trusted");
  CHECK(string_at({"projects", "/tmp/a b", "trust_level"}) == "untrusted");
  CHECK(string_at({"hooks", "state", "/r/.codex/hooks.json:pre_tool_use:0:0", "trusted_hash"}) ==
        "sha256:ab");
  CHECK(string_at({"features", "dotted", "key"}) == "\xC3\xA9\"");
  const TomlEntry* enabled =
      find_toml_entry(scan, {"hooks", "state", "/r/.codex/hooks.json:pre_tool_use:0:0", "enabled"});
  REQUIRE(enabled != nullptr);
  CHECK(enabled->kind == TomlEntry::Kind::boolean);
  CHECK_FALSE(enabled->flag);
  CHECK(find_toml_entry(scan, {"features", "hooks"})->flag);
  CHECK(find_toml_entry(scan, {"not", "a", "table", "x"}) == nullptr);
  CHECK(find_toml_entry(scan, {"array", "trust_level"}) == nullptr);
}

TEST_CASE("toml_keys: set_toml_string changes one value and keeps every other byte") {
  const std::string text =
      "# mine\nmodel = \"o3\"\n\n[projects.\"/r\"]\ntrust_level = \"untrusted\"  # "
      "why\n\n[other]\nx = 1\n";
  CHECK(set_toml_string(text, {"projects", "/r"}, "trust_level", "trusted") ==
        "# mine\nmodel = \"o3\"\n\n[projects.\"/r\"]\ntrust_level = \"trusted\"  # "
        "why\n\n[other]\nx = 1\n");
  // A key the table lacks: a line after the table's last one.
  CHECK(set_toml_string(text, {"other"}, "y", "z") == text + "y = \"z\"\n");
  CHECK(set_toml_string(text, {"projects", "/r"}, "note", "a\"b") ==
        "# mine\nmodel = \"o3\"\n\n[projects.\"/r\"]\ntrust_level = \"untrusted\"  # why\n"
        "note = \"a\\\"b\"\n\n[other]\nx = 1\n");
  // A table there is not: appended.
  CHECK(set_toml_string("a = 1", {"hooks", "state", "/r/h.json:pre_tool_use:0:0"}, "trusted_hash",
                        "sha256:00") ==
        "a = 1\n\n[hooks.state.\"/r/h.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:00\"\n");
  CHECK(set_toml_string("", {"projects", "/r"}, "trust_level", "trusted") ==
        "[projects.\"/r\"]\ntrust_level = \"trusted\"\n");
  const std::string written =
      set_toml_string(text, {"projects", "/new path"}, "trust_level", "trusted");
  CHECK(find_toml_entry(scan_toml(written), {"projects", "/new path", "trust_level"})->text ==
        "trusted");
}

// Each was refused by codex-cli 0.169.0 ("Error loading config.toml: … duplicate key" or
// "cannot extend value of type inline table").
TEST_CASE("toml_keys: names what makes a document no TOML, as Codex refuses it") {
  const auto error_of = [](const std::string& text) {
    const TomlScan scan = scan_toml(text);
    REQUIRE_MESSAGE(scan.errors.size() == 1, text);
    return scan.errors.front();
  };
  CHECK(error_of("[projects.\"/p\"]\nx = 1\n[projects.\"/p\"]\ny = 1\n") ==
        "line 3: the [table] defines again projects.\"/p\", which line 1 defines as a [table]");
  CHECK(error_of("projects = { \"/p\" = { trust_level = \"trusted\" } }\n[projects.\"/p\"]\n") ==
        "line 2: the [table] extends projects, which line 1 defines as an inline table");
  CHECK(error_of("[projects]\n\"/p\".trust_level = \"trusted\"\n[projects.\"/p\"]\ny = 1\n") ==
        "line 3: the [table] defines again projects.\"/p\", which line 2 defines with dotted keys");
  CHECK(error_of("[a.b]\nx = 1\n[a]\nb.y = 2\n") ==
        "line 4: the dotted key extends a.b, which line 1 defines as a [table]");
  CHECK(error_of("[a.b.c]\nx = 1\n[a]\nb.d = 2\n") ==
        "line 4: the dotted key extends a.b, which line 1 defines by a [table] below it");
  CHECK(error_of("model = \"a\"\nmodel = \"b\"\n") ==
        "line 2: the key defines again model, which line 1 defines as a value");
  CHECK(error_of("x.y = 1\n[x]\n") ==
        "line 2: the [table] defines again x, which line 1 defines with dotted keys");
  // What TOML allows: a [table] re-opening one its sub-table implied, a sub-table of a table
  // dotted keys define, [[arrays]] repeated.
  for (const std::string& text :
       {std::string("[a.b]\nx = 1\n[a]\ny = 2\n"),
        std::string("[fruit]\napple.color = \"red\"\n[fruit.apple.texture]\nsmooth = true\n"),
        std::string("projects.\"/q\".trust_level = \"trusted\"\n[projects.\"/p\"]\nx = 1\n"),
        std::string("[[a]]\nx = 1\n[[a]]\nx = 2\n")}) {
    CHECK_MESSAGE(scan_toml(text).errors.empty(), text);
  }
}

TEST_CASE("toml_keys: set_toml_string edits a [table] or dotted key's string, refuses the rest") {
  CHECK(set_toml_string("[projects]\n\"/p\".trust_level = \"untrusted\"\n", {"projects", "/p"},
                        "trust_level",
                        "trusted") == "[projects]\n\"/p\".trust_level = \"trusted\"\n");
  CHECK(set_toml_string("projects.\"/q\".trust_level = \"trusted\"\n", {"projects", "/p"},
                        "trust_level", "trusted") ==
        "projects.\"/q\".trust_level = \"trusted\"\n\n[projects.\"/p\"]\ntrust_level = "
        "\"trusted\"\n");
  for (const std::string& text :
       {std::string("projects = { \"/p\" = { trust_level = \"untrusted\" } }\n"),
        std::string("[projects]\n\"/p\".note = \"mine\"\n"),
        std::string("[projects.\"/p\"]\ntrust_level = 1\n"), std::string("projects = 1\n"),
        std::string("model = 1\nmodel = 2\n")}) {
    CHECK_THROWS_AS_MESSAGE(set_toml_string(text, {"projects", "/p"}, "trust_level", "trusted"),
                            Error, text);
  }
  CHECK_THROWS_WITH(set_toml_string("projects = { }\n", {"projects", "/p"}, "trust_level", "x"),
                    "line 1 defines projects as an inline table, and fleet-hooks does not rewrite "
                    "that form; write it as [projects.\"/p\"] with trust_level = …, or remove it");
}
