// The suite installed into a project whose workers were launched before it: resumes go
// through the hooks as Claude Code runs them (PreToolUse resume-guard, then PostToolUse
// provenance-writer hook), and no record the safety-net hook writes ever locks the owner out.

#include <doctest/doctest.h>

#include "fixtures.h"
#include "process.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::kL3;
using fleet::test::post_tool_use;
using fleet::test::run_process;

namespace {

constexpr const char* kStranger = "c0ffee00-0000-4000-8000-0000000000ff";
constexpr const char* kOldWorker = "0d07e5d0-0000-4000-8000-000000000001";
constexpr const char* kNewWorker = "1e07e5d0-0000-4000-8000-000000000002";

constexpr const char* kTool = "mcp__fleet__dispatch_food_truck";

// The dispatch tool's response naming the `launched` session ("" when it names none).
std::string launched_response(const std::string& launched) {
  if (launched.empty()) return "";
  return R"([{"type":"text","text":"{\"session_id\":\")" + launched + R"(\"}"}])";
}

struct Project : fleet::test::StoreDir {
  // The guard's decision in kitchen "k-current": "deny", "advisory" or "silent".
  std::string guard(const std::string& caller, const std::string& resume) const {
    return StoreDir::guard(caller, "k-current", resume, kTool);
  }
  void post(const std::string& caller, const std::string& tool_input,
            const std::string& launched) const {
    const auto r = run_process(
        {FLEET_PROVENANCE_WRITER, "hook", "--state-dir", tmp.path()},
        {post_tool_use(tool_input, launched_response(launched), kTool, caller), {}, ""});
    REQUIRE(r.exit_code == 0);
    CHECK_MESSAGE(r.err.empty(), r.err);
  }

  // A resume of `worker` by `caller` as Claude Code runs the hooks; returns the guard's
  // decision (a denied call never reaches PostToolUse).
  std::string resume(const std::string& caller, const std::string& worker) const {
    const std::string decision = guard(caller, worker);
    if (decision != "deny") post(caller, R"({"resume_session_id":")" + worker + R"("})", worker);
    return decision;
  }

  std::string store_text() const {
    const auto r = run_process({"/bin/cat", store()});
    return r.exit_code == 0 ? r.out : "";
  }
};

}  // namespace

TEST_CASE("hooks upgrade path: an unrecorded worker resumed twice by its owner is not denied") {
  Project p;
  CHECK(p.resume(kL3, kOldWorker) == "advisory");               // unrecorded: advised, not decided
  CHECK(p.store_text().find(kOldWorker) == std::string::npos);  // a resume records nothing
  CHECK(p.resume(kL3, kOldWorker) == "advisory");
  CHECK(p.resume(kL3, kOldWorker) == "advisory");
  CHECK(p.store_text().find(kOldWorker) == std::string::npos);
}

TEST_CASE("hooks upgrade path: a real dispatch records a worker, even without a recipe") {
  Project p;
  // A fresh dispatch that names no recipe: the launched session is a worker of the caller.
  REQUIRE(p.guard(kL3, "") == "silent");
  p.post(kL3, R"({"prompt":"do it"})", kNewWorker);
  const std::string text = p.store_text();
  CHECK(text.find(kNewWorker) != std::string::npos);
  CHECK(text.find(R"x("recipe_name":"(unnamed)")x") != std::string::npos);
  CHECK(p.resume(kL3, kNewWorker) == "silent");
  CHECK(p.resume(kL3, kNewWorker) == "silent");
  CHECK(p.resume(kStranger, kNewWorker) == "deny");
  // The old, unrecorded worker: still advised for everyone until a real dispatch records it.
  CHECK(p.resume(kStranger, kOldWorker) == "advisory");
  CHECK(p.resume(kL3, kOldWorker) == "advisory");
}

TEST_CASE(
    "hooks upgrade path: GitHub Copilot CLI's calls - recorded for the owner, a stranger denied") {
  // Copilot CLI 1.0.102 runs the hooks of .claude/settings.json with Claude Code's field names
  // but its own tool name (<server>-<tool>), PostToolUse's answer in tool_result, and for a
  // subagent's call session_id = the subagent, parent_agent_id = the main session.
  Project p;
  const std::string tool = "kitchen-dispatch_food_truck";
  const std::string subagent = "5ab00000-0000-4000-8000-000000000005";
  const auto copilot = [&](const std::string& event, const std::string& session,
                           const std::string& parent, const std::string& rest) {
    return R"({"hook_event_name":")" + event + R"(","session_id":")" + session + "\"" +
           (parent.empty() ? "" : R"(,"parent_agent_id":")" + parent + "\"") +
           R"(,"timestamp":"2026-11-26T14:07:38.028Z","cwd":"/nonexistent","tool_name":")" + tool +
           R"(",)" + rest + "}";
  };
  // The owner's subagent dispatches a worker: recorded under the owner, not the subagent.
  const auto post =
      run_process({FLEET_PROVENANCE_WRITER, "hook", "--state-dir", p.tmp.path()},
                  {copilot("PostToolUse", subagent, kL3,
                           R"("tool_input":{"prompt":"go"},"tool_result":{"result_type":"success",)"
                           R"("text_result_for_llm":"{\"session_id\":\")" +
                               std::string(kNewWorker) + R"(\"}"})"),
                   {},
                   ""});
  REQUIRE(post.exit_code == 0);
  CHECK_MESSAGE(post.err.empty(), post.err);
  const std::string text = p.store_text();
  CHECK(text.find(std::string(R"("caller_session_id":")") + kL3 + "\"") != std::string::npos);
  CHECK(text.find(subagent) == std::string::npos);
  const std::string resume =
      R"("tool_input":{"resume_session_id":")" + std::string(kNewWorker) + R"("})";
  // The owner, and the owner's subagent, resume it; a stranger (and its subagent) is denied.
  CHECK(fleet::test::guard_decision(p.tmp.path(), "k-current",
                                    copilot("PreToolUse", kL3, "", resume)) == "silent");
  CHECK(fleet::test::guard_decision(p.tmp.path(), "k-current",
                                    copilot("PreToolUse", subagent, kL3, resume)) == "silent");
  CHECK(fleet::test::guard_decision(p.tmp.path(), "k-current",
                                    copilot("PreToolUse", kStranger, "", resume)) == "deny");
  CHECK(fleet::test::guard_decision(p.tmp.path(), "k-current",
                                    copilot("PreToolUse", subagent, kStranger, resume)) == "deny");
}
