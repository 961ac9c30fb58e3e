#!/usr/bin/env node
// A dispatcher to copy: a stdio MCP server (no dependencies beyond Node 18) serving the tool
// dispatch_food_truck the way fleet-hooks expects (README.md beside this file):
// - each worker runs through `launch-wrapper --record-provenance`, so it is recorded with the
//   orchestrator (L3) that called before it runs, in the store the guard judged that call with;
// - the call itself (its arguments and `_meta`) goes to launch-wrapper unchanged (--mcp-call):
//   where the L3's CLI binds the call to its session (Claude Code and Codex in `_meta`; Gemini
//   CLI, GitHub Copilot CLI and OpenCode by the guard's token in the argument fleet_hooks_call),
//   that decides the caller, whatever process tree this server runs in;
// - a fresh worker may run in a git worktree of its own (FLEET_DISPATCH_WORKTREES=1), and its
//   resume in the same directory;
// - the reply is one JSON object naming `session_id` (the PostToolUse provenance-writer can
//   record from it), or, when launch-wrapper refuses (exit 125), its reason as an error.
//
// Configuration, all optional (in the MCP server's "env"):
//   FLEET_DISPATCH_LAUNCHER      the launch-wrapper to run (default: launch-wrapper on PATH)
//   FLEET_DISPATCH_TOOL          the tool's name (default dispatch_food_truck)
//   FLEET_DISPATCH_KITCHEN       --kitchen-id of every worker
//   FLEET_DISPATCH_STATE_DIR     --state-dir (default: the store the guard judged the call with)
//   FLEET_DISPATCH_RECORD=0      leave recording to the PostToolUse hook (no --record-provenance)
//   FLEET_DISPATCH_WORKTREES=1   each fresh worker in `git worktree add --detach` of the project,
//                                under FLEET_DISPATCH_WORKTREE_ROOT (default .git/fleet-worktrees)
//   FLEET_DISPATCH_WRAPPER_ARGS  more launch-wrapper options, as a JSON array
//   FLEET_DISPATCH_PROGRAM_<CLI> the program of a worker CLI (default its name on PATH)
//   FLEET_DISPATCH_ENV_<CLI>     more variables for that CLI's workers, as a JSON object
//   FLEET_DISPATCH_JOURNAL       a file to append each call to, as {"input","result","stderr"}
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

const env = process.env;

const tool = {
  name: env.FLEET_DISPATCH_TOOL || "dispatch_food_truck",
  description: "Dispatch a worker (food truck) session, or resume one with resume_session_id.",
  inputSchema: {
    type: "object",
    properties: {
      prompt: { type: "string", description: "the worker's task" },
      agent: { type: "string", description: "the worker's CLI: claude (default), codex, gemini, qwen, copilot, opencode" },
      resume_session_id: { type: "string", description: "resume this worker session instead of starting one" },
      recipe_name: { type: "string" },
      step_name: { type: "string" },
      completion_marker: { type: "string", description: "the text that ends the worker's turn" },
      l2_tools: { type: "string", description: "Claude Code workers: --allowedTools" },
    },
    required: ["prompt"],
  },
};

// Each worker CLI's headless command line, and whether launch-wrapper gives it its session id
// (Codex and OpenCode pick their own; launch-wrapper reads it from their JSON output).
const WORKERS = {
  claude: { assigns: true, command: (program, input, resume) => [program, "-p", input.prompt,
    "--output-format", "json", ...(resume ? ["--resume", resume] : []),
    ...(input.l2_tools ? ["--allowedTools", input.l2_tools] : [])] },
  codex: { assigns: false, command: (program, input, resume) => [program, "exec", "--json",
    "--skip-git-repo-check", ...(resume ? ["resume", resume] : []), input.prompt] },
  gemini: { assigns: true, command: (program, input, resume) => [program, "-p", input.prompt,
    "-o", "json", "--approval-mode", "yolo", ...(resume ? ["--resume", resume] : [])] },
  qwen: { assigns: true, command: (program, input, resume) => [program, "-o", "stream-json",
    "--yolo", ...(resume ? ["--resume", resume] : []), input.prompt] },
  copilot: { assigns: true, command: (program, input, resume) => [program, "-p", input.prompt,
    "--allow-all-tools", "--output-format", "json", ...(resume ? ["--resume", resume] : [])] },
  opencode: { assigns: false, command: (program, input, resume) => [program, "run", "--format",
    "json", ...(resume ? ["--session", resume] : []), input.prompt] },
};

const json = (name, fallback) => (env[name] ? JSON.parse(env[name]) : fallback);
let dispatches = 0;

// The git worktree a fresh worker runs in, and where its resume finds it again.
function worktreeRoot() {
  const top = spawnSync("git", ["rev-parse", "--path-format=absolute", "--git-common-dir"],
    { encoding: "utf8" });
  if (top.status !== 0) throw new Error("FLEET_DISPATCH_WORKTREES=1 needs a git repository: " + top.stderr.trim());
  return env.FLEET_DISPATCH_WORKTREE_ROOT || path.join(top.stdout.trim(), "fleet-worktrees");
}

function newWorktree(dispatchId) {
  const dir = path.join(worktreeRoot(), dispatchId);
  const added = spawnSync("git", ["worktree", "add", "--detach", "--quiet", dir, "HEAD"], { encoding: "utf8" });
  if (added.status !== 0) throw new Error("git worktree add failed: " + added.stderr.trim());
  return dir;
}

const sessionLink = (session) => /^[A-Za-z0-9_-]{1,128}$/.test(session)
  ? path.join(worktreeRoot(), "by-session", session) : null;

function workerDirectory(input, dispatchId) {
  if (env.FLEET_DISPATCH_WORKTREES !== "1") return process.cwd();
  if (!input.resume_session_id) return newWorktree(dispatchId);
  const link = sessionLink(input.resume_session_id);
  try { return link ? fs.realpathSync(link) : process.cwd(); } catch { return process.cwd(); }
}

function rememberDirectory(session, dir) {
  const link = env.FLEET_DISPATCH_WORKTREES === "1" && session ? sessionLink(session) : null;
  if (!link || dir === process.cwd()) return;
  fs.mkdirSync(path.dirname(link), { recursive: true });
  try { fs.symlinkSync(dir, link); } catch (e) { if (e.code !== "EEXIST") throw e; }
}

function launchArguments(input, params, dispatchId, summaryFile) {
  const agent = input.agent || "claude";
  const worker = WORKERS[agent];
  if (!worker) throw new Error(`unknown agent "${agent}": one of ${Object.keys(WORKERS).join(", ")}`);
  const program = env[`FLEET_DISPATCH_PROGRAM_${agent.toUpperCase()}`] || agent;
  return [
    ...(env.FLEET_DISPATCH_RECORD === "0" ? [] : ["--record-provenance"]),
    ...(env.FLEET_DISPATCH_STATE_DIR ? ["--state-dir", env.FLEET_DISPATCH_STATE_DIR] : []),
    ...(env.FLEET_DISPATCH_KITCHEN ? ["--kitchen-id", env.FLEET_DISPATCH_KITCHEN] : []),
    "--dispatch-id", dispatchId, "--recipe-name", input.recipe_name || "implement",
    "--step-name", input.step_name || "build", "--agent", agent,
    ...(worker.assigns ? ["--assign-session-id"] : []), "--summary-file", summaryFile,
    "--mcp-call", JSON.stringify(params),
    ...(input.completion_marker ? ["--completion-marker", input.completion_marker] : []),
    ...json("FLEET_DISPATCH_WRAPPER_ARGS", []),
    "--", ...worker.command(program, input, input.resume_session_id),
  ];
}

function run(program, args, options) {
  return new Promise((resolve) => {
    const child = spawn(program, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    child.stdout.on("data", (chunk) => { stdout = (stdout + chunk).slice(-4000); });
    child.stderr.on("data", (chunk) => { stderr += chunk; });
    child.on("error", (error) => resolve({ status: 127, stdout, stderr: stderr + error.message }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

// One call: the worker run, or why not. `params` are the tools/call request's, as they came.
async function dispatch(input, params) {
  const dispatchId = `d-${process.pid}-${Date.now()}-${++dispatches}`;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "fleet-dispatch-"));
  const summaryFile = path.join(scratch, "summary.json");
  try {
    const args = launchArguments(input, params, dispatchId, summaryFile);
    const cwd = workerDirectory(input, dispatchId);
    const agent = input.agent || "claude";
    const launched = await run(env.FLEET_DISPATCH_LAUNCHER || "launch-wrapper", args,
      { cwd, env: { ...env, ...json(`FLEET_DISPATCH_ENV_${agent.toUpperCase()}`, {}) } });
    if (launched.status === 125 || !fs.existsSync(summaryFile)) {
      // Refused before anything ran (no caller certain, a resume not allowed, …): say why.
      return { error: launched.stderr.trim() || `launch-wrapper exited ${launched.status}`,
        result: { dispatch_id: dispatchId, exit_code: launched.status }, stderr: launched.stderr };
    }
    const summary = JSON.parse(fs.readFileSync(summaryFile, "utf8"));
    rememberDirectory(summary.session_id, cwd);
    return { stderr: launched.stderr, result: {
      session_id: summary.session_id, dispatch_id: dispatchId, kitchen_id: env.FLEET_DISPATCH_KITCHEN || "",
      exit_code: launched.status, kill_reason: summary.kill_reason, attempts: summary.attempts,
      directory: cwd, output: launched.stdout } };
  } catch (error) {
    return { error: error.message, result: { dispatch_id: dispatchId }, stderr: "" };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

async function call(id, params) {
  const input = (params && params.arguments) || {};
  const { result, error, stderr } = await dispatch(input, params);
  if (env.FLEET_DISPATCH_JOURNAL)
    fs.appendFileSync(env.FLEET_DISPATCH_JOURNAL, JSON.stringify({ input, result, stderr }) + "\n");
  const text = error ? `Refused: ${error}` : JSON.stringify(result);
  send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }], ...(error ? { isError: true } : {}) } });
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try { message = JSON.parse(line); } catch { return; }
  const { id, method, params } = message;
  if (method === "initialize") {
    send({ jsonrpc: "2.0", id, result: { protocolVersion: (params && params.protocolVersion) || "2025-06-18",
      capabilities: { tools: {} }, serverInfo: { name: "fleet-dispatcher", version: "1.0.0" } } });
  } else if (method === "tools/list") {
    send({ jsonrpc: "2.0", id, result: { tools: [tool] } });
  } else if (method === "tools/call" && params && params.name === tool.name) {
    call(id, params);
  } else if (id !== undefined) {
    send({ jsonrpc: "2.0", id, error: { code: -32601, message: `unknown method ${method}` } });
  }
});
