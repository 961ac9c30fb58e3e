#!/usr/bin/env python3
"""Completion-watch benchmarks for bench/run.

Usage: watch_bench.py WRAPPER latency RUNS [--no-inotify]
       watch_bench.py WRAPPER idle SECONDS [--no-inotify]

latency: median milliseconds from an assistant record with the marker being written to the
         transcript to launch-wrapper reporting it on stderr.
idle:    CPU used by the wrapper (user + system) while it watches an unchanging transcript,
         as a percentage of one core.
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


def main():
    wrapper, mode, amount = sys.argv[1], sys.argv[2], int(sys.argv[3])
    extra = ["--no-inotify"] if "--no-inotify" in sys.argv[4:] else []
    if mode == "latency":
        print("%.1f" % latency(wrapper, amount, extra))
    else:
        print("%.2f" % idle(wrapper, amount, extra))


if __name__ == "__main__":
    main()
