#pragma once
// Test support: the values and inputs many tests share, built in one place — session ids,
// provenance records and the store lines AutoSkillit writes, and the hook inputs Claude Code
// sends to the suite's hooks.

#include <string>
#include <string_view>

#include <rapidjson/document.h>

#include "store/provenance_record.h"

namespace fleet::test {

// Session ids (valid UUIDs): an L3 orchestrator and two workers.
inline constexpr const char* kL3 = "c0ffee00-0000-4000-8000-000000000001";
inline constexpr const char* kWorker = "0d07e5d0-0000-4000-8000-000000000001";
inline constexpr const char* kWorker2 = "0d07e5d0-0000-4000-8000-000000000002";
// The MCP tool that launches and resumes workers, as Claude Code names it.
inline constexpr const char* kDispatchTool = "mcp__kitchen__dispatch_food_truck";
// The timestamp of the records the tests write.
inline constexpr const char* kTimestamp = "2026-05-06T13:30:00.123456+00:00";
// A PATH that holds no fleet-hooks executable (the machine "without the suite").
inline constexpr const char* kSystemPath = "/usr/bin:/bin";
// The suite's four executables, as installed.
inline constexpr const char* kSuiteBinaries[] = {"resume-guard", "provenance-writer",
                                                 "launch-wrapper", "fleet-hooks"};
// The exit code that tells CTest a test was skipped (SKIP_RETURN_CODE 77).
inline constexpr int kSkipped = 77;

// A record of `session` launched by `caller` in `kitchen` with `recipe` (empty: an L3
// session); dispatch "d-1", step "build", kTimestamp.
ProvenanceRecord record(const std::string& session, const std::string& caller = "caller-1",
                        const std::string& kitchen = "k1", const std::string& recipe = "implement");

// The record as AutoSkillit's writer formats it (Python's json.dumps with sort_keys: ", " and
// ": " between items), without a trailing newline.
std::string autoskillit_line(const ProvenanceRecord& record);

// The PreToolUse input Claude Code sends when `caller` calls `tool` with
// {"resume_session_id": resume}.
std::string pre_tool_use(const std::string& caller, const std::string& resume,
                         const std::string& tool = kDispatchTool);

// The PostToolUse input Claude Code sends after `caller` called `tool`: `tool_input` and
// `tool_response` are JSON texts (an empty `tool_response` leaves the member out).
std::string post_tool_use(const std::string& tool_input, const std::string& tool_response,
                          const std::string& tool = kDispatchTool, const std::string& caller = kL3);

// The JSON value `text` holds; REQUIREs that it is one (the failure names the text and why).
rapidjson::Document json_document(std::string_view text);

// A transcript line: an assistant message with one text block; `text` is inserted into the
// JSON string as it is (escape it: "Done.\\n%%MARKER%%").
std::string assistant_line(const std::string& text);

}  // namespace fleet::test
