// Runs `lathe --acp` and connects the official ACP SDK to its stdio. No vscode
// import: the extension passes in how to log and how to answer client calls.
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
// The SDK's unstable build: the stable one refuses the sub-agent session
// updates (unstable in SDK 2.4.0) that Lathe sends once `subagents` is advertised.
import * as acp from "@agentclientprotocol/sdk/unstable";

export interface ClientHandlers {
  /** Updates of the session and of its sub-agents' child sessions. */
  update(params: acp.SessionNotification): void;
  /** `signal` aborts when Lathe withdraws the question ($/cancel_request). */
  permission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  elicit(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  elicitationComplete(params: acp.CompleteElicitationNotification): void;
  read(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  write(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
}

export interface LaunchOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  log(line: string): void;
  /** Logs every JSON-RPC line both ways when set. */
  trace: boolean;
}

function traced(stream: ReadableStream<Uint8Array>, log: (l: string) => void, prefix: string): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  return stream.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      log(prefix + decoder.decode(chunk, { stream: true }).trimEnd());
      controller.enqueue(chunk);
    },
  }));
}

/** A key or a gateway's headers given to `authenticate` stay out of the trace (the output channel is kept on disk). */
export function hideKeys(line: string): string {
  return line
    .replace(/("api-key"\s*:\s*)"(?:[^"\\]|\\.)*"/g, '$1"(hidden)"')
    .replace(/("headers"\s*:\s*)\{(?:[^{}"]|"(?:[^"\\]|\\.)*")*\}/g, '$1"(hidden)"');
}

function tracedWritable(target: WritableStream<Uint8Array>, log: (l: string) => void, prefix: string): WritableStream<Uint8Array> {
  const t = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      log(prefix + hideKeys(new TextDecoder().decode(chunk).trimEnd()));
      controller.enqueue(chunk);
    },
  });
  void t.readable.pipeTo(target).catch(() => {});
  return t.writable;
}

export class AgentProcess {
  readonly child: ChildProcess;
  readonly connection: acp.ClientConnection;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<string>;

  constructor(options: LaunchOptions, handlers: ClientHandlers) {
    this.child = spawn(options.command, ["--acp", ...options.args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => {
      this.child.on("error", (e) => resolve(`error: ${e.message}`));
      this.child.on("exit", (code, signal) => resolve(signal ?? String(code)));
    });
    this.child.stderr!.on("data", (d: Buffer) => options.log(d.toString().trimEnd()));
    let input = Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>;
    let output = Writable.toWeb(this.child.stdin!) as WritableStream<Uint8Array>;
    if (options.trace) {
      input = traced(input, options.log, "<- ");
      output = tracedWritable(output, options.log, "-> ");
    }
    this.child.stdin!.on("error", () => {}); // EPIPE when lathe dies; `exited` reports it.
    this.connection = acp.client()
      .onNotification("session/update", ({ params }) => handlers.update(params))
      .onRequest("session/request_permission", ({ params, signal }) => handlers.permission(params, signal))
      .onRequest("elicitation/create", ({ params, signal }) => handlers.elicit(params, signal))
      .onNotification("elicitation/complete", ({ params }) => handlers.elicitationComplete(params))
      .onRequest("fs/read_text_file", ({ params }) => handlers.read(params))
      .onRequest("fs/write_text_file", ({ params }) => handlers.write(params))
      .connect(acp.ndJsonStream(output, input));
  }

  get agent(): acp.ClientContext { return this.connection.agent; }

  initialize(): Promise<acp.InitializeResponse> {
    // Sub-agents are shown as child sessions, nested under the call that started them.
    return this.agent.request("initialize", {
      protocolVersion: acp.PROTOCOL_VERSION,
      // Questions as forms or links, notices and compactions are shown in the
      // chat; a sub-agent's child session nested under the call that started it;
      // a shell command's output live on its card (Zed's terminal-output extension).
      clientCapabilities: {
        fs: { readTextFile: true, writeTextFile: true },
        elicitation: { form: {}, url: {} },
        session: { notices: {}, compaction: {} },
        subagents: {},
        _meta: { terminal_output: true },
      },
      clientInfo: { name: "lathe-vscode", version: "0.1.0" },
    });
  }

  /** Ends the process this object started. */
  stop(): void {
    this.connection.close();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }
}
