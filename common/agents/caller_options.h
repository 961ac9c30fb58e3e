#pragma once
// The options that name the caller of a launch, as launch-wrapper --record-provenance and
// provenance-writer record both take them (process/launch_caller.h, doc/launch-wrapper.md
// "The caller"): --caller-session-id, and the dispatch call as the dispatcher got it,
// --mcp-call (its tools/call params) or --mcp-meta (its _meta alone), one or the other.
// Failing: giving both forms of the call is a CLI11 usage error of the program.
// Inline, as agent_option.h: only the programs' main translation units pay for CLI11.

#include <string>

#include <CLI/CLI.hpp>

#include "agents/agent_texts.h"
#include "agents/agents.h"
#include "process/launch_caller.h"
#include "store/provenance_record.h"

namespace fleet {

// Adds --caller-session-id (into `caller`, described as `description`, then what it defaults
// to), --mcp-call and --mcp-meta (into `call`) to `app`.
inline void add_caller_options(CLI::App& app, std::string& caller, DispatchCall& call,
                               const std::string& description) {
  app.add_option("--caller-session-id", caller,
                 description +
                     " (default: the caller the dispatch call names, --mcp-call or --mcp-meta, "
                     "else the caller resume-guard handed over for it, else " +
                     caller_variables(agent_clis()) +
                     " of the nearest agent CLI above, only when it set it itself, never one it "
                     "inherited)");
  CLI::Option* whole =
      app.add_option("--mcp-call", call.params,
                     "The dispatch call (params of the MCP tools/call request: its arguments and "
                     "_meta) as JSON, passed on unchanged: binds the caller to this call where "
                     "the agent CLI allows it (" +
                         mcp_call_clis_text() + ")")
          ->option_text("JSON");
  app.add_option("--mcp-meta", call.meta,
                 "The dispatch call's _meta alone (params._meta) as JSON, passed on unchanged "
                 "(--mcp-call passes the whole call)")
      ->option_text("JSON")
      ->excludes(whole);
}

}  // namespace fleet
