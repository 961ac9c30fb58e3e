#include "launch/command_line.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

#include "agent/agent_profile.h"

using namespace fleet;
using Args = std::vector<std::string>;

TEST_CASE("command_line: option values in their spellings") {
  const Args argv = {"claude", "-p", "hi", "--resume", "abc", "--model=opus"};
  CHECK(option_value(argv, "--resume", "-r").value() == "abc");
  CHECK(option_value(argv, "--model").value() == "opus");
  CHECK(option_value({"claude", "-r", "xyz"}, "--resume", "-r").value() == "xyz");
  CHECK(option_value({"claude", "--resume=q"}, "--resume", "-r").value() == "q");
  CHECK_FALSE(option_value({"claude", "--resume"}, "--resume", "-r"));
  CHECK_FALSE(option_value({"claude", "--resume", "-p"}, "--resume", "-r"));
  CHECK_FALSE(option_value({"claude", "--", "--resume", "x"}, "--resume", "-r"));
  CHECK_FALSE(option_value({"--resume", "x"}, "--resume", "-r"));  // argv[0] is the program
}

TEST_CASE("command_line: removing every form of resume") {
  CHECK(without_resume({"claude", "-p", "hi", "--resume", "abc", "--verbose"}, claude_profile()) ==
        Args{"claude", "-p", "hi", "--verbose"});
  CHECK(without_resume({"claude", "-r", "abc", "-p", "x"}, claude_profile()) ==
        Args{"claude", "-p", "x"});
  CHECK(without_resume({"claude", "--resume=abc", "--continue", "-c", "-p", "x"},
                       claude_profile()) == Args{"claude", "-p", "x"});
  CHECK(without_resume({"claude", "--resume", "-p", "x"}, claude_profile()) ==
        Args{"claude", "-p", "x"});
  CHECK(without_resume({"claude", "--", "--resume", "x"}, claude_profile()) ==
        Args{"claude", "--", "--resume", "x"});
}

TEST_CASE("command_line: adding and removing a valued option") {
  CHECK(with_option({"claude", "-p", "hi"}, "--session-id", "u-1") ==
        Args{"claude", "--session-id", "u-1", "-p", "hi"});
  CHECK(without_option({"claude", "--session-id", "old", "-p", "hi", "--session-id=x"},
                       "--session-id") == Args{"claude", "-p", "hi"});
}

TEST_CASE("command_line: a Codex resume read past the values of exec's options") {
  const AgentProfile& codex = *find_agent_profile("codex");
  const std::string id = "019a8d2e-5b1c-7f20-9a4e-3c2d1b0a9f88";
  // codex-cli 0.169.0: `-m <MODEL>` (and every option doc/codex.md lists) takes a value.
  const Args valued = {"codex", "exec", "--json", "resume", "-m", "gpt-5", id, "go on"};
  CHECK(resumed_session_id(valued, codex) == id);
  CHECK(without_resume(valued, codex) == Args{"codex", "exec", "--json", "-m", "gpt-5", "go on"});
  const Args before = {"codex", "exec", "-c", "model=\"o3\"", "-C", "/w", "resume", id};
  CHECK(resumed_session_id(before, codex) == id);
  CHECK(without_resume(before, codex) == Args{"codex", "exec", "-c", "model=\"o3\"", "-C", "/w"});
  CHECK(resumed_session_id({"codex", "exec", "resume", "--model=gpt-5", id}, codex) == id);
  // A value that spells "resume" is a value, and a prompt is not the resume subcommand.
  CHECK_FALSE(resumes_session({"codex", "exec", "-o", "resume", "go"}, codex));
  CHECK_FALSE(resumes_session({"codex", "exec", "go", "resume"}, codex));
  // --all belongs to resume: a fresh exec would refuse it.
  CHECK(without_resume({"codex", "exec", "resume", "--all", "--last", "go"}, codex) ==
        Args{"codex", "exec", "go"});
  CHECK_FALSE(
      resumed_session_id({"codex", "exec", "resume", "-m", "gpt-5", "--last", "go"}, codex));
}

TEST_CASE("command_line: a run's switches that make its CLI skip the hooks") {
  const AgentProfile& claude = *find_agent_profile("claude");
  const AgentProfile& codex = *find_agent_profile("codex");
  const std::vector<std::string> none;
  const auto on = [](const Args& argv, const std::vector<std::string>& env,
                     const AgentProfile& agent) {
    const RunSwitch* run = run_switch(argv, env, agent);
    return run == nullptr ? std::string() : std::string(run->option) + std::string(run->variable);
  };
  CHECK(on({"claude", "-p", "hi"}, none, claude).empty());
  CHECK(on({"claude", "--bare", "-p", "hi"}, none, claude) == "--bare");
  CHECK(on({"claude", "-p", "hi"}, {"CLAUDE_CODE_SIMPLE=1"}, claude) == "CLAUDE_CODE_SIMPLE");
  CHECK(on({"claude", "-p", "hi"}, {"CLAUDE_CODE_SIMPLE=0"}, claude).empty());
  CHECK(on({"claude", "-p", "hi"}, {"CLAUDE_CODE_SIMPLE=1", "CLAUDE_CODE_SIMPLE="}, claude)
            .empty());  // the last one counts
  CHECK(on({"claude", "--setting-sources", "user", "-p", "x"}, none, claude) ==
        "--setting-sources");
  CHECK(on({"claude", "--setting-sources=user,local"}, none, claude) == "--setting-sources");
  CHECK(on({"claude", "--setting-sources", "user,project"}, none, claude).empty());
  CHECK(on({"claude", "-p", "--", "--bare"}, none, claude).empty());  // an operand
  CHECK(on({"codex", "exec", "--disable", "hooks", "x"}, none, codex) == "--disable");
  CHECK(on({"codex", "exec", "--disable", "web_search", "x"}, none, codex).empty());
  CHECK(on({"codex", "exec", "-c", "features.hooks=false", "x"}, none, codex) == "-c");
  CHECK(on({"codex", "exec", "-c", "model=\"m\"", "x"}, none, codex).empty());
}
