#include "settings/toml_keys.h"

#include <doctest/doctest.h>

#include <string>

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
