#!/usr/bin/env python3
"""Completion-watch benchmarks for bench/run.

Usage: watch_bench.py WRAPPER latency RUNS [--no-inotify]
       watch_bench.py WRAPPER idle SECONDS [--no-inotify]
       watch_bench.py WRAPPER waiting SECONDS codex|gemini SIZE [--poll-ms N]

latency: median milliseconds from an assistant record with the marker being written to the
         transcript to launch-wrapper reporting it on stderr.
idle:    CPU used by the wrapper (user + system) while it watches an unchanging transcript,
         as a percentage of one core.
waiting: CPU-seconds a minute the wrapper uses waiting for a session file that never appears
         (an --ephemeral Codex worker, a Gemini session not written yet), with a history of
         SIZE old sessions: Codex rollouts spread over 3 years of day folders in $CODEX_HOME,
         or SIZE other projects' folders in Gemini's ~/.gemini/tmp.
"""
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time

MARKER = "%%BENCH_DONE%%"
RECORD = '{"type":"assistant","message":{"content":[{"type":"text","text":"%s"}]}}\n' % MARKER


def start(wrapper, log, extra, agent_seconds):
    return subprocess.Popen(
        [wrapper, "--quiet", "--completion-marker", MARKER, "--session-log", log, "--drain", "0",
         "--grace", "1"] + extra + ["--", "sleep", str(agent_seconds)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_line(stream, needle, timeout):
    deadline = time.monotonic() + timeout
    buffer = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.5)
        if ready:
            chunk = os.read(stream.fileno(), 4096)
            if not chunk:
                return False
            buffer += chunk
            if needle in buffer:
                return True
    return False


def latency(wrapper, runs, extra):
    samples = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs):
            log = os.path.join(tmp, "t%d.jsonl" % i)
            open(log, "w").close()
            proc = start(wrapper, log, extra, 60)
            wait_line(proc.stdout, b"FLEET_PID:", 10)
            time.sleep(0.2)  # let the watch settle
            with open(log, "a") as f:
                began = time.monotonic()
                f.write(RECORD)
                f.flush()
            if wait_line(proc.stderr, b"completion marker seen", 10):
                samples.append((time.monotonic() - began) * 1000)
            proc.wait(timeout=20)
    return statistics.median(samples)


def idle(wrapper, seconds, extra):
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "t.jsonl")
        open(log, "w").close()
        proc = start(wrapper, log, extra, seconds + 5)
        wait_line(proc.stdout, b"FLEET_PID:", 10)
        ticks = os.sysconf("SC_CLK_TCK")

        def cpu():
            fields = open("/proc/%d/stat" % proc.pid).read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks

        before = cpu()
        time.sleep(seconds)
        used = cpu() - before
        proc.terminate()
        proc.wait(timeout=20)
    return 100.0 * used / seconds


def cpu_seconds(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


CODEX_ID = "01a21293-b600-7f20-9a4e-3c2d1b0a9f88"
GEMINI_ID = "5f2c9a10-3b4d-4e6f-8a7b-1c2d3e4f5a6b"


def codex_history(home, rollouts):
    """`rollouts` rollouts over the 3 years up to 2026-11-25, none of CODEX_ID."""
    days = 3 * 365
    for n in range(rollouts):
        day = time.gmtime(time.mktime((2026, 11, 25, 12, 0, 0, 0, 0, 0)) - (n % days) * 86400)
        folder = os.path.join(home, "sessions", time.strftime("%Y/%m/%d", day))
        os.makedirs(folder, exist_ok=True)
        name = "rollout-%s-%08x-0000-7000-8000-%012x.jsonl" % (
            time.strftime("%Y-%m-%dT12-00-00", day), n, n)
        open(os.path.join(folder, name), "w").close()


def gemini_history(home, projects):
    """`projects` other projects' folders in Gemini's tmp, each with its .project_root."""
    for n in range(projects):
        folder = os.path.join(home, ".gemini", "tmp", "project-%d" % n)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, ".project_root"), "w") as f:
            f.write("/elsewhere/project-%d" % n)


def waiting(wrapper, seconds, agent, size, extra):
    with tempfile.TemporaryDirectory() as tmp:
        home = os.path.join(tmp, "home")
        work = os.path.join(tmp, "work")
        os.makedirs(work)
        env = dict(os.environ, HOME=home, CODEX_HOME=os.path.join(home, ".codex"))
        env.pop("GEMINI_CLI_HOME", None)
        cli = os.path.join(tmp, agent)
        with open(cli, "w") as f:
            if agent == "codex":  # codex exec --json, --ephemeral: an id, never a rollout
                codex_history(env["CODEX_HOME"], size)
                f.write("#!/bin/sh\necho '{\"type\":\"thread.started\",\"thread_id\":\"%s\"}'\n"
                        "exec sleep %d\n" % (CODEX_ID, seconds + 5))
                command = [cli, "exec", "--json", "--ephemeral", "go"]
                options = []
            else:  # a session whose chat is not written yet
                gemini_history(home, size)
                f.write("#!/bin/sh\nexec sleep %d\n" % (seconds + 5))
                command = [cli, "-p", "go"]
                options = ["--session-id", GEMINI_ID]
        os.chmod(cli, 0o755)
        proc = subprocess.Popen(
            [wrapper, "--quiet", "--agent", agent, "--completion-marker", MARKER, "--drain", "0",
             "--grace", "1"] + options + extra + ["--"] + command,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=work, env=env)
        wait_line(proc.stdout, b"FLEET_PID:", 10)
        time.sleep(1)  # past the start
        before = cpu_seconds(proc.pid)
        time.sleep(seconds)
        used = cpu_seconds(proc.pid) - before
        proc.terminate()
        proc.wait(timeout=20)
    return 60.0 * used / seconds


def main():
    wrapper, mode, amount = sys.argv[1], sys.argv[2], int(sys.argv[3])
    extra = ["--no-inotify"] if "--no-inotify" in sys.argv[4:] else []
    if mode == "latency":
        print("%.1f" % latency(wrapper, amount, extra))
    elif mode == "waiting":
        poll = sys.argv.index("--poll-ms") if "--poll-ms" in sys.argv else 0
        extra = ["--poll-ms", sys.argv[poll + 1]] if poll else []
        print("%.2f" % waiting(wrapper, amount, sys.argv[4], int(sys.argv[5]), extra))
    else:
        print("%.2f" % idle(wrapper, amount, extra))


if __name__ == "__main__":
    main()
