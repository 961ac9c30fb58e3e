// `fleet-hooks install / uninstall --agent codex|gemini`: the project file of each agent CLI
// (.codex/hooks.json, .gemini/settings.json) wired in that CLI's dialect, with the guarantees
// of the Claude Code wiring: portable fail-closed commands, the user's bytes and mode kept,
// idempotent, and nothing of the suite left after uninstall.

#include <doctest/doctest.h>

#include <sys/stat.h>
#include "hook/hook_command.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "agents/agents.h"
#include "agents/codex/codex_trust.h"
#include "agents/codex/toml_keys.h"
#include "base/json.h"
#include "process.h"
#include "suite.h"
#include "text.h"

using fleet::test::contains;
using fleet::test::read_file;
using fleet::test::write_file;

namespace {

using Machine = fleet::test::SuiteMachine;

rapidjson::Document parsed(const std::string& path) {
  fleet::Result<rapidjson::Document> doc = fleet::parse_json_object(read_file(path));
  REQUIRE_MESSAGE(doc.ok(), path);
  return std::move(*doc);
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// The one entry of the one group of `event` in `doc`'s "hooks".
const rapidjson::Value& only_entry(const rapidjson::Value& doc, const char* event) {
  REQUIRE_MESSAGE(doc["hooks"].HasMember(event), event);
  const rapidjson::Value& groups = doc["hooks"][event];
  REQUIRE(groups.Size() == 1);
  REQUIRE(groups[0]["hooks"].Size() == 1);
  return groups[0];
}

std::string command_of(const rapidjson::Value& group) {
  return group["hooks"][0]["command"].GetString();
}

// Runs a hook `command` as the CLI does (/bin/sh -c) on a machine without the suite.
fleet::test::RunResult run_without_suite(const Machine& m, const std::string& command) {
  return fleet::test::run_process({"/bin/sh", "-c", command},
                                  {"{}", {{"PATH", m.path(false)}}, m.dir});
}

}  // namespace

TEST_CASE("fleet-hooks install --agent codex: wires .codex/hooks.json, fail-closed") {
  Machine m;
  const auto r = m.run({"install", "--project", m.dir, "--agent", "codex"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, m.dir + "/.codex/hooks.json"));
  // Codex runs none of it until trusted: install says so, and how, in one line.
  CHECK(contains(r.err,
                 "fleet-hooks install: note: Codex CLI skips these hooks until you trust "
                 "them: fleet-hooks install --project " +
                     m.dir + " --agent codex --trust\n"));
  CHECK_FALSE(file_exists(m.dir + "/.claude/settings.json"));
  const rapidjson::Document doc = parsed(m.dir + "/.codex/hooks.json");

  const rapidjson::Value& guard = only_entry(doc, "PreToolUse");
  CHECK(std::string(guard["matcher"].GetString()) == "^(mcp__.*__)?dispatch_food_truck$");
  CHECK(guard["hooks"][0]["timeout"].GetInt() == 10);
  CHECK(contains(command_of(guard), "exec \"$exe\" --agent codex"));
  CHECK(fleet::command_executable(command_of(guard)) == "resume-guard");
  const rapidjson::Value& writer = only_entry(doc, "PostToolUse");
  CHECK(contains(command_of(writer), "exec \"$exe\" hook --agent codex"));
  CHECK(fleet::command_executable(command_of(writer)) == "provenance-writer");
  const rapidjson::Value& start = only_entry(doc, "SessionStart");
  CHECK(std::string(start["matcher"].GetString()) == "startup");
  CHECK(contains(command_of(start), "exec \"$exe\" session-start --agent codex"));
  CHECK(fleet::command_executable(command_of(start)) == "provenance-writer");

  // On a machine without the suite the guard blocks (exit 2, Codex's deny), the others do not.
  const auto blocked = run_without_suite(m, command_of(guard));
  CHECK(blocked.exit_code == 2);
  CHECK(contains(blocked.err, "resume-guard is not installed"));
  CHECK(contains(blocked.err, "then start Codex CLI again"));
  CHECK(run_without_suite(m, command_of(start)).exit_code == 1);
  CHECK(run_without_suite(m, command_of(writer)).exit_code == 1);
}

TEST_CASE("fleet-hooks install --agent gemini: BeforeTool, mcp_ names, milliseconds, names") {
  Machine m;
  const auto r = m.run({"install", "--project", m.dir, "--agent", "gemini", "--tool", "relay"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.err,
                 "fleet-hooks install: note: Gemini CLI skips these hooks until you trust "
                 "them: run `gemini` in " +
                     m.dir + " and trust the folder\n"));
  const rapidjson::Document doc = parsed(m.dir + "/.gemini/settings.json");
  CHECK_FALSE(doc["hooks"].HasMember("PreToolUse"));
  CHECK_FALSE(doc["hooks"].HasMember("SessionStart"));

  const rapidjson::Value& guard = only_entry(doc, "BeforeTool");
  CHECK(std::string(guard["matcher"].GetString()) == "^(mcp_.*_)?(dispatch_food_truck|relay)$");
  const rapidjson::Value& entry = guard["hooks"][0];
  CHECK(entry["timeout"].GetInt() == 10000);
  CHECK(std::string(entry["name"].GetString()) == "fleet-hooks resume-guard");
  CHECK(contains(command_of(guard), "exec \"$exe\" --agent gemini --tool relay"));
  CHECK(fleet::command_executable(command_of(guard)) == "resume-guard");
  const rapidjson::Value& writer = only_entry(doc, "AfterTool");
  CHECK(std::string(writer["hooks"][0]["name"].GetString()) == "fleet-hooks provenance-writer");
  CHECK(contains(command_of(writer), "exec \"$exe\" hook --agent gemini"));
  CHECK(fleet::command_executable(command_of(writer)) == "provenance-writer");
  // Gemini blocks on exit 2 and shows the stderr as the reason.
  const auto blocked = run_without_suite(m, command_of(guard));
  CHECK(blocked.exit_code == 2);
  CHECK(contains(blocked.err, "resume-guard is not installed"));
}

TEST_CASE("fleet-hooks install --agent: repeated, idempotent, user's bytes and mode kept") {
  Machine m;
  const std::string gemini = m.dir + "/.gemini/settings.json";
  const std::string original = "{\"mcpServers\": {\"kitchen\": {\"command\": \"k\"}}}\n";
  REQUIRE(::mkdir((m.dir + "/.gemini").c_str(), 0755) == 0);
  write_file(gemini, original);
  REQUIRE(::chmod(gemini.c_str(), 0640) == 0);

  const std::vector<std::string> all = {"install", "--project", m.dir,     "--agent", "claude",
                                        "--agent", "codex",     "--agent", "gemini"};
  REQUIRE(m.run(all).exit_code == 0);
  const std::string files[] = {m.dir + "/.claude/settings.json", m.dir + "/.codex/hooks.json",
                               gemini};
  std::vector<std::string> first;
  for (const std::string& file : files) first.push_back(read_file(file));
  CHECK(mode_of(gemini) == 0640);
  CHECK(std::string(parsed(gemini)["mcpServers"]["kitchen"]["command"].GetString()) == "k");

  const auto again = m.run(all);
  REQUIRE(again.exit_code == 0);
  CHECK(contains(again.out, "unchanged: " + gemini));
  for (std::size_t i = 0; i < 3; ++i) CHECK(read_file(files[i]) == first[i]);

  // Uninstall: no suite entry is left, and the Gemini file is the user's bytes again.
  const auto removed =
      m.run({"uninstall", "--project", m.dir, "--agent", "codex", "--agent", "gemini"});
  REQUIRE_MESSAGE(removed.exit_code == 0, removed.err);
  CHECK(read_file(gemini) == original);
  CHECK(mode_of(gemini) == 0640);
  const std::string codex = read_file(m.dir + "/.codex/hooks.json");
  CHECK_FALSE(contains(codex, "resume-guard"));
  CHECK_FALSE(contains(codex, "provenance-writer"));
  // Claude Code's file was not named, so it keeps its hooks.
  CHECK(contains(read_file(files[0]), "resume-guard"));
}

TEST_CASE("fleet-hooks install --agent: an unknown CLI or scope is a usage error") {
  Machine m;
  const auto bad = m.run({"install", "--project", m.dir, "--agent", "cursor"});
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.err, "fleet-hooks install"));
  CHECK(contains(bad.err, "cursor"));
  const auto scope = m.run({"install", "--project", m.dir, "--agent", "codex", "--scope", "user"});
  CHECK(scope.exit_code != 0);
  CHECK(contains(scope.err, "fleet-hooks install"));
  CHECK(contains(scope.err, ".codex/hooks.json"));
  CHECK_FALSE(file_exists(m.home + "/.codex/hooks.json"));
}

namespace {

// A project of `m` trusted by Gemini CLI (~/.gemini/trustedFolders.json).
void trust_gemini_folder(const Machine& m) {
  ::mkdir((m.home + "/.gemini").c_str(), 0755);
  write_file(m.home + "/.gemini/trustedFolders.json", "{\"" + m.dir + "\": \"TRUST_FOLDER\"}\n");
}

// `check --agent NAME` on `m`'s project.
fleet::test::RunResult check(const Machine& m, const std::string& agent) {
  return m.run({"check", "--project", m.dir, "--agent", agent});
}

}  // namespace

TEST_CASE("fleet-hooks check --agent gemini: reads .gemini/settings.json in Gemini's terms") {
  Machine m;
  trust_gemini_folder(m);
  // Claude Code's wiring does not guard Gemini.
  REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
  const auto unwired = check(m, "gemini");
  CHECK(unwired.exit_code == 1);
  CHECK(contains(unwired.out, "guard-missing"));
  CHECK(contains(unwired.out, "mcp_<server>_dispatch_food_truck"));
  CHECK(contains(unwired.out, "--agent gemini"));

  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "gemini"}).exit_code == 0);
  const auto wired = check(m, "gemini");
  CHECK_MESSAGE(wired.exit_code == 0, wired.out);
  CHECK(contains(wired.out,
                 "ok: resume-guard guards dispatch_food_truck and "
                 "mcp_*_dispatch_food_truck"));

  // Claude Code's matcher misses Gemini's MCP names; 10 is 10 ms to Gemini.
  const std::string file = m.dir + "/.gemini/settings.json";
  std::string text = read_file(file);
  text.replace(text.find("^(mcp_.*_)?"), 11, "^(mcp__.*__)?");
  text.replace(text.find("\"timeout\": 10000"), 16, "\"timeout\": 10");
  write_file(file, text);
  const auto wrong = check(m, "gemini");
  CHECK(wrong.exit_code == 1);
  CHECK(contains(wrong.out, "matcher-misses-dispatch"));
  CHECK(contains(wrong.out, "timeout 10 milliseconds is under 5 s"));
}

TEST_CASE("fleet-hooks check --agent codex: reads .codex/hooks.json, not Claude Code's file") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
  REQUIRE(check(m, "claude").exit_code == 0);
  const auto codex = check(m, "codex");
  CHECK(codex.exit_code == 1);
  CHECK(contains(codex.out, "guard-missing"));
  CHECK(contains(codex.out, "fleet-hooks install --project " + m.dir + " --agent codex"));
  // Both asked at once: one fails, so the check fails.
  const auto both = m.run({"check", "--project", m.dir, "--agent", "claude", "--agent", "codex"});
  CHECK(both.exit_code == 1);
  CHECK(contains(both.out,
                 "ok: resume-guard guards dispatch_food_truck and "
                 "mcp__*__dispatch_food_truck, and denied a forged self-resume (Claude Code)\n"));
}

namespace {

// ~/.codex/config.toml of `m` trusting the project (unless `project` is false) and every
// hook of its .codex/hooks.json as it is now, then `extra`.
void trust_codex(const Machine& m, bool project = true, const std::string& extra = "") {
  const std::string file = m.dir + "/.codex/hooks.json";
  const rapidjson::Document doc = parsed(file);
  std::string config = project ? "[projects.\"" + m.dir + "\"]\ntrust_level = \"trusted\"\n" : "";
  for (const auto& event : doc["hooks"].GetObject()) {
    const std::string name = event.name.GetString();
    for (unsigned g = 0; g < event.value.Size(); ++g) {
      const rapidjson::Value& group = event.value[g];
      for (unsigned e = 0; e < group["hooks"].Size(); ++e) {
        config += "\n[hooks.state." +
                  fleet::toml_basic_string(fleet::codex_hook_key(file, name, g, e)) +
                  "]\ntrusted_hash = \"" + *fleet::codex_hook_hash(name, group, group["hooks"][e]) +
                  "\"\n";
      }
    }
  }
  ::mkdir((m.home + "/.codex").c_str(), 0755);
  write_file(m.home + "/.codex/config.toml", config + extra);
}

}  // namespace

TEST_CASE("fleet-hooks check --agent codex: fails while Codex would skip the suite's hooks") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "codex"}).exit_code == 0);
  const auto untrusted = check(m, "codex");
  CHECK(untrusted.exit_code == 3);  // wired right, not yet trusted
  CHECK(contains(untrusted.out, "error codex-project-untrusted"));
  CHECK(contains(untrusted.out, "error codex-hook-untrusted: the resume-guard hook (" + m.dir +
                                    "/.codex/hooks.json:pre_tool_use:0:0) is not trusted"));
  CHECK(contains(untrusted.out, "session_start:0:0"));
  CHECK(contains(untrusted.out, "run `codex` in " + m.dir));
  CHECK(contains(untrusted.out, "fleet-hooks install --agent codex --trust"));

  // The hooks trusted but not the project: Codex does not read the project's file at all.
  trust_codex(m, false);
  const auto no_project = check(m, "codex");
  CHECK(no_project.exit_code == 3);
  CHECK(contains(no_project.out, "codex-project-untrusted"));
  CHECK_FALSE(contains(no_project.out, "codex-hook-untrusted"));

  trust_codex(m);
  const auto trusted = check(m, "codex");
  CHECK_MESSAGE(trusted.exit_code == 0, trusted.out);
  CHECK(contains(trusted.out, "ok: resume-guard guards"));

  // A changed hook needs trusting again.
  const std::string file = m.dir + "/.codex/hooks.json";
  std::string text = read_file(file);
  text.replace(text.find("\"timeout\": 10"), 13, "\"timeout\": 20");
  write_file(file, text);
  const auto changed = check(m, "codex");
  CHECK(changed.exit_code == 3);
  CHECK(contains(changed.out, "error codex-hook-modified: the resume-guard hook"));
}

TEST_CASE("fleet-hooks check --agent codex: hooks turned off in config.toml fail the check") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "codex"}).exit_code == 0);
  trust_codex(m, true, "\n[features]\nhooks = false\n");
  const auto off = check(m, "codex");
  CHECK(off.exit_code == 1);
  CHECK(contains(off.out, "error codex-hooks-disabled"));

  trust_codex(m, true, "\n[features]\ncodex_hooks = false\nhooks = true\n");
  CHECK(check(m, "codex").exit_code == 0);

  trust_codex(m);
  std::string config = read_file(m.home + "/.codex/config.toml");
  const std::string key = "pre_tool_use:0:0\"]\n";
  config.insert(config.find(key) + key.size(), "enabled = false\n");
  write_file(m.home + "/.codex/config.toml", config);
  const auto disabled = check(m, "codex");
  CHECK(disabled.exit_code == 1);
  CHECK(contains(disabled.out, "error codex-hook-disabled: the resume-guard hook"));
}

TEST_CASE("fleet-hooks check --agent gemini: fails while Gemini would not load the hooks") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "gemini"}).exit_code == 0);
  const auto untrusted = check(m, "gemini");
  CHECK(untrusted.exit_code == 3);
  CHECK(contains(untrusted.out, "error gemini-folder-untrusted"));
  CHECK(contains(untrusted.out, "\"" + m.dir + "\": \"TRUST_FOLDER\""));
  CHECK(contains(untrusted.out, "--skip-trust"));

  ::mkdir((m.home + "/.gemini").c_str(), 0755);
  write_file(m.home + "/.gemini/trustedFolders.json",
             "{\"" + m.tmp.path() + "\": \"TRUST_FOLDER\", \"" + m.dir + "\": \"DO_NOT_TRUST\"}");
  const auto distrusted = check(m, "gemini");
  CHECK(distrusted.exit_code == 3);
  CHECK(contains(distrusted.out, "is marked DO_NOT_TRUST"));

  trust_gemini_folder(m);
  CHECK(check(m, "gemini").exit_code == 0);

  write_file(m.home + "/.gemini/settings.json",
             R"({"hooksConfig": {"disabled": ["fleet-hooks resume-guard"]}})");
  const auto one_off = check(m, "gemini");
  CHECK(one_off.exit_code == 1);
  CHECK(contains(one_off.out, "error gemini-hook-disabled: the hook \"fleet-hooks resume-guard\""));

  write_file(m.home + "/.gemini/settings.json", R"({"hooksConfig": {"enabled": false}})");
  const auto all_off = check(m, "gemini");
  CHECK(all_off.exit_code == 1);
  CHECK(contains(all_off.out, "error gemini-hooks-disabled"));
}

TEST_CASE("fleet-hooks install --agent codex --trust: Codex then runs the suite's hooks") {
  Machine m;
  const std::string config = m.home + "/.codex/config.toml";
  const std::string mine =
      "# mine\nmodel = \"o3\"\n\n[projects.\"/elsewhere\"]\n"
      "trust_level = \"untrusted\"\n";
  ::mkdir((m.home + "/.codex").c_str(), 0755);
  write_file(config, mine);
  REQUIRE(::chmod(config.c_str(), 0600) == 0);

  const std::vector<std::string> trust = {"install", "--project", m.dir,
                                          "--agent", "codex",     "--trust"};
  const auto first = m.run(trust);
  REQUIRE_MESSAGE(first.exit_code == 0, first.err);
  CHECK(contains(first.out, "trusted in " + config + ": the project " + m.dir + " and 3 "));
  CHECK_FALSE(contains(first.err, "codex-"));
  const std::string written = read_file(config);
  CHECK(written.starts_with(mine));  // the user's bytes stay, the trust is added after them
  CHECK(contains(written, "[projects.\"" + m.dir + "\"]\ntrust_level = \"trusted\"\n"));
  CHECK(mode_of(config) == 0600);
  const auto checked = check(m, "codex");
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);

  const auto again = m.run(trust);
  CHECK(again.exit_code == 0);
  CHECK(contains(again.out, "already trusted"));
  CHECK(read_file(config) == written);

  // A hook changed by hand is untrusted until trusted again; only its hash changes.
  const std::string file = m.dir + "/.codex/hooks.json";
  std::string text = read_file(file);
  text.replace(text.find("\"timeout\": 10"), 13, "\"timeout\": 20");
  write_file(file, text);
  REQUIRE(check(m, "codex").exit_code == 3);
  REQUIRE(m.run(trust).exit_code == 0);
  CHECK(check(m, "codex").exit_code == 0);
  CHECK(read_file(config).size() == written.size());
}

TEST_CASE("fleet-hooks uninstall: takes back the Codex trust --trust wrote, nothing else") {
  Machine m;
  const std::string config = m.home + "/.codex/config.toml";
  const std::string mine =
      "# mine\nmodel = \"o3\"\n\n[hooks.state.\"/elsewhere/.codex/hooks.json:pre_tool_use:0:0\"]\n"
      "trusted_hash = \"sha256:00\"\n";
  ::mkdir((m.home + "/.codex").c_str(), 0755);
  write_file(config, mine);
  REQUIRE(::chmod(config.c_str(), 0600) == 0);
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "codex", "--trust"}).exit_code == 0);
  // The user adds a key to the trust of one hook: that table is theirs now.
  std::string trusted = read_file(config);
  const std::size_t first = trusted.find("\n[hooks.state.\"" + m.dir);
  REQUIRE(first != std::string::npos);
  trusted.insert(trusted.find('\n', first + 1) + 1, "enabled = true\n");
  write_file(config, trusted);
  const std::string kept = trusted.substr(first, trusted.find("\n\n[", first + 1) + 1 - first);

  const auto dry = m.run({"uninstall", "--project", m.dir, "--dry-run"});
  CHECK(dry.exit_code == 0);
  CHECK(contains(dry.err,
                 "without it, it removes the trust of 2 fleet-hooks hooks and the "
                 "project " +
                     m.dir + " from " + config));
  CHECK(read_file(config) == trusted);

  // The project's trust went in with the install: it goes too. No backup is left.
  const auto r = m.run({"uninstall", "--project", m.dir});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, "removed the trust of 2 fleet-hooks hooks and the project " + m.dir +
                            " from " + config + "\n"));
  CHECK(read_file(config) == mine + kept);
  CHECK(mode_of(config) == 0600);
  // The backup install kept of the user's bytes stays (the file now holds more); the unwiring
  // kept none.
  CHECK(read_file(config + ".bak") == mine);
  CHECK_FALSE(file_exists(config + ".bak.1"));

  const auto again = m.run({"uninstall", "--project", m.dir});
  CHECK(again.exit_code == 0);
  CHECK_FALSE(contains(again.out, "removed the trust"));
}

TEST_CASE("fleet-hooks install --trust: only with --agent codex - nothing under --dry-run") {
  Machine m;
  const auto r = m.run({"install", "--project", m.dir, "--agent", "gemini", "--trust"});
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "fleet-hooks install: --trust"));
  CHECK(contains(r.err, "--agent codex"));
  CHECK_FALSE(file_exists(m.dir + "/.gemini/settings.json"));
  CHECK_FALSE(file_exists(m.home + "/.codex/config.toml"));
  const auto dry =
      m.run({"install", "--project", m.dir, "--agent", "codex", "--trust", "--dry-run"});
  CHECK(dry.exit_code == 0);
  CHECK(contains(dry.err, "--dry-run trusts nothing"));
  CHECK_FALSE(file_exists(m.home + "/.codex/config.toml"));
  CHECK_FALSE(file_exists(m.dir + "/.codex/hooks.json"));
}

TEST_CASE("fleet-hooks check --agent gemini: comments are Gemini's JSON - trailing commas not") {
  Machine m;
  trust_gemini_folder(m);
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "gemini"}).exit_code == 0);
  const std::string file = m.dir + "/.gemini/settings.json";
  const std::string wired = read_file(file);
  std::string commented = "// the team's settings\n";
  commented += wired;
  write_file(file, commented);
  const auto commented_check = check(m, "gemini");
  CHECK_MESSAGE(commented_check.exit_code == 0, commented_check.out);
  // Claude Code drops such a file whole: its check still says so.
  REQUIRE(::mkdir((m.dir + "/.claude").c_str(), 0755) == 0);
  write_file(m.dir + "/.claude/settings.json", "// mine\n{}\n");
  CHECK(contains(check(m, "claude").out, "settings-ignored"));

  const std::size_t cut = wired.rfind('}', wired.rfind('}') - 1) + 1;  // after "hooks": {…}
  write_file(file, wired.substr(0, cut) + std::string(",") + wired.substr(cut));
  const auto broken = check(m, "gemini");
  CHECK(broken.exit_code == 1);
  CHECK(contains(broken.out, "settings-ignored"));
}

TEST_CASE(
    "fleet-hooks install/check --agent: a hook file that is not plain JSON, in its CLI's terms") {
  Machine m;
  REQUIRE(::mkdir((m.dir + "/.gemini").c_str(), 0755) == 0);
  REQUIRE(::mkdir((m.dir + "/.codex").c_str(), 0755) == 0);
  const std::string gemini_file = m.dir + "/.gemini/settings.json";
  const std::string codex_file = m.dir + "/.codex/hooks.json";
  const std::string commented = "{\n  // the team's model\n  \"model\": {\"name\": \"x\"}\n}\n";
  write_file(gemini_file, commented);
  write_file(codex_file, commented);

  // Gemini reads the comments, so its file is not broken; writing it back would drop them.
  const auto gemini = m.run({"install", "--project", m.dir, "--agent", "gemini"});
  CHECK(gemini.exit_code == 1);
  CHECK(contains(gemini.err, "has comments (a comment at line 2, column 3)"));
  CHECK(contains(gemini.err, "writing the file back would drop"));
  CHECK_FALSE(contains(gemini.err, "Claude Code"));
  CHECK(read_file(gemini_file) == commented);

  // Codex 0.169.0 warns "failed to parse hooks config" and loads none of the file's hooks.
  const auto codex = m.run({"install", "--project", m.dir, "--agent", "codex"});
  CHECK(codex.exit_code == 1);
  CHECK(contains(codex.err, "so Codex CLI loads none of its hooks"));
  CHECK_FALSE(contains(codex.err, "Claude Code"));
  CHECK(read_file(codex_file) == commented);
  const auto codex_check = check(m, "codex");
  CHECK(codex_check.exit_code == 1);
  CHECK(contains(codex_check.out, "settings-ignored"));
  CHECK(contains(codex_check.out, "so Codex CLI loads none of its hooks"));
  CHECK_FALSE(contains(codex_check.out, "Claude Code"));
}

TEST_CASE("fleet-hooks install/check --agent codex|gemini: no home is refused, never /") {
  Machine m;
  for (const std::string agent : {"codex", "gemini"}) {
    const fleet::test::RunOptions no_home = {
        "", {{"HOME", ""}, {"CODEX_HOME", ""}, {"PATH", m.path(true)}}, ""};
    const std::string hint =
        agent == "codex" ? "neither CODEX_HOME nor HOME is set" : "HOME is not set";
    for (const std::string subcommand : {"install", "check"}) {
      const auto r = fleet::test::run_process(
          {FLEET_HOOKS_CLI, subcommand, "--agent", agent, "--project", m.dir}, no_home);
      CHECK_MESSAGE(r.exit_code == 1, (subcommand + " " + agent));
      CHECK_MESSAGE(contains(r.err, "fleet-hooks " + subcommand + ": " + hint), r.err);
      CHECK(contains(r.err,
                     "set " + std::string(agent == "codex" ? "CODEX_HOME (or HOME)" : "HOME")));
    }
    CHECK_FALSE(file_exists(m.dir + "/." + agent));
  }
}

TEST_CASE("fleet-hooks check: with no home, only a CLI wired in the project needs its home") {
  // Without --agent, check looks for each CLI's wiring in the project; a CLI not wired there is
  // not checked, so where it keeps its configuration does not matter.
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
  const fleet::test::RunOptions no_home = {
      "", {{"HOME", ""}, {"CODEX_HOME", ""}, {"PATH", m.path(true)}}, ""};
  const auto claude_only =
      fleet::test::run_process({FLEET_HOOKS_CLI, "check", "--project", m.dir}, no_home);
  CHECK_MESSAGE(claude_only.exit_code == 0, (claude_only.out + claude_only.err));
  CHECK(contains(claude_only.out, "checking Claude Code: wired in " + m.dir));
  CHECK(contains(claude_only.out, "denied a forged self-resume (Claude Code)\n"));
  // Wired for Codex too: Codex's home is needed, and check names the variable to set.
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "codex"}).exit_code == 0);
  const auto with_codex =
      fleet::test::run_process({FLEET_HOOKS_CLI, "check", "--project", m.dir}, no_home);
  CHECK(with_codex.exit_code == 1);
  CHECK(contains(with_codex.err, "fleet-hooks check: neither CODEX_HOME nor HOME is set"));
}

TEST_CASE("fleet-hooks install --agent codex: the advice to trust is given once, --trust first") {
  Machine m;
  const auto r = m.run({"install", "--project", m.dir, "--agent", "codex"});
  REQUIRE(r.exit_code == 0);
  const auto count = [](const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
      ++n;
    return n;
  };
  // Install says it in one line, with the one step; check says why, finding by finding.
  CHECK(count(r.err, "fleet-hooks install: note: ") == 1);
  CHECK(count(r.err, "--agent codex --trust") == 1);
  const auto checked = check(m, "codex");
  CHECK(count(checked.out, "error codex-") == 4);  // the project, 3 hooks
  CHECK(count(checked.out, "Trust them:") == 1);
  CHECK(checked.out.find("--trust --project " + m.dir) < checked.out.find("run `codex` in"));
}

TEST_CASE("fleet-hooks check --agent codex: asks the installed Codex, and names a newer one") {
  Machine m;
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "codex", "--trust"}).exit_code == 0);
  REQUIRE(check(m, "codex").exit_code == 0);  // the suite's own reading: trusted
  const rapidjson::Document hooks = parsed(m.dir + "/.codex/hooks.json");
  // A stand-in codex: `--version`, and an app-server answering hooks/list with the guard.
  const auto answer = [&](const char* status) {
    rapidjson::Document doc(rapidjson::kObjectType);
    auto& a = doc.GetAllocator();
    rapidjson::Value hook(rapidjson::kObjectType);
    hook.AddMember("key", fleet::json_string(m.dir + "/.codex/hooks.json:pre_tool_use:0:0", a), a);
    hook.AddMember("eventName", "preToolUse", a);
    hook.AddMember("command", fleet::json_string(command_of(hooks["hooks"]["PreToolUse"][0]), a),
                   a);
    hook.AddMember("currentHash", "sha256:0123", a);
    hook.AddMember("trustStatus", rapidjson::StringRef(status), a);
    hook.AddMember("enabled", true, a);
    rapidjson::Value cwd(rapidjson::kObjectType);
    cwd.AddMember("hooks", rapidjson::Value(rapidjson::kArrayType).PushBack(hook, a), a);
    cwd.AddMember("errors", rapidjson::Value(rapidjson::kArrayType), a);
    rapidjson::Value result(rapidjson::kObjectType);
    result.AddMember("data", rapidjson::Value(rapidjson::kArrayType).PushBack(cwd, a), a);
    doc.AddMember("id", 2, a);
    doc.AddMember("result", result, a);
    write_file(m.tmp / "answer.json", fleet::to_json(doc) + "\n");
  };
  fleet::test::write_script(m.bin + "/codex",
                            "[ \"$1\" = --version ] && { echo 'codex-cli 0.999.1'; exit 0; }\n"
                            "while read -r line; do case \"$line\" in\n"
                            "  *'\"id\":1'*) echo '{\"id\":1,\"result\":{}}' ;;\n"
                            "  *hooks/list*) cat '" +
                                m.tmp / "answer.json" +
                                "' ;;\n"
                                "esac; done\n");
  answer("modified");
  const auto modified = check(m, "codex");
  CHECK(modified.exit_code == 3);  // trusting again fixes it
  CHECK_MESSAGE(contains(modified.out,
                         "error codex-reports-untrusted: Codex itself reports the "
                         "suite's hook " +
                             m.dir + "/.codex/hooks.json:pre_tool_use:0:0 as modified"),
                modified.out);
  CHECK(contains(modified.out, "warning agent-cli-newer: Codex CLI 0.999.1 is installed"));
  CHECK(contains(modified.out, "checked with 0.169.0"));
  answer("trusted");
  const auto trusted = check(m, "codex");
  CHECK_MESSAGE(trusted.exit_code == 0, trusted.out);
  CHECK(contains(trusted.out, "warning agent-cli-newer"));
  CHECK(contains(trusted.out, "ok: resume-guard guards"));
}

TEST_CASE("fleet-hooks agents: one line per home, with the file install wires, Claude first") {
  Machine m;
  const auto r = m.run({"agents"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  std::vector<std::string> listed;
  for (const std::string& line : fleet::test::split_lines(r.out)) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      fields.push_back(line.substr(start, tab - start));
    fields.push_back(line.substr(start));
    REQUIRE_MESSAGE(fields.size() == 4, line);
    const fleet::AgentCli* agent = fleet::find_agent_cli(fields[0]);
    REQUIRE_MESSAGE(agent != nullptr, line);
    CHECK(fields[1] == agent->project_hook_file);
    CHECK(fields[2] == agent->display_name);
    CHECK(fields[3] == agent->version_checked);
    listed.push_back(fields[0]);
  }
  REQUIRE(!listed.empty());
  CHECK(listed.front() == "claude");
  // Every home of the source tree, and nothing else: install.sh takes its names from there.
  std::vector<std::string> homes;
  for (const auto& home :
       std::filesystem::directory_iterator(std::string(FLEET_FIXTURES) + "/../../common/agents")) {
    if (home.is_directory()) homes.push_back(home.path().filename().string());
  }
  std::sort(homes.begin(), homes.end());
  std::sort(listed.begin(), listed.end());
  CHECK(listed == homes);
}

TEST_CASE("fleet-hooks install --agent copilot --trust: the folder, beside Codex's trust") {
  Machine m;
  // config.json as GitHub Copilot CLI 1.0.102 writes it, comment lines first.
  const std::string config = m.home + "/.copilot/config.json";
  const std::string comments =
      "// User settings belong in settings.json.\n// This file is managed automatically.\n";
  ::mkdir((m.home + "/.copilot").c_str(), 0755);
  write_file(config, comments + "{\n  \"firstLaunchAt\": \"2026-11-26T00:00:00.000Z\"\n}\n");
  REQUIRE(m.run({"install", "--project", m.dir, "--agent", "copilot"}).exit_code == 0);
  const auto untrusted = check(m, "copilot");
  CHECK(untrusted.exit_code == 3);
  CHECK(contains(untrusted.out, "error copilot-folder-untrusted"));
  CHECK(contains(untrusted.out, "fleet-hooks install --agent copilot --trust --project " + m.dir));

  // Both CLIs named with --trust: each one's trust is written.
  const auto trust =
      m.run({"install", "--project", m.dir, "--agent", "codex", "--agent", "copilot", "--trust"});
  REQUIRE_MESSAGE(trust.exit_code == 0, trust.err);
  CHECK_MESSAGE(contains(trust.out, "trusted in " + config + ": the project " + m.dir +
                                        ", which covers the hooks of "
                                        ".github/hooks/fleet-hooks.json\n"),
                trust.out);
  CHECK(contains(trust.out, "trusted in " + m.home + "/.codex/config.toml: the project "));
  const std::string written = read_file(config);
  CHECK(written.starts_with(comments));
  CHECK(contains(written, "\"trustedFolders\": [\n    \"" + m.dir + "\"\n  ],"));
  CHECK(contains(written, "\"firstLaunchAt\""));
  const auto checked = check(m, "copilot");
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);

  // Uninstall unwires the file and takes back the folder's trust --trust added.
  const auto r = m.run({"uninstall", "--project", m.dir, "--agent", "copilot"});
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "removed the trust of the project " + m.dir + " from " + config + "\n"));
  CHECK(read_file(config) ==
        comments + "{\n  \"firstLaunchAt\": \"2026-11-26T00:00:00.000Z\"\n}\n");
}

TEST_CASE(
    "fleet-hooks check --agent copilot: a repository wired only for Claude Code is judged "
    "by Copilot's trust of it") {
  // GitHub Copilot CLI runs the hooks of the repository's .claude/settings.json: a teammate
  // asking check about Copilot must hear whether Copilot runs them (its folder trust), not that
  // nothing guards the tool (before: guard-missing, with advice to wire a second file).
  Machine m;
  ::mkdir((m.home + "/.copilot").c_str(), 0755);
  REQUIRE(m.run({"install", "--project", m.dir}).exit_code == 0);
  const auto untrusted = check(m, "copilot");
  CHECK(untrusted.exit_code == 3);
  CHECK_MESSAGE(contains(untrusted.out,
                         "error copilot-folder-untrusted: GitHub Copilot CLI runs "
                         "none of the hooks of " +
                             m.dir + "/.claude/settings.json"),
                untrusted.out);
  CHECK_MESSAGE(!contains(untrusted.out, "guard-missing"), untrusted.out);
  write_file(m.home + "/.copilot/config.json", "{\"trustedFolders\": [\"" + m.dir + "\"]}\n");
  const auto trusted = check(m, "copilot");
  CHECK_MESSAGE(trusted.exit_code == 0, trusted.out);
  CHECK(contains(trusted.out, "ok: resume-guard guards dispatch_food_truck"));
  // A disableAllHooks in that file switches Copilot's run of it off: check says so.
  const std::string settings = read_file(m.dir + "/.claude/settings.json");
  write_file(m.dir + "/.claude/settings.json",
             "{\"disableAllHooks\": true," + settings.substr(settings.find('{') + 1));
  const auto off = check(m, "copilot");
  CHECK(off.exit_code == 1);
  CHECK_MESSAGE(contains(off.out, "copilot-hooks-disabled"), off.out);
}
