#!/usr/bin/env python3
"""A stdio pass-through between an agent and an MCP server that notes when
each JSON-RPC message crossed it, for bench/compare_gemini_cli_sessions.py.

usage: mcp_tap.py LOGFILE -- COMMAND [ARGS...]

The agent starts this script as its MCP server; it spawns COMMAND and copies
lines both ways unchanged. For every line it appends to LOGFILE
"<CLOCK_MONOTONIC ms> <to-server|to-agent> <method or id=N>", after a first
"<ms> started tap" line once this script runs (the clock is
system-wide, so the benchmark compares it with its own time.monotonic()).
The answer to `tools/list` reaching the agent is when its tool list is ready.
It adds a Python process and one pipe hop to both agents alike; the benchmark
samples its memory apart from the agent's and the server's.
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time


def describe(line):
    try:
        msg = json.loads(line)
    except ValueError:
        return "non-json"
    if "method" in msg:
        return msg["method"] + (" id=%s" % msg["id"] if "id" in msg else "")
    return "id=%s" % msg.get("id")


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: mcp_tap.py LOGFILE -- COMMAND [ARGS...]")
    log = open(sys.argv[1], "a", buffering=1)
    log.write("%.3f started tap\n" % (time.monotonic() * 1000.0))
    lock = threading.Lock()
    child = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def note(direction, line):
        with lock:
            log.write("%.3f %s %s\n" % (time.monotonic() * 1000.0, direction, describe(line)))

    def to_server():
        for line in sys.stdin.buffer:
            note("to-server", line)
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except OSError:
                break
        try:
            child.stdin.close()
        except OSError:
            pass

    def stop(signum, _frame):
        child.terminate()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    threading.Thread(target=to_server, daemon=True).start()
    out = sys.stdout.buffer
    for line in child.stdout:
        out.write(line)
        out.flush()
        note("to-agent", line)
    sys.exit(child.wait())


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        os._exit(0)
