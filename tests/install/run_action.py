#!/usr/bin/env python3
"""Runs a composite action's steps as a GitHub runner does, for the action's tests:

    run_action.py ACTION_YML WORKSPACE RUNNER_TEMP [NAME=VALUE ...]

NAME=VALUE are the `with:` inputs (the others get their defaults). Each step's `${{ … }}`
expressions (inputs.*, github.action_path / action_repository / server_url, runner.temp,
steps.<id>.outputs.*, and `inputs.X != ''` in `if:`) are substituted; any other expression
is an error. Its script runs as `bash --noprofile --norc -eo pipefail FILE` in its
working-directory (relative to WORKSPACE), with its env, RUNNER_TEMP, and fresh GITHUB_ENV,
GITHUB_PATH and GITHUB_OUTPUT files whose lines apply to the steps after it, as on a runner.
Prints each step's output; exits with the first failing step's exit code (0 when all pass)."""
import os
import re
import subprocess
import sys
import tempfile

import yaml

action_yml, workspace, runner_temp = sys.argv[1:4]
given = dict(arg.split("=", 1) for arg in sys.argv[4:])
action = yaml.safe_load(open(action_yml))
inputs = {name: given.get(name, spec.get("default", "")) for name, spec in action["inputs"].items()}
unknown = set(given) - set(inputs)
if unknown:
    sys.exit("run_action: no such input: %s" % ", ".join(sorted(unknown)))
context = {
    "github.action_path": os.path.dirname(os.path.abspath(action_yml)),
    "github.action_repository": "your-org/fleet-hooks",
    "github.server_url": "https://github.com",
    "runner.temp": runner_temp,
}
outputs = {}


def value(expression):
    expression = expression.strip()
    if expression.startswith("inputs."):
        return inputs[expression[len("inputs."):]]
    match = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
    if match:
        return outputs.get(match.group(1), {}).get(match.group(2), "")
    if expression in context:
        return context[expression]
    sys.exit("run_action: unsupported expression ${{ %s }}" % expression)


def substitute(text):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: value(m.group(1)), str(text))


def condition(text):
    match = re.fullmatch(r"\s*inputs\.([\w-]+)\s*!=\s*''\s*", text)
    if not match:
        sys.exit("run_action: unsupported if: %s" % text)
    return inputs[match.group(1)] != ""


def read_pairs(path):
    """NAME=VALUE lines (and NAME<<DELIMITER blocks) of a GITHUB_ENV or GITHUB_OUTPUT file."""
    pairs, lines = {}, open(path).read().splitlines()
    while lines:
        line = lines.pop(0)
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            while lines and lines[0] != delimiter:
                block.append(lines.pop(0))
            lines.pop(0)
            pairs[name] = "\n".join(block)
        elif "=" in line:
            name, text = line.split("=", 1)
            pairs[name] = text
    return pairs


env = dict(os.environ)
paths = []
for number, step in enumerate(action["runs"]["steps"]):
    name = step.get("name", step.get("id", "step %d" % number))
    if "if" in step and not condition(step["if"]):
        print("run_action: skipped: %s" % name, flush=True)
        continue
    if step.get("shell") != "bash" or "run" not in step:
        sys.exit("run_action: step %s is not a bash run step" % name)
    files = {}
    for kind in ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT"):
        handle, files[kind] = tempfile.mkstemp(dir=runner_temp, prefix=kind + ".")
        os.close(handle)
    step_env = dict(env, RUNNER_TEMP=runner_temp, GITHUB_WORKSPACE=workspace, **files)
    step_env["PATH"] = ":".join(reversed(paths)) + (":" if paths else "") + env["PATH"]
    step_env.update({key: substitute(text) for key, text in step.get("env", {}).items()})
    handle, script = tempfile.mkstemp(dir=runner_temp, suffix=".sh")
    with os.fdopen(handle, "w") as out:
        out.write(substitute(step["run"]))
    cwd = os.path.join(workspace, substitute(step.get("working-directory", ".")))
    print("run_action: step: %s" % name, flush=True)
    status = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                             cwd=cwd, env=step_env)
    if status != 0:
        print("run_action: failed: %s (exit %d)" % (name, status), flush=True)
        sys.exit(status)
    env.update(read_pairs(files["GITHUB_ENV"]))
    paths += [line for line in open(files["GITHUB_PATH"]).read().splitlines() if line]
    if "id" in step:
        outputs[step["id"]] = read_pairs(files["GITHUB_OUTPUT"])
for output, spec in action.get("outputs", {}).items():
    print("run_action: output %s=%s" % (output, substitute(spec["value"])), flush=True)
