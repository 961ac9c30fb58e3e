#!/usr/bin/env python3
"""Writes cmake/hot-code/<program>.ld: the code a hook runs on every call, placed together.

A static binary's start-up touches code all over its 2 MB of text (glibc's start-up, the
libstdc++ locale, CLI11, the program); the kernel maps file pages 64 KiB at a time, so each
scattered function costs a page fault of its own. This script runs the program under
valgrind's callgrind on typical calls, lists every function executed, finds the input section
that holds each one in the link map, and writes a GNU ld script that puts those sections in
an output section of their own right before .text (INSERT BEFORE .text keeps the default
script); the string functions glibc picks for this CPU (read in gdb) are added to the ones
valgrind's CPU model picked. Where perf is installed, it then relinks and adds what native
runs still fault in outside those sections (the vDSO set-up valgrind never runs, for one).
CMakeLists.txt links the program with the script when it exists.

Usage: bench/hot_code.py [--build-dir build/release]      (after a release build)

Rerun it after changing the code of the hot path: a function it does not list is only placed
with the rest of the code (the program stays correct, a little slower to start).
"""
import argparse
import bisect
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sid(i):
    return f"{i:08x}-0000-4000-8000-{i:012x}"


def hook_input(caller, resume_id):
    return json.dumps({"session_id": caller, "hook_event_name": "PreToolUse",
                       "tool_name": "mcp__kitchen__dispatch_food_truck",
                       "tool_input": {"resume_session_id": resume_id}})


def guard_calls(build, work):
    """(argv, stdin text) of the calls the guard makes most: stores the suite wrote (found,
    not found), a store AutoSkillit wrote (no index yet), no store."""
    guard = os.path.join(build, "hooks/resume-guard/resume-guard")
    writer = os.path.join(build, "hooks/provenance-writer/provenance-writer")
    calls = []
    for name, writer_appends in (("suite", True), ("autoskillit", False)):
        state = os.path.join(work, name)
        os.makedirs(state, mode=0o700)
        subprocess.run([sys.executable, os.path.join(ROOT, "bench/make_store.py"), "2000",
                        os.path.join(state, "session_provenance.jsonl")], check=True)
        if writer_appends:
            subprocess.run([writer, "record", "--session-id", "appended", "--caller-session-id",
                            "bench", "--recipe-name", "r", "--state-dir", state], check=True)
        for resume in (sid(0), sid(1999), "ffffffff-0000-4000-8000-000000000000"):
            calls.append(([guard, "--state-dir", state], hook_input("caller", resume)))
    calls.append(([guard, "--state-dir", os.path.join(work, "none")],
                  hook_input("caller", sid(0))))
    return calls


def executed_functions(calls, work):
    """For each call, the names of the functions it executed."""
    per_call = []
    for i, (argv, stdin) in enumerate(calls):
        out = os.path.join(work, f"callgrind.{i}")
        subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no",
                        f"--callgrind-out-file={out}"] + argv, input=stdin.encode(),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        names = set()
        with open(out, errors="replace") as f:
            for line in f:
                m = re.match(r"^c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
                if m:
                    names.add(m.group(1))
        per_call.append(names)
    return per_call


def symbols(binary):
    """name -> addresses of the functions (and ifuncs) of that name in `binary` (local
    clones such as f.constprop.0 may exist in several objects)."""
    out = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwWi":
            table.setdefault(parts[2], []).append(int(parts[0], 16))
    return table


def faulting_code(argv, stdin, work):
    """Addresses of the code pages a native run faults in (perf's page-fault event), or []
    without perf: what valgrind does not see (the vDSO set-up, for one)."""
    data = os.path.join(work, "faults.data")
    try:
        subprocess.run(["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-o", data,
                        "--"] + argv, input=stdin.encode(), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        out = subprocess.run(["perf", "script", "-i", data, "-F", "ip,addr"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    found = []
    for line in out.split("\n"):
        parts = line.split()
        if len(parts) == 2 and parts[0] == parts[1]:  # an instruction fetch
            found.append(int(parts[0], 16))
    return found


def selected_ifuncs(binary, argv):
    """Addresses of the implementations glibc chose for this CPU (its IRELATIVE slots, read
    in gdb at main): valgrind reports the ones it chose for its own CPU model."""
    relocs = subprocess.run(["readelf", "-rW", binary], capture_output=True, text=True,
                            check=True).stdout
    slots = [int(l.split()[0], 16) for l in relocs.splitlines() if "IRELATIV" in l]
    if not slots:
        return []
    commands = ["set pagination off", "break main", "run </dev/null >/dev/null 2>&1"]
    commands += [f"printf \"slot %lx\\n\", *(unsigned long*){s:#x}" for s in slots]
    commands.append("kill")
    result = subprocess.run(["gdb", "-batch", "-nx"] + sum((["-ex", c] for c in commands), []) +
                            ["--args"] + argv, capture_output=True, text=True)
    return [int(m.group(1), 16) for m in re.finditer(r"^slot ([0-9a-f]+)$", result.stdout, re.M)]


def input_sections(map_path):
    """(address, size, section, file) of every input section placed in .text."""
    sections = []
    in_text = False
    pending = None
    with open(map_path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if re.match(r"^\.text(\.fleet_hot)?(\s|$)", line):
                in_text = True
                continue
            if re.match(r"^\.\S", line):
                in_text = False
                continue
            if not in_text:
                continue
            m = re.match(r"^ (\.\S+|__libc_freeres_fn)\s*$", line)
            if m:
                pending = m.group(1)
                continue
            m = re.match(r"^ (\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
            if m:
                name = m.group(1) or pending
                pending = None
                if name and name.startswith(".text"):
                    sections.append((int(m.group(2), 16), int(m.group(3), 16), name,
                                     m.group(4).strip()))
    sections.sort()
    return sections


def pattern(section, file):
    m = re.match(r"^(.*)\((.+)\)$", file)
    if m:  # archive(member)
        return f"*{os.path.basename(m.group(1))}:{m.group(2)}({section})"
    return f"*{os.path.basename(file)}({section})"


def family(name):
    m = re.match(r"^(__\w+?)_(sse2|ssse3|sse4|sse42|avx|avx2|evex|avx512)", name)
    return m.group(1) if m else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build/release"))
    args = parser.parse_args()
    build = os.path.abspath(args.build_dir)
    program = "resume-guard"
    binary = os.path.join(build, "hooks", program, program)
    map_path = binary + ".map"
    if not os.path.exists(map_path):
        sys.exit(f"hot_code.py: {map_path} is missing: build the release preset first")

    with tempfile.TemporaryDirectory() as work:
        calls = guard_calls(build, work)
        per_call = executed_functions(calls, work)
        table = symbols(binary)
        by_address = {}
        for name, addresses in table.items():
            for address in addresses:
                by_address.setdefault(address, []).append(name)
        selected = selected_ifuncs(binary, calls[0][0])
        # The calls in order of importance: the sections of the first call come first (in
        # their order in the link), then what each later call adds.
        wanted = []
        for executed in per_call:
            addresses = {a for n in executed for a in table.get(n, [])}
            families = {family(n) for n in executed if family(n)}
            for address in selected:
                if any(family(n) in families for n in by_address.get(address, [])):
                    addresses.add(address)
            wanted.append(sorted(addresses))
        chosen = write_script(program, sections_of(wanted, map_path), map_path)
        # Then what native runs of the main calls still fault in outside those sections,
        # linking again each round.
        for _ in range(4):
            subprocess.run(["cmake", "--build", build, "--target", program], check=True,
                           stdout=subprocess.DEVNULL)
            faults = [faulting_code(argv, stdin, work) for argv, stdin in calls[:3]]
            more = [a for a in sections_of(faults, map_path) if a not in chosen]
            if not more:
                break
            chosen = write_script(program, chosen + more, map_path)


def sections_of(address_lists, map_path):
    """The input-section patterns holding the addresses, in order, without repeats."""
    sections = input_sections(map_path)
    starts = [s[0] for s in sections]
    chosen = []
    for addresses in address_lists:
        for address in addresses:
            i = bisect.bisect_right(starts, address) - 1
            if i >= 0 and sections[i][0] <= address < sections[i][0] + max(sections[i][1], 1):
                entry = pattern(sections[i][2], sections[i][3])
                if entry not in chosen:
                    chosen.append(entry)
    return chosen


def write_script(program, chosen, map_path):
    sizes = {pattern(s[2], s[3]): s[1] for s in input_sections(map_path)}
    size = sum(sizes.get(entry, 0) for entry in chosen)
    out_path = os.path.join(ROOT, "cmake", "hot-code", program + ".ld")
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, "w") as out:
        out.write(f"/* Generated by bench/hot_code.py: the {len(chosen)} input sections "
                  f"({size // 1024} KiB) {program} runs on\n   typical calls, placed together "
                  "before .text. Regenerate after changing its hot path. */\n")
        out.write("SECTIONS\n{\n  .text.fleet_hot :\n  {\n")
        for entry in chosen:
            out.write(f"    {entry}\n")
        out.write("  }\n}\nINSERT BEFORE .text;\n")
    print(f"hot_code.py: wrote {os.path.relpath(out_path, ROOT)}: {len(chosen)} sections, "
          f"{size // 1024} KiB")
    return chosen


if __name__ == "__main__":
    main()
