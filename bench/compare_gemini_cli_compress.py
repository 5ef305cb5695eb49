#!/usr/bin/env python3
"""Lathe and Gemini CLI 0.61 compressing the same long history over ACP, seen
from the model's side.

Each run builds one session of --turns prompts (each: read_file of a ~4 KB
file, then "Done."). The model here is a small fake Gemini API in this
script that decides by content, not by a script, so the agents' own extra
calls (Lathe's session title, Gemini CLI's checks) cannot shift it:

  request whose systemInstruction asks for a <state_snapshot>  -> a fixed ~1 KB snapshot
  Lathe's session title request                                  -> "Bench session"
  other non-streamed request (e.g. a next-speaker check)         -> {"next_speaker":"user"}
  streamed request ending in a functionResponse                  -> "Done."
  other streamed request                                         -> read_file(the file)

Every request is recorded: action, body bytes, number of contents and the
bytes of its `contents` alone (compact JSON; the history the model is sent,
without system instruction and tool declarations); tokens are estimated as
bytes / 4, and the fake answers promptTokenCount with the body's. Then compression is triggered in one of two ways (--trigger):

  tokens   the last answer of the history reports promptTokenCount 600,000
           (over half of gemini-2.5-flash's 1,048,576-token window, both
           agents' default threshold), and one more prompt is sent: the agent
           compresses before its model call (automatic compression).
  command  the prompt "/compress" is sent (Lathe's on-demand compression),
           then one more prompt. Gemini CLI 0.61's ACP commands are memory,
           extensions, init, restore, about and help: there "/compress" goes
           to the model as an ordinary prompt, which this run shows.

Figures: the main request's size before compression (the history's last
request) and after it (the next prompt's first request), the compression
requests (count, bytes), and the time of the prompt that compressed against
a plain turn. The environment is the one bench/compare_gemini_cli_sessions.py
gives the agents. Nothing is built here.

usage: compare_gemini_cli_compress.py [--build DIR] [--iterations N] [--turns N]
                                      [--trigger tokens|command] [--skip-lathe] [--skip-gemini]
"""
import argparse
import http.server
import json
import os
import shutil
import statistics
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_gemini_cli_sessions import (GEMINI_JS, Agent, Fail, agent_env, handshake,  # noqa: E402
                                         now_ms, sandbox)

SNAPSHOT = ("<state_snapshot>\n<overall_goal>Read hello.txt repeatedly for a benchmark.</overall_goal>\n"
            "<key_knowledge>" + "hello.txt says hello from the benchmark workspace. " * 12 + "</key_knowledge>\n"
            "<file_system_state>CWD: the benchmark workspace; READ: hello.txt</file_system_state>\n"
            "<recent_actions>read_file hello.txt, many times</recent_actions>\n"
            "<task_state>done; waiting for the next prompt</task_state>\n</state_snapshot>")
INFLATED = 600000


class Model:
    """The fake Gemini API (one thread per request); records every request."""

    def __init__(self, read_path):
        self.read_path = read_path
        self.requests = []
        self.inflate_next = False
        self.lock = threading.Lock()
        model = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                action = self.path.split("?")[0].rsplit(":", 1)[-1]
                status, ctype, payload = model.answer(action, body)
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def mark(self):
        with self.lock:
            return len(self.requests)

    def since(self, index):
        with self.lock:
            return list(self.requests[index:])

    def answer(self, action, body):
        try:
            req = json.loads(body)
        except ValueError:
            return 400, "application/json", b'{"error":{"code":400,"message":"bad json"}}'
        if action == "countTokens":
            return 200, "application/json", json.dumps({"totalTokens": max(1, len(body) // 4)}).encode()
        system = json.dumps(req.get("systemInstruction", ""))
        contents = req.get("contents", [])
        last = contents[-1] if contents else {}
        if "state_snapshot" in system:
            kind, parts = "compress", [{"text": SNAPSHOT}]
        elif "You name conversations" in body.decode(errors="replace"):
            kind, parts = "title", [{"text": "Bench session"}]
        elif action != "streamGenerateContent":
            kind, parts = "check", [{"text": json.dumps({"reasoning": "bench", "next_speaker": "user"})}]
        elif any("functionResponse" in p for p in last.get("parts", [])):
            kind, parts = "main", [{"text": "Done."}]
        else:
            kind, parts = "main", [{"functionCall": {"name": "read_file", "args": {"file_path": self.read_path}}}]
        tokens = max(1, len(body) // 4)
        with self.lock:
            if kind == "main" and parts[0].get("text") == "Done." and self.inflate_next:
                self.inflate_next = False
                tokens = INFLATED
            self.requests.append({"t": now_ms(), "action": action, "kind": kind, "bytes": len(body),
                                  "contents": len(contents),
                                  "cbytes": len(json.dumps(contents, separators=(",", ":"))),
                                  "text": " ".join(p.get("text", "") for p in last.get("parts", []))[:60]})
        reply = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
                 "usageMetadata": {"promptTokenCount": tokens, "candidatesTokenCount": 5,
                                   "totalTokenCount": tokens + 5},
                 "modelVersion": "gemini-2.5-flash"}
        if action == "streamGenerateContent":
            return 200, "text/event-stream", ("data: " + json.dumps(reply) + "\r\n\r\n").encode()
        return 200, "application/json", json.dumps(reply).encode()


def prompt(agent, sid, text, notes=None):
    def on_update(_t, u):
        if notes is not None and u.get("sessionUpdate") == "agent_message_chunk":
            notes.append(u.get("content", {}).get("text", ""))

    t0 = now_ms()
    t1, result = agent.call("session/prompt", {"sessionId": sid, "prompt": [{"type": "text", "text": text}]},
                            on_update=on_update)
    if result.get("stopReason") != "end_turn":
        raise Fail("%r ended with %s" % (text, result.get("stopReason")))
    return t1 - t0


def run_once(kind, argv, root, turns, trigger):
    ws = os.path.join(root, "ws")
    path = os.path.join(ws, "notes.txt")
    with open(path, "w") as f:
        f.write("A line of notes for the compression benchmark, long enough to matter.\n" * 60)
    model = Model(path)
    agent = Agent(argv, ws, agent_env(root, model.url))
    out = {}
    try:
        handshake(agent)
        _, result = agent.call("session/new", {"cwd": ws, "mcpServers": []})
        sid = result["sessionId"]
        times = []
        for i in range(turns):
            if trigger == "tokens" and i == turns - 1:
                model.inflate_next = True
            times.append(prompt(agent, sid, "Turn %d: read notes.txt and tell me what it says." % (i + 1)))
        out["turn_plain"] = statistics.median(times[-6:-1])
        mains = [r for r in model.since(0) if r["kind"] == "main"]
        out["req_before_kb"] = mains[-1]["bytes"] / 1024.0
        out["req_before_contents"] = float(mains[-1]["contents"])
        out["hist_before_tokens"] = mains[-1]["cbytes"] / 4.0
        mark = model.mark()
        notes = []
        if trigger == "command":
            out["compress_cmd"] = prompt(agent, sid, "/compress", notes)
            out["_/compress answer"] = "".join(notes).strip()[:160] or "(no text)"
        after_mark = model.mark()
        out["turn_after"] = prompt(agent, sid, "Turn %d: read notes.txt and tell me what it says." % (turns + 1))
        seen = model.since(mark)
        squeeze = [r for r in seen if r["kind"] == "compress"]
        out["compress_requests"] = float(len(squeeze))
        out["compress_req_kb"] = sum(r["bytes"] for r in squeeze) / 1024.0
        first_main = next((r for r in model.since(after_mark) if r["kind"] == "main"), None)
        if first_main is None:
            raise Fail("no main request after compression")
        out["req_after_kb"] = first_main["bytes"] / 1024.0
        out["req_after_contents"] = float(first_main["contents"])
        out["hist_after_tokens"] = first_main["cbytes"] / 4.0
        out["_requests after the trigger"] = "; ".join(
            "%s %s %.1f KB %d contents%s" % (r["action"], r["kind"], r["bytes"] / 1024.0, r["contents"],
                                           (" last text %r" % r["text"]) if r["text"] else "") for r in seen[:6])
    finally:
        agent.close()
        model.stop()
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build"))
    p.add_argument("--iterations", type=int, default=3)
    p.add_argument("--turns", type=int, default=50)
    p.add_argument("--trigger", choices=["tokens", "command"], default="tokens")
    p.add_argument("--skip-lathe", action="store_true")
    p.add_argument("--skip-gemini", action="store_true")
    args = p.parse_args()
    agents = []
    if not args.skip_lathe:
        agents.append(("lathe", [os.path.join(args.build, "server/lathe"), "--acp"]))
    if not args.skip_gemini:
        if not os.path.exists(GEMINI_JS):
            sys.exit("compare_gemini_cli_compress: %s missing (bench/compare_gemini_cli.sh --install-only)" % GEMINI_JS)
        agents.append(("gemini", ["node", GEMINI_JS, "--acp"]))
    results = {}
    for kind, argv in agents:
        results[kind] = []
        for i in range(args.iterations):
            root = sandbox()
            try:
                s = run_once(kind, argv, root, args.turns, args.trigger)
            except Fail as e:
                print("%s run %d failed: %s" % (kind, i + 1, e), file=sys.stderr)
                continue
            finally:
                shutil.rmtree(root, ignore_errors=True)
            print("%s run %d: %s" % (kind, i + 1, ", ".join(
                "%s %s" % (k, "%.1f" % v if isinstance(v, float) else v) for k, v in s.items())), file=sys.stderr)
            results[kind].append(s)
    rows = [("turn_plain", "plain turn ms (median of 5 before)"),
            ("req_before_kb", "main request before, KB"),
            ("hist_before_tokens", "its contents, est. tokens"),
            ("req_before_contents", "main request before, contents"),
            ("compress_cmd", "/compress prompt ms"),
            ("turn_after", "prompt after the trigger ms"),
            ("compress_requests", "compression requests"),
            ("compress_req_kb", "compression requests, KB in all"),
            ("req_after_kb", "main request after, KB"),
            ("hist_after_tokens", "its contents, est. tokens"),
            ("req_after_contents", "main request after, contents")]
    print("\ncompression after %d turns, trigger: %s (%d runs; median [min-max])" % (args.turns, args.trigger,
                                                                                   args.iterations))
    print("%-38s %22s %22s" % ("", "lathe", "gemini-cli-0.61.0"))
    for key, label in rows:
        cells = []
        for kind in ("lathe", "gemini"):
            vals = [s[key] for s in results.get(kind, []) if key in s]
            cells.append("%.1f [%.1f-%.1f]" % (statistics.median(vals), min(vals), max(vals)) if vals else "-")
        print("%-38s %22s %22s" % (label, cells[0], cells[1]))
    for kind in ("lathe", "gemini"):
        for n in sorted({"%s: %s" % (k[1:], s[k]) for s in results.get(kind, []) for k in s if k.startswith("_")}):
            print("  %s %s" % (kind, n))


if __name__ == "__main__":
    main()
