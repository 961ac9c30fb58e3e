// resume-guard and provenance-writer hook as Claude Code, Codex and Gemini run them: each
// CLI's hook input on stdin with --agent NAME, the answer in that CLI's dialect, exit 0.

#include <doctest/doctest.h>

#include <optional>

#include "agent_hooks.h"
#include "agents/agents.h"
#include "fixtures.h"
#include "process.h"
#include "store/provenance_record.h"
#include "temp_dir.h"

using fleet::agent_clis;
using fleet::AgentCli;
using fleet::test::AgentAnswer;
using fleet::test::kL3;
using fleet::test::run_process;
using fleet::test::TempDir;

TEST_CASE("agents: resume-guard decides the same for every CLI and answers in its dialect") {
  TempDir tmp;
  std::string store;
  for (const fleet::ProvenanceRecord& record : fleet::test::guard_case_records()) {
    store += fleet::test::autoskillit_line(record) + "\n";
  }
  fleet::test::write_file(tmp / "session_provenance.jsonl", store);
  for (const fleet::test::GuardCase& c : fleet::test::guard_cases()) {
    std::optional<std::string> first_text;
    for (const AgentCli* agent : agent_clis()) {
      CAPTURE(c.name);
      CAPTURE(agent->name);
      const auto r =
          run_process({FLEET_RESUME_GUARD, "--agent", std::string(agent->name), "--state-dir",
                       tmp.path(), "--kitchen-id", fleet::test::kGuardCaseKitchen},
                      {fleet::test::agent_pre_tool_input(*agent, c.caller, c.resume_json), {}, ""});
      CHECK(r.exit_code == 0);
      const AgentAnswer answer = fleet::test::read_answer(*agent, r.out);
      CHECK(answer.kind == c.expect);
      // A call it lets through carries a call token where the CLI lets the hook rewrite it.
      const bool rewrites =
          agent->name == "gemini" || agent->name == "copilot" || agent->name == "opencode";
      CHECK(answer.token.empty() == (c.expect == AgentAnswer::Kind::deny || !rewrites));
      if (!first_text) first_text = answer.text;
      CHECK(answer.text == *first_text);
    }
  }
}

TEST_CASE("agents: without --agent the guard speaks Claude Code - a bad --agent exits 1") {
  TempDir tmp;
  const AgentCli& gemini = *fleet::find_agent_cli("gemini");
  const std::string self = "\"" + std::string(kL3) + "\"";
  const std::string input = fleet::test::agent_pre_tool_input(gemini, kL3, self);
  // Gemini's BeforeTool input read as Claude Code's is not a guarded call.
  const auto plain = run_process({FLEET_RESUME_GUARD, "--state-dir", tmp.path()}, {input, {}, ""});
  CHECK(plain.exit_code == 0);
  CHECK(plain.out.empty());
  const auto bad = run_process({FLEET_RESUME_GUARD, "--agent", "cursor"}, {input, {}, ""});
  CHECK(bad.exit_code == 1);  // never 2, which would block every call
  CHECK(bad.err.find("claude, codex, gemini, qwen, copilot, opencode") != std::string::npos);
  const auto help = run_process({FLEET_RESUME_GUARD, "--help"});
  CHECK(help.out.find("--agent claude|codex|gemini|qwen|copilot|opencode") != std::string::npos);
}

TEST_CASE("agents: provenance-writer hook records a fresh dispatch from every CLI") {
  for (const AgentCli* agent : agent_clis()) {
    CAPTURE(agent->name);
    TempDir tmp;
    const std::string input = fleet::test::agent_post_tool_input(
        *agent, kL3, R"({"recipe_name":"implement","step_name":"build","prompt":"go"})",
        R"({"session_id":"w-1","dispatch_id":"d-7","kitchen_id":"kitchen-1"})");
    const auto r = run_process({FLEET_PROVENANCE_WRITER, "hook", "--agent",
                                std::string(agent->name), "--state-dir", tmp.path()},
                               {input, {}, ""});
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
    CHECK(r.err.empty());
    const auto lines =
        fleet::test::split_lines(fleet::test::read_file(tmp / "session_provenance.jsonl"));
    REQUIRE(lines.size() == 1);
    const auto record = fleet::parse_provenance_line(lines[0]);
    REQUIRE(record);
    CHECK(record->session_id == "w-1");
    CHECK(record->caller_session_id == kL3);
    CHECK(record->dispatch_id == "d-7");
    CHECK(record->kitchen_id == "kitchen-1");
    CHECK(record->recipe_name == "implement");
    CHECK(record->step_name == "build");
  }
  // A usage error of the hook subcommand exits 1, never 2.
  const auto bad =
      run_process({FLEET_PROVENANCE_WRITER, "hook", "--agent", "cursor"}, {"", {}, ""});
  CHECK(bad.exit_code == 1);
}
