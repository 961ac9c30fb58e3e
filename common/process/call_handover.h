#pragma once
// The caller handover by call (doc/resume-guard.md, "Caller handover"): where the agent CLI
// sends its MCP server the id of the tool call its pre-tool hook saw (Claude Code's
// tool_use_id), resume-guard leaves the caller it judged under that id, and the launch the call
// starts (given the call's _meta) reads that one file: the caller is bound to the call whatever
// the processes' ancestry. With each caller, the guard also leaves the state directory it judged
// the call with, where a launch that names none records.
// Failing: nothing here throws; what cannot be done is returned as the sentence saying why.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "process/caller_handover.h"

namespace fleet {

// Leaves the handover of `caller` for the tool call `call_id` (the id the CLI sends its MCP
// server with the call: Claude Code's tool_use_id) in `dir`: a file of its own per call, which
// binds the caller to the call whatever the processes' ancestry (a dispatcher serving several
// CLIs, a nested CLI, one CLI process running several sessions). nullopt when left, else why not.
std::optional<std::string> leave_call_handover(
    const std::string& dir, std::string_view caller, std::string_view call_id,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// The caller handed over in `dir` for the tool call `call_id` (leave_call_handover): found, or
// none (with why); also removes the call and state handovers there that count for nothing.
HandedOverCaller caller_of_call(
    const std::string& dir, std::string_view call_id,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// Leaves, for the dispatch calls of `caller`, the state directory `state_dir` (absolute) the
// guard judged them with, in `dir`: one file per caller session, whose launches record there
// whatever their dispatcher's working directory (a worktree per worker). nullopt when left,
// else why not.
std::optional<std::string> leave_state_handover(
    const std::string& dir, std::string_view caller, const std::string& state_dir,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// The state directory the guard judged `caller`'s dispatch calls with (leave_state_handover);
// nullopt when no such handover counts.
std::optional<std::string> state_dir_of_caller(
    const std::string& dir, std::string_view caller,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

}  // namespace fleet
