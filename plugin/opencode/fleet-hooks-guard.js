// fleet-hooks' resume guard for OpenCode (doc/opencode.md). OpenCode runs no hook commands; it
// imports this file from <project>/.opencode/plugins/ (where `fleet-hooks install --agent
// opencode` writes it) and calls tool.execute.before before every tool call. For the dispatch
// tool (an MCP tool reaches plugins as <server>_<tool>: fleet_dispatch_food_truck) and each tool
// of MORE_TOOLS it asks `resume-guard --agent opencode`, in Claude Code's PreToolUse input, and
// refuses the call by throwing: OpenCode then does not run the tool and gives the model the
// message. A call the guard lets through it gives the input the guard answered
// (hookSpecificOutput.updatedInput: the call's arguments with the guard's call token, which
// binds the caller to the call), written into output.args, the very object OpenCode sends its
// MCP server as the call's arguments. It also refuses when resume-guard cannot run, fails or answers something it cannot
// read, or when PATH finds it only through a relative entry or inside the project: a guard that
// silently lets calls through is worse than none. A subagent runs in a child
// session; its call is judged as the call of the session at the root of its parents (the L3
// that owns it), which resume-guard reads from parent_agent_id. After the dispatch tool ran,
// tool.execute.after gives `provenance-writer hook --agent opencode` the MCP answer (Claude
// Code's PostToolUse input) to record the dispatched worker; that cannot refuse anything any
// more, so a failure there is only reported on OpenCode's stderr. A run that launch-wrapper
// --record-provenance started (it names the launch in $FLEET_HOOKS_PENDING_LAUNCH) is recorded
// by its first chat.message, before OpenCode's first model request: `provenance-writer
// session-start --agent opencode` claims the launch for the session, as the other CLIs'
// SessionStart hooks do.
// Checked with OpenCode 1.18.33.
import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, sep } from "node:path";

const GUARD = "resume-guard";
const WRITER = "provenance-writer";
// The dispatch tools besides dispatch_food_truck: `fleet-hooks install --tool NAME` writes this
// line (and `check` reads it back); every other byte of this file is as the suite ships it.
const MORE_TOOLS = [];
const DISPATCH_TOOLS = ["dispatch_food_truck", ...MORE_TOOLS];
const TOOL_OPTIONS = MORE_TOOLS.flatMap((tool) => ["--tool", tool]);
const MAX_SESSION_DEPTH = 16;
// Where the install routes put the suite's programs, looked in after PATH, as the hook commands
// of the other CLIs do (common/hook/hook_command.h, kInstallDirectories): an agent CLI started
// from a macOS app or launchd may have a PATH without /opt/homebrew/bin.
const INSTALL_DIRECTORIES = [
  "/opt/homebrew/bin",
  "/usr/local/bin",
  `${process.env.HOME ?? ""}/.local/bin`,
];

// True for a dispatch tool, by its own name or as <server>_<tool>.
function isDispatchTool(name) {
  return DISPATCH_TOOLS.some((tool) => name === tool || name.endsWith(`_${tool}`));
}

function refuse(reason) {
  throw new Error(`fleet-hooks: ${reason}`);
}

// The session at the root of `sessionID`'s parents, asked through OpenCode's own client.
async function owningSession(client, sessionID) {
  let id = sessionID;
  for (let depth = 0; depth < MAX_SESSION_DEPTH; ++depth) {
    let session;
    try {
      session = await client.session.get({ path: { id } });
    } catch (error) {
      refuse(`cannot tell which session owns ${sessionID} (${error}); the dispatch is refused`);
    }
    if (!session || !session.data) refuse(`OpenCode knows no session ${id}; the dispatch is refused`);
    if (!session.data.parentID) return id;
    id = session.data.parentID;
  }
  refuse(`session ${sessionID} is nested deeper than ${MAX_SESSION_DEPTH}; the dispatch is refused`);
}

// Where PATH (else INSTALL_DIRECTORIES) finds the suite's program `name`, as a shell would:
// {path} to run, {refused} with the reason when it is found through a relative PATH entry or
// inside the project (where a repository can put a program of its own), {} when it is not found.
function suiteProgram(name, directory) {
  for (const entry of [...(process.env.PATH ?? "").split(":"), ...INSTALL_DIRECTORIES]) {
    const candidate = join(entry === "" ? "." : entry, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    if (!isAbsolute(entry)) {
      return { refused: `${name} was found through a relative PATH entry (${candidate}), where ` +
        "a repository can put a program of its own: take the relative entries out of PATH" };
    }
    let real = candidate;
    let project = directory;
    try {
      real = realpathSync(candidate);
      project = realpathSync(directory);
    } catch {}
    if (real === project || real.startsWith(project + sep)) {
      return { refused: `${name} was found inside the project (${candidate}), where a ` +
        "repository can put a program of its own: install fleet-hooks outside the project" };
    }
    return { path: candidate };
  }
  return {};
}

// resume-guard's answer to `hookInput`: {refused: the reason the call is refused} or
// {input: the call's arguments as the guard rewrote them, when it did}.
function guardAnswer(hookInput, directory) {
  const answer = guardOutput(hookInput, directory);
  if (typeof answer === "string") return answer === "" ? {} : { refused: answer };
  const decision = answer.hookSpecificOutput;
  if (decision && decision.permissionDecision === "deny")
    return { refused: decision.permissionDecisionReason };
  if (answer.systemMessage) console.error(`fleet-hooks: ${answer.systemMessage}`);
  const input = decision && decision.updatedInput;
  if (input === undefined) return {};
  if (!input || typeof input !== "object" || Array.isArray(input))
    return { refused: `${GUARD} answered an input that is not an object; the dispatch is refused` };
  return { input };
}

// resume-guard's output on `hookInput`, parsed; a string when there is none to parse: "" to let
// the call run, else the reason it is refused.
function guardOutput(hookInput, directory) {
  const guard = suiteProgram(GUARD, directory);
  if (guard.refused) return `${guard.refused}; until then every dispatch is refused`;
  const run = spawnSync(guard.path ?? GUARD, ["--agent", "opencode", ...TOOL_OPTIONS], {
    input: JSON.stringify(hookInput), encoding: "utf8", cwd: directory, timeout: 30000,
  });
  if (run.error) {
    return `${GUARD} could not run (${run.error.message}): put fleet-hooks' executables on PATH; ` +
      "until then every dispatch is refused";
  }
  if (run.status !== 0) {
    return `${GUARD} failed (exit ${run.status ?? run.signal}: ${run.stderr.trim()}); the dispatch is refused`;
  }
  if (run.stdout.trim() === "") return "";
  try {
    const answer = JSON.parse(run.stdout);
    if (answer && typeof answer === "object" && !Array.isArray(answer)) return answer;
  } catch {}
  return `${GUARD} answered what this plugin cannot read (${run.stdout.trim()}); the dispatch is refused`;
}

// The hook input of `event` for the call `input` with `args`, as the suite's programs read it.
async function hookInput(client, directory, event, input, args) {
  const owner = await owningSession(client, input.sessionID);
  const hook = {
    hook_event_name: event,
    session_id: input.sessionID,
    tool_name: input.tool,
    tool_input: args,
    tool_use_id: input.callID,
    cwd: directory,
  };
  if (owner !== input.sessionID) hook.parent_agent_id = owner;
  return hook;
}

// provenance-writer `args` on `hook`; it cannot refuse anything any more, so a failure is only
// reported on OpenCode's stderr, as what was not recorded.
function runWriter(args, hook, directory, unrecorded) {
  const writer = suiteProgram(WRITER, directory);
  if (writer.refused) {
    console.error(`fleet-hooks: ${WRITER} ${args[0]} did not record ${unrecorded}: ${writer.refused}`);
    return;
  }
  const run = spawnSync(writer.path ?? WRITER, args, {
    input: JSON.stringify(hook), encoding: "utf8", cwd: directory, timeout: 30000,
  });
  if (run.error || run.status !== 0) {
    console.error(`fleet-hooks: ${WRITER} ${args[0]} did not record ${unrecorded}: ` +
      `${run.error ? run.error.message : run.stderr.trim()}`);
  }
}

// `provenance-writer hook` on `hook`: records the worker a dispatch launched.
function recordDispatch(hook, directory) {
  runWriter(["hook", "--agent", "opencode", ...TOOL_OPTIONS], hook, directory, "the dispatch");
}

// Claims the pending launch for `sessionID`: the first session of this process is the one
// launch-wrapper started (a subagent's child session comes later, and is not a launch).
let launchClaimed = false;
function claimLaunch(sessionID, directory) {
  if (launchClaimed || !process.env.FLEET_HOOKS_PENDING_LAUNCH) return;
  launchClaimed = true;
  const hook = { hook_event_name: "SessionStart", session_id: sessionID, cwd: directory };
  runWriter(["session-start", "--agent", "opencode"], hook, directory, "the session");
}

export const FleetHooksGuard = async ({ client, directory }) => ({
  "chat.message": async (input) => {
    claimLaunch(input.sessionID, directory);
  },
  "tool.execute.before": async (input, output) => {
    if (!isDispatchTool(input.tool)) return;
    const hook = await hookInput(client, directory, "PreToolUse", input, output.args);
    const answer = guardAnswer(hook, directory);
    if (answer.refused !== undefined) throw new Error(answer.refused);
    if (answer.input) {
      // In place: OpenCode sends this object, not the member, to the MCP server.
      for (const key of Object.keys(output.args)) delete output.args[key];
      Object.assign(output.args, answer.input);
    }
  },
  "tool.execute.after": async (input, output) => {
    if (!isDispatchTool(input.tool) || !output || !Array.isArray(output.content)) return;
    let hook;
    try {
      hook = await hookInput(client, directory, "PostToolUse", input, input.args);
    } catch (error) {
      console.error(`${error.message}: the dispatch is not recorded`);
      return;
    }
    hook.tool_response = output.content;
    recordDispatch(hook, directory);
  },
});
