#!/usr/bin/env python3
"""Lathe and Gemini CLI side by side on two ACP scenarios, against the same
fake Gemini server (build/tests/fake_gemini) on 127.0.0.1:

  mcp      the editor passes one stdio MCP server (--mcp-server: everything
           or tests/support/mcp_test_server.mjs), started through
           bench/mcp_tap.py, in session/new; the model calls its `echo` tool
           once, then answers "Done."; times from spawn to the initialize
           answer, from session/new to its answer, to the MCP server running,
           to its tools/list answered (tools ready) and to the end of the
           turn, and the prompt alone; peak RSS of the agent's processes and
           of the MCP server apart (sampled from /proc).
  history  one session of --turns prompts (each: read_file, then "Done.",
           four history entries per turn, so 50 turns leave 200 contents),
           and --extra-sessions more of one prompt each;
           the time of early turns (2-6), of turns 26-30 (about 100 messages
           of history) and of the last 5; then the agent is ended
           and a fresh process lists the sessions (session/list; Gemini CLI
           0.61 answers -32601) and loads the long one it recorded itself
           (session/load): time to the answer and to the last replayed
           session/update, the replay's size, the session's size on disk.

Each run gets a fresh HOME/GEMINI_CLI_HOME/XDG_STATE_HOME and workspace, the
settings acp_turn_bench uses, GEMINI_CLI_TRUST_WORKSPACE=true (without it Gemini
CLI refuses stdio MCP servers: the folder is not trusted), and GOOGLE_GEMINI_BASE_URL pointed at its own
fake server. Nothing is built here; the binaries must exist.

usage: compare_gemini_cli_sessions.py [--build DIR] [--iterations N] [--turns N]
                                      [--extra-sessions N] [--scenario mcp|history|all]
                                      [--mcp-server everything|test] [--skip-lathe] [--skip-gemini]
                                      [--unset-env NAME]...
"""
import argparse
import json
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEMINI_JS = os.path.join(ROOT, ".deps/gemini-cli/node_modules/@google/gemini-cli/bundle/gemini.js")
EVERYTHING = os.path.join(ROOT, ".deps/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
TEST_SERVER = os.path.join(ROOT, "tests/support/mcp_test_server.mjs")
TAP = os.path.join(ROOT, "bench/mcp_tap.py")
SETTINGS = {"privacy": {"usageStatisticsEnabled": False},
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "general": {"disableAutoUpdate": True}}


class Fail(Exception):
    pass


def now_ms():
    return time.monotonic() * 1000.0


class FakeModel:
    """build/tests/fake_gemini in auto mode, optionally with a script first."""

    def __init__(self, build, auto_path, replay=None):
        argv = [os.path.join(build, "tests/fake_gemini"), "--auto", auto_path]
        if replay:
            argv += ["--replay", replay]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().split()
        if len(line) != 2 or line[0] != "PORT":
            raise Fail("fake_gemini did not start: " + self.proc.stderr.read())
        self.url = "http://127.0.0.1:" + line[1]

    def stop(self):
        _, err = self.proc.communicate(timeout=10)
        requests = sum(1 for l in err.splitlines() if " for model " in l)
        if "violation:" in err:
            raise Fail("fake_gemini saw history violations:\n" + err)
        return requests


class Agent:
    """An ACP agent on pipes; a reader thread timestamps every message."""

    def __init__(self, argv, cwd, env):
        self.start = now_ms()
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, start_new_session=True)
        self.inbox = queue.Queue()
        self.next_id = 0
        self.err = []
        self.update_bytes = 0  # session/update lines received, counted by the reader
        self.update_count = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.err.extend(self.proc.stderr), daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("method") == "session/update":
                self.update_bytes += len(line)
                self.update_count += 1
            self.inbox.put((now_ms(), msg))
        self.inbox.put((now_ms(), None))

    def send(self, obj):
        self.proc.stdin.write((json.dumps(obj) + "\n").encode())
        self.proc.stdin.flush()

    def call(self, method, params, timeout=120, on_update=None):
        """Sends a request; answers permission requests with allow_once; returns (time, result)."""
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            try:
                t, msg = self.inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise Fail("%s: no answer in %ds" % (method, timeout))
            if msg is None:
                raise Fail("%s: agent exited\n%s" % (method, self.stderr_tail()))
            if msg.get("id") == rid and "method" not in msg:
                if "error" in msg:
                    raise Fail("%s: %s" % (method, json.dumps(msg["error"])))
                return t, msg.get("result")
            self._handle(t, msg, on_update)

    def _handle(self, t, msg, on_update):
        if msg.get("method") == "session/update" and on_update:
            on_update(t, msg["params"]["update"])
        elif msg.get("method") == "session/request_permission":
            options = msg["params"]["options"]
            pick = next((o for o in options if o.get("kind") == "allow_once"), options[0])
            self.send({"jsonrpc": "2.0", "id": msg["id"],
                       "result": {"outcome": {"outcome": "selected", "optionId": pick["optionId"]}}})
        elif "method" in msg and "id" in msg:
            self.send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "not supported"}})

    def drain(self, quiet_s, on_update):
        """Handles messages until none arrives for quiet_s; returns the last message's time."""
        last = None
        while True:
            try:
                t, msg = self.inbox.get(timeout=quiet_s)
            except queue.Empty:
                return last
            if msg is None:
                return last
            last = t
            self._handle(t, msg, on_update)

    def stderr_tail(self):
        return b"".join(self.err).decode(errors="replace")[-1500:]

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        # Gemini CLI's re-launched child outlives its parent while an MCP
        # server is attached (seen with 0.61): end what is left of the
        # agent's process group (its own session, started here).
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except OSError:
            pass


def sandbox():
    root = tempfile.mkdtemp(prefix="acp-cmp-")
    os.makedirs(os.path.join(root, "ws"))
    os.makedirs(os.path.join(root, "home/.gemini"))
    with open(os.path.join(root, "ws/hello.txt"), "w") as f:
        f.write("Hello from the benchmark workspace.\nSecond line.\n")
    with open(os.path.join(root, "home/.gemini/settings.json"), "w") as f:
        json.dump(SETTINGS, f)
    return root


UNSET_ENV = set()  # --unset-env: names left out of the agents' environment


def agent_env(root, url):
    env = {k: v for k, v in os.environ.items()
           if k not in ("GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA")
           and k not in UNSET_ENV}
    home = os.path.join(root, "home")
    env.update({"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "dummy", "GEMINI_MODEL": "gemini-2.5-flash",
                "HOME": home, "GEMINI_CLI_HOME": home, "XDG_STATE_HOME": os.path.join(root, "state"),
                "NO_COLOR": "1",
                # Gemini CLI refuses stdio MCP servers in an untrusted folder.
                "GEMINI_CLI_TRUST_WORKSPACE": "true"})
    return env


def handshake(agent):
    t, _ = agent.call("initialize", {"protocolVersion": 1,
                                     "clientCapabilities": {"fs": {"readTextFile": False, "writeTextFile": False}}})
    return t


# ------------------------------------------------------------ memory sampler

class TreeSampler:
    """Samples /proc every 20 ms for the agent and all its descendants,
    found by parent pid (an MCP server may sit in its own process group).
    Each process is put in one class by its command line: the MCP server,
    the mcp_tap.py pass-through (not counted) or the agent (everything else,
    so Gemini CLI's re-launched child counts as agent). Per class it keeps
    the largest VmHWM of one process and the peak of the summed VmRSS."""

    def __init__(self, root_pid, interval=0.02):
        self.root = root_pid
        self.interval = interval
        self.classes = {}
        self.hwm = {}
        self.tree_peak = {}
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    @staticmethod
    def _read(path):
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def _classify(self, pid):
        cmd = self._read("/proc/%d/cmdline" % pid)
        if cmd is None:
            return None
        cmd = cmd.replace(b"\0", b" ").decode(errors="replace")
        if "mcp_tap.py" in cmd:
            return "tap"
        if "server-everything" in cmd or "mcp_test_server" in cmd:
            return "mcp"
        return "agent"

    def _sample(self):
        parents = {}
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            stat = self._read("/proc/%s/stat" % name)
            if stat:
                parents.setdefault(int(stat[stat.rfind(b")") + 2:].split()[1]), []).append(int(name))
        todo, tree = [self.root], []
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo.extend(parents.get(pid, []))
        sums = {}
        for pid in tree:
            status = self._read("/proc/%d/status" % pid)
            if not status:
                continue
            fields = dict(l.split(b":", 1) for l in status.splitlines() if b":" in l)
            if b"VmHWM" not in fields:
                continue  # a zombie
            if pid not in self.classes:
                self.classes[pid] = self._classify(pid)
            kind = self.classes[pid]
            if kind is None:
                continue
            hwm = int(fields[b"VmHWM"].split()[0]) / 1024.0
            self.hwm[pid] = max(self.hwm.get(pid, 0.0), hwm)
            sums[kind] = sums.get(kind, 0.0) + int(fields[b"VmRSS"].split()[0]) / 1024.0
        for kind, total in sums.items():
            self.tree_peak[kind] = max(self.tree_peak.get(kind, 0.0), total)

    def _loop(self):
        while not self.stopped.is_set():
            self._sample()
            self.stopped.wait(self.interval)

    def stop(self):
        self.stopped.set()
        self.thread.join()

    def peak(self, kind):
        """(largest one process, peak of the class's sum) in MB, or (None, None)."""
        vals = [self.hwm[p] for p, k in self.classes.items() if k == kind and p in self.hwm]
        return (max(vals) if vals else None, self.tree_peak.get(kind))


def tap_times(path):
    """From an mcp_tap.py log: (the tap started, first message to the server,
    the answer to the last tools/list sent before the first tools/call),
    CLOCK_MONOTONIC ms."""
    started, first, pending, ready = None, None, set(), None
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return None, None, None
    for line in lines:
        t, direction, what = line.split(" ", 2)
        t = float(t)
        if direction == "started":
            started = t if started is None else started
        elif direction == "to-server":
            first = t if first is None else first
            if what.startswith("tools/call"):
                break
            if what.startswith("tools/list "):
                pending.add(what.split("id=")[-1])
        elif what.startswith("id=") and what[3:] in pending:
            ready = t
    return started, first, ready


# ---------------------------------------------------------------- mcp scenario

MCP_SERVERS = {  # name: (script, tool, arguments)
    "everything": (EVERYTHING, "echo", {"message": "bench"}),
    "test": (TEST_SERVER, "echo", {"text": "bench"}),
}


def mcp_run(build, kind, argv, root, server):
    ws = os.path.join(root, "ws")
    script, tool, tool_args = MCP_SERVERS[server]
    name = "srv"
    tool = ("%s__%s" if kind == "lathe" else "mcp_%s_%s") % (name, tool)
    replay = os.path.join(root, "script.jsonl")
    call = {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": tool, "args": tool_args}}]}, "finishReason": "STOP"}]}
    with open(replay, "w") as f:
        f.write(json.dumps({"method": "generateContentStream", "response": [call]}) + "\n")
    tap_log = os.path.join(root, "tap.log")
    model = FakeModel(build, os.path.join(ws, "hello.txt"), replay)
    agent = Agent(argv, ws, agent_env(root, model.url))
    mem = TreeSampler(agent.proc.pid)
    try:
        init = handshake(agent) - agent.start
        sent = now_ms()
        servers = [{"name": name, "command": sys.executable,
                    "args": [TAP, tap_log, "--", shutil.which("node"), script], "env": []}]
        t_new, result = agent.call("session/new", {"cwd": ws, "mcpServers": servers})
        sid = result["sessionId"]
        calls = {}

        def on_update(t, u):
            if u.get("sessionUpdate") in ("tool_call", "tool_call_update"):
                calls.setdefault(u["toolCallId"], {}).update({k: u[k] for k in ("title", "status") if k in u})

        t_prompt = now_ms()
        t_end, result = agent.call("session/prompt", {"sessionId": sid, "prompt": [
            {"type": "text", "text": "Echo 'bench' with the MCP server."}]}, on_update=on_update)
        if result.get("stopReason") != "end_turn":
            raise Fail("turn ended with %s" % result.get("stopReason"))
        done = [c for c in calls.values() if c.get("status") == "completed"]
        if len(done) != 1:
            raise Fail("expected one completed MCP tool call, saw %s\n%s" % (calls, agent.stderr_tail()))
        mem.stop()
        started, first, ready = tap_times(tap_log)
        if ready is None:
            raise Fail("the tap saw no tools/list answer before the call")
        agent_one, agent_tree = mem.peak("agent")
        mcp_one, _ = mem.peak("mcp")
        return {"initialize": init, "session_new": t_new - sent,
                "mcp_spawned": started - sent, "mcp_first_message": first - sent, "tools_ready": ready - sent,
                "prompt_to_turn_end": t_end - t_prompt, "new_to_turn_end": t_end - sent,
                "rss_agent": agent_one, "rss_agent_tree": agent_tree, "rss_mcp": mcp_one,
                "_tool title": done[0].get("title")}
    finally:
        mem.stop()
        agent.close()
        model.stop()


# ------------------------------------------------------------ history scenario

def history_run(build, kind, argv, root, turns, extra_sessions):
    ws = os.path.join(root, "ws")
    model = FakeModel(build, os.path.join(ws, "hello.txt"))
    env = agent_env(root, model.url)
    out = {}
    try:
        agent = Agent(argv, ws, env)
        try:
            handshake(agent)
            _, result = agent.call("session/new", {"cwd": ws, "mcpServers": []})
            sid = result["sessionId"]
            times = []
            for i in range(turns):
                t0 = now_ms()
                t1, result = agent.call("session/prompt", {"sessionId": sid, "prompt": [
                    {"type": "text", "text": "Turn %d: read hello.txt and tell me what it says." % (i + 1)}]})
                if result.get("stopReason") != "end_turn":
                    raise Fail("turn %d ended with %s" % (i + 1, result.get("stopReason")))
                times.append(t1 - t0)
            first = times[1:6] if len(times) > 6 else times[:5]
            out["turn_first5"] = statistics.median(first)
            if len(times) >= 33:  # about 100 messages of history before these turns
                out["turn_at_100"] = statistics.median(times[25:30])
            out["turn_last5"] = statistics.median(times[-5:])
            # More sessions of one turn each, so session/list has some to list.
            for i in range(extra_sessions):
                _, other = agent.call("session/new", {"cwd": ws, "mcpServers": []})
                agent.call("session/prompt", {"sessionId": other["sessionId"], "prompt": [
                    {"type": "text", "text": "Session %d: read hello.txt." % (i + 2)}]})
        finally:
            agent.close()
        files = [f for f in session_files(root) if sid in f[0] or sid[:8] in os.path.basename(f[0])]
        out["session_file_kb"] = sum(size for _, size in files) / 1024.0
        out["_session files"] = ", ".join(sorted({os.path.relpath(os.path.dirname(p), root) for p, _ in files}))
        # Gemini CLI 0.61 clobbers a session that a new process loads within
        # the minute its file name carries (research §7.1): wait it out.
        if kind == "gemini":
            time.sleep(61 - time.gmtime().tm_sec)
        agent = Agent(argv, ws, env)
        mem = TreeSampler(agent.proc.pid)
        try:
            handshake(agent)
            sent = now_ms()
            try:
                t_list, listed = agent.call("session/list", {"cwd": ws})
                out["list_answer"] = t_list - sent
                out["_session/list"] = "%d session(s)" % len(listed.get("sessions", []))
            except Fail as e:
                out["_session/list"] = str(e)
            counts = {}

            def on_update(t, u):
                counts[u.get("sessionUpdate")] = counts.get(u.get("sessionUpdate"), 0) + 1

            agent.update_bytes = agent.update_count = 0
            sent = now_ms()
            t_answer, _ = agent.call("session/load", {"sessionId": sid, "cwd": ws, "mcpServers": []},
                                     on_update=on_update)
            before = sum(counts.values())
            t_last = agent.drain(1.0, on_update)
            out["load_answer"] = t_answer - sent
            out["load_last_update"] = max(t_answer, t_last or 0) - sent
            out["replay_kb"] = agent.update_bytes / 1024.0
            out["replay_updates"] = float(agent.update_count)
            mem.stop()
            out["rss_load"] = mem.peak("agent")[0]
            out["rss_load_tree"] = mem.peak("agent")[1]
            out["_updates"] = "%d before the answer, %d in all: %s" % (
                before, sum(counts.values()), ", ".join("%s %d" % kv for kv in sorted(counts.items())))
        finally:
            mem.stop()
            agent.close()
    finally:
        model.stop()
    return out


def session_files(root):
    """(path, bytes) of every file the agents keep under the run's HOME and
    state directory, but settings and logs: the recorded session."""
    found = []
    for base in ("home", "state"):
        for d, _, names in os.walk(os.path.join(root, base)):
            for n in names:
                path = os.path.join(d, n)
                if n.endswith(".jsonl") or (n.endswith(".json") and "session" in path and n != "settings.json"):
                    found.append((path, os.path.getsize(path)))
    return found


def run(kind, argv, args, scenario):
    samples = []
    for i in range(args.warmup + args.iterations if scenario == "mcp" else args.iterations):
        root = sandbox()
        try:
            s = mcp_run(args.build, kind, argv, root, args.mcp_server) if scenario == "mcp" else \
                history_run(args.build, kind, argv, root, args.turns, args.extra_sessions)
        except Fail as e:
            print("%s %s run %d failed: %s" % (kind, scenario, i + 1, e), file=sys.stderr)
            continue
        finally:
            shutil.rmtree(root, ignore_errors=True)
        warm = scenario == "mcp" and i < args.warmup
        print("%s %s run %d%s: %s" % (kind, scenario, i + 1, " (warm-up)" if warm else "",
                                      ", ".join("%s %s" % (k, "%.1f" % v if isinstance(v, float) else v)
                                                for k, v in s.items() if v is not None)), file=sys.stderr)
        if not warm:
            samples.append(s)
    return samples


def table(title, rows, results):
    print("\n" + title)
    print("%-34s %24s %24s %12s" % ("median [min-max], ms", "lathe", "gemini-cli-0.61.0", "gemini/lathe"))
    for key, label in rows:
        cells, meds = [], []
        for kind in ("lathe", "gemini"):
            vals = [s[key] for s in results.get(kind, []) if s.get(key) is not None]
            if vals:
                meds.append(statistics.median(vals))
                cells.append("%.1f [%.1f-%.1f]" % (meds[-1], min(vals), max(vals)))
            else:
                meds.append(None)
                cells.append("-")
        ratio = "%.1fx" % (meds[1] / meds[0]) if None not in meds and meds[0] > 0 else "-"
        print("%-34s %24s %24s %12s" % (label, cells[0], cells[1], ratio))
    for kind in ("lathe", "gemini"):
        notes = sorted({"%s: %s" % (k[1:], s[k]) for s in results.get(kind, []) for k in s if k.startswith("_")})
        for n in notes:
            print("  %s %s" % (kind, n))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--iterations", type=int, default=5)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--turns", type=int, default=50)
    p.add_argument("--extra-sessions", type=int, default=20,
                   help="history: sessions of one turn recorded besides the long one, for session/list")
    p.add_argument("--scenario", choices=["mcp", "history", "all"], default="all")
    p.add_argument("--mcp-server", choices=sorted(MCP_SERVERS), default="everything")
    p.add_argument("--skip-lathe", action="store_true")
    p.add_argument("--skip-gemini", action="store_true")
    p.add_argument("--unset-env", action="append", default=[], metavar="NAME",
                   help="leave NAME out of the agents' environment (e.g. NODE_EXTRA_CA_CERTS, which costs every "
                        "Node process 70-110 ms at start on a machine with a large bundle); repeatable")
    args = p.parse_args()
    UNSET_ENV.update(args.unset_env)
    agents = []
    lathe = os.path.join(args.build, "server/lathe")
    if not args.skip_lathe:
        if not os.access(lathe, os.X_OK):
            sys.exit("compare_gemini_cli_sessions: %s is not built" % lathe)
        agents.append(("lathe", [lathe, "--acp"]))
    if not args.skip_gemini:
        if not os.path.exists(GEMINI_JS):
            sys.exit("compare_gemini_cli_sessions: %s missing (bench/compare_gemini_cli.sh installs it)" % GEMINI_JS)
        agents.append(("gemini", ["node", GEMINI_JS, "--acp"]))
    if not os.path.exists(EVERYTHING):
        sys.exit("compare_gemini_cli_sessions: %s missing (scripts/setup.sh installs it)" % EVERYTHING)
    scenarios = ["mcp", "history"] if args.scenario == "all" else [args.scenario]
    for scenario in scenarios:
        results = {kind: run(kind, argv, args, scenario) for kind, argv in agents}
        if scenario == "mcp":
            table("mcp: %s MCP server passed in session/new, one echo call (%d runs)"
                  % (args.mcp_server, args.iterations), [
                ("initialize", "spawn -> initialize answered"),
                ("session_new", "session/new sent -> answered"),
                ("mcp_spawned", "session/new sent -> MCP tap running"),
                ("mcp_first_message", "session/new sent -> MCP initialize"),
                ("tools_ready", "session/new sent -> tools/list answered"),
                ("prompt_to_turn_end", "prompt -> end of the MCP turn"),
                ("new_to_turn_end", "session/new sent -> end of turn"),
                ("rss_agent", "peak RSS agent, largest process MB"),
                ("rss_agent_tree", "peak RSS agent, process tree MB"),
                ("rss_mcp", "peak RSS MCP server MB"),
            ], results)
        else:
            table("history: %d turns in one session (+%d of one turn), then session/list and session/load"
                  " in a new process (%d runs)" % (args.turns, args.extra_sessions, args.iterations), [
                ("turn_first5", "turn (median of turns 2-6)"),
                ("turn_at_100", "turn (median of turns 26-30)"),
                ("turn_last5", "turn (median of the last 5)"),
                ("session_file_kb", "session on disk KB"),
                ("list_answer", "session/list answered"),
                ("load_answer", "session/load answered"),
                ("load_last_update", "session/load last replayed update"),
                ("replay_updates", "replayed session/updates"),
                ("replay_kb", "replayed session/updates KB"),
                ("rss_load", "peak RSS loading agent MB"),
                ("rss_load_tree", "peak RSS loading agent tree MB"),
            ], results)


if __name__ == "__main__":
    main()
