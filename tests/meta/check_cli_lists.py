#!/usr/bin/env python3
"""Every list of agent CLIs in the pages, and in the texts the build writes, names all of them.

    check_cli_lists.py FLEET_HOOKS SOURCE_DIR [GENERATED_FILE ...]

The CLIs are the table's (common/agents/), as `FLEET_HOOKS agents` prints it: the name
`--agent` takes and the project file of each. A CLI is mentioned by its name as a word, in any
case (`codex`, Codex CLI, CODEX, .codex/), or by its project file. A list is a run of mentions,
each at most GAP characters after the one before (whitespace collapsed), within one paragraph
and one table cell. A list naming three CLIs or more but not all of them fails — a text written
when the suite knew fewer CLIs — unless cli_lists_allowed.txt (beside this script) holds it
with the reason it names only those; an entry there that matches no list fails too.

The pages: README.md, doc/*.md, examples/*/README.md, action.yml, .github/workflows/*.yml, install.sh,
tests/e2e/setup.sh and tests/e2e/agent_clis.tsv, cmake/debian/*, and each GENERATED_FILE (the
Debian package's texts the build writes from the table). Prints each failing list as
FILE:LINE; exits 1 when there is one, 0 otherwise."""
import glob
import os
import re
import subprocess
import sys

GAP = 30
ELLIPSIS = re.compile(r"…|\.\.\.")

fleet_hooks, source_dir = sys.argv[1:3]
generated = sys.argv[3:]
table = [line.split("\t") for line in
         subprocess.run([fleet_hooks, "agents"], check=True, capture_output=True,
                        text=True).stdout.splitlines()]
names = [row[0] for row in table]
files = {row[1]: row[0] for row in table}
if len(names) < 3:
    sys.exit("check_cli_lists: `fleet-hooks agents` printed fewer than three CLIs: %r" % names)

mention = re.compile(
    "|".join([re.escape(f) for f in files] +
             [r"(?<![A-Za-z0-9_-])(?:%s)(?![A-Za-z0-9_])" % re.escape(n) for n in names]),
    re.IGNORECASE)


def cli_of(text):
    return files.get(text) or text.lower()


def units(text):
    """(offset, text) of each paragraph and table cell of `text`."""
    for paragraph in re.finditer(r"(?:[^\n]|\n(?![ \t]*\n))+", text):
        at = paragraph.start()
        for cell in re.split(r"(?<=\s)\|(?=\s)", paragraph.group(0)):
            yield at, cell
            at += len(cell) + 1


def collapsed(text):
    return re.sub(r"\s+", " ", text)


def lists(text):
    """(line, list text, the CLIs named) for each list of three CLIs or more in `text`."""
    for at, unit in units(text):
        found = list(mention.finditer(unit))
        start = 0
        while start < len(found):
            end = start
            while end + 1 < len(found):
                gap = unit[found[end].end():found[end + 1].start()]
                if len(collapsed(gap)) > GAP or ELLIPSIS.search(gap):
                    break
                end += 1
            clis = {cli_of(m.group(0)) for m in found[start:end + 1]}
            # "A, B, C, …" says that it is not the whole list.
            elided = ELLIPSIS.search(collapsed(unit[found[end].end():])[:GAP])
            if len(clis) >= 3 and not elided:
                line = text.count("\n", 0, at + found[start].start()) + 1
                yield line, collapsed(unit[found[start].start():found[end].end()]), clis
            start = end + 1


here = os.path.dirname(os.path.abspath(__file__))
allowed = {}
for entry in open(os.path.join(here, "cli_lists_allowed.txt"), encoding="utf-8"):
    if entry.strip() and not entry.startswith("#"):
        path, listed, reason = entry.rstrip("\n").split("\t")
        allowed[(path, listed)] = reason
used = set()

pages = ["README.md", "action.yml", "install.sh", "tests/e2e/setup.sh", "tests/e2e/agent_clis.tsv"]
pages += sorted(os.path.relpath(p, source_dir) for pattern in
                ("doc/*.md", "examples/*/README.md", ".github/workflows/*.yml", "cmake/debian/*")
                for p in glob.glob(os.path.join(source_dir, pattern)))
failed = 0
for page in [os.path.join(source_dir, p) for p in pages] + generated:
    shown = os.path.relpath(page, source_dir) if page.startswith(source_dir) else page
    with open(page, encoding="utf-8") as f:
        text = f.read()
    whole = 0
    for line, listed, clis in lists(text):
        if len(clis) == len(names):
            whole += 1
            continue
        if (shown, listed) in allowed:
            used.add((shown, listed))
            continue
        missing = [n for n in names if n not in clis]
        print("%s:%d: lists %d of the %d agent CLIs (not %s): %s"
              % (shown, line, len(clis), len(names), ", ".join(missing), listed))
        failed += 1
    if page in generated and whole == 0:
        print("%s: names none of the lists of all the agent CLIs the build writes from the table"
              % shown)
        failed += 1
for path, listed in sorted(set(allowed) - used):
    print("cli_lists_allowed.txt: no list of %s is %r any more: remove the entry" % (path, listed))
    failed += 1
if failed:
    print("%d list(s) of agent CLIs name only some of them: name every CLI `fleet-hooks agents` "
          "lists (or write the text from the table), or, where only those CLIs are meant, add "
          "the list to tests/meta/cli_lists_allowed.txt with the reason" % failed)
sys.exit(1 if failed else 0)
