#!/usr/bin/env python3
"""The weekly e2e-latest workflow tries every agent CLI of the table, from one list.

    check_e2e_latest.py FLEET_HOOKS SOURCE_DIR

tests/e2e/agent_clis.tsv, the list tests/e2e/setup.sh installs from, names the CLIs that
`FLEET_HOOKS agents` prints (the table, common/agents/), in its order, each pinned at the
version its row's facts were checked with. The workflow's steps run as a runner runs them
(bash, GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STEP_SUMMARY; `${{ matrix.latest }}` as codex): its
matrix is each CLI of the list and `all`, on the highest Node.js major of the list's column;
its install step reports the version of every CLI; and when tests fail, the error annotation
and the summary list each failed test on a line of its own (test names hold commas).
Prints what differs; exits 1 when anything does."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

fleet_hooks, source_dir = sys.argv[1:3]
problems = []
table = [line.split("\t") for line in subprocess.run(
    [fleet_hooks, "agents"], check=True, capture_output=True, text=True).stdout.splitlines()]

listed = [line.rstrip("\n").split("\t")
          for line in open(os.path.join(source_dir, "tests/e2e/agent_clis.tsv"), encoding="utf-8")
          if line.strip() and not line.startswith("#")]
if [row[0] for row in listed] != [row[0] for row in table]:
    problems.append("tests/e2e/agent_clis.tsv names %s; the table (fleet-hooks agents) %s"
                    % ([row[0] for row in listed], [row[0] for row in table]))
for (name, _, pinned, _), (_, _, display, checked) in zip(listed, table):
    if pinned != checked:
        problems.append("tests/e2e/agent_clis.tsv pins %s at %s; its row's facts were checked with "
                        "%s (%s)" % (name, pinned, checked, display))
names = [row[0] for row in listed]
node = max(int(row[3]) for row in listed if row[3] != "-")

workflow = yaml.safe_load(open(os.path.join(source_dir, ".github/workflows/e2e-latest.yml")))
steps = {step.get("id") or step.get("name"): step
         for job in workflow["jobs"].values() for step in job["steps"]}
scratch = tempfile.mkdtemp()


def run_step(name, workspace, env=None, path=None):
    """Runs the step's script in `workspace`; returns (exit code, stdout, outputs, env lines,
    summary)."""
    if name not in steps:
        problems.append("the workflow has no step %r" % name)
        return 1, "", "", "", ""
    files = {key: os.path.join(scratch, key) for key in
             ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_STEP_SUMMARY")}
    for file in files.values():
        open(file, "w").close()
    script = steps[name]["run"].replace("${{ matrix.latest }}", "codex")
    if "${{" in script:
        problems.append("step %r: an expression this check does not know: %s"
                        % (name, re.search(r"\$\{\{[^}]*\}\}", script).group(0)))
    ran = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=workspace,
        capture_output=True, text=True,
        env={**os.environ, **files, **(env or {}),
             "PATH": (path + ":" if path else "") + os.environ["PATH"]})
    read = {key: open(file).read() for key, file in files.items()}
    return ran.returncode, ran.stdout, read["GITHUB_OUTPUT"], read["GITHUB_ENV"], \
        read["GITHUB_STEP_SUMMARY"]


# The matrix: every CLI of the list, then all; the Node.js the list asks for.
_, _, outputs, _, _ = run_step("list", source_dir)
expected = 'latest=[%s]\nnode=%d\n' % (",".join('"%s"' % n for n in names + ["all"]), node)
if outputs != expected:
    problems.append("the clis job's outputs are %r, not %r" % (outputs, expected))
e2e = workflow["jobs"]["e2e"]
if e2e["strategy"]["matrix"].get("latest") != "${{ fromJSON(needs.clis.outputs.latest) }}":
    problems.append("the e2e job's matrix is not the clis job's list: %r"
                    % e2e["strategy"]["matrix"])
if "${{ needs.clis.outputs.node }}" not in str(e2e.get("container")):
    problems.append("the e2e job's container does not take the Node.js the list asks for: %r"
                    % e2e.get("container"))

# The install step, with a setup.sh that installs every CLI but the last: each is reported.
workspace = os.path.join(scratch, "workspace")
os.makedirs(os.path.join(workspace, "tests/e2e/.cache"))
shutil.copy(os.path.join(source_dir, "tests/e2e/agent_clis.tsv"), os.path.join(workspace, "tests/e2e"))
with open(os.path.join(workspace, "tests/e2e/setup.sh"), "w") as setup:
    setup.write("#!/bin/sh\ncd \"$(dirname \"$0\")\"\n")
    for name in names[:-1]:
        setup.write("echo 9.%d.0 > .cache/%s-version\n" % (len(name), name))
    setup.write("echo 'npm install failed: E404' > .cache/%s-unavailable\n" % names[-1])
os.chmod(os.path.join(workspace, "tests/e2e/setup.sh"), 0o755)
install = next((key for key in steps if key and key.startswith("Install the agent CLIs")),
               "Install the agent CLIs")
code, _, _, env, summary = run_step(install, workspace)
ran = "FLEET_E2E_RAN=" + " ".join(
    ["%s 9.%d.0;" % (n, len(n)) for n in names[:-1]] + ["%s unavailable;" % names[-1]]) + "\n"
if code != 0 or env != ran:
    problems.append("the install step (exit %d) set %r, not %r" % (code, env, ran))
for name in names:
    if "- %s: " % name not in summary:
        problems.append("the install step's summary does not name %s: %r" % (name, summary))

# The test step, with a ctest that fails two tests whose names hold commas.
failed = ["e2e/codex: an L3 resumes its worker, a stranger is denied", "e2e/qwen: 100% of, it"]
fake = os.path.join(scratch, "bin")
os.makedirs(fake)
with open(os.path.join(fake, "ctest"), "w") as ctest:
    ctest.write("#!/bin/sh\nmkdir -p build/release/Testing/Temporary\nprintf '%s\\n' "
                + " ".join("'%d:%s'" % (i + 3, n) for i, n in enumerate(failed))
                + " > build/release/Testing/Temporary/LastTestsFailed.log\nexit 8\n")
os.chmod(os.path.join(fake, "ctest"), 0o755)
code, out, _, _, summary = run_step("End-to-end tests", workspace,
                                    env={"FLEET_E2E_RAN": ran.split("=", 1)[1].strip()}, path=fake)
annotations = [line for line in out.splitlines() if line.startswith("::error ")]
if code == 0 or len(annotations) != 1:
    problems.append("the test step (exit %d) printed %r" % (code, out))
else:
    message = annotations[0].split("::", 2)[2]
    lines = message.split("%0A")
    if lines[1:] != ["- " + n.replace("%", "%25") for n in failed]:
        problems.append("the annotation does not list each failed test on a line: %r" % message)
for name in failed:
    if "- `%s`\n" % name not in summary:
        problems.append("the summary does not list %r on a line of its own: %r" % (name, summary))

shutil.rmtree(scratch)
for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
