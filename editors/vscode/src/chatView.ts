// The chat view in the side bar: a webview that renders ChatState and sends
// back what the person does. All decisions are the agent's or the person's.
import * as vscode from "vscode";
import type { ChatState, HunkView } from "./chatState";

export type ViewMessage =
  | { type: "ready" }
  | { type: "send"; text: string }
  | { type: "steer"; text: string }
  | { type: "unqueue"; id: string }
  | { type: "stop" }
  | { type: "permission"; requestId: string; optionId: string }
  | { type: "stopChild"; sessionId: string }
  | { type: "mode"; id: string }
  | { type: "model"; value: string }
  | { type: "effort"; value: string }
  | { type: "question"; id: string; action: "accept" | "decline" | "cancel"; values?: Record<string, string | string[] | boolean> }
  | { type: "newSession" }
  | { type: "hunk"; path: string; hunk: HunkView; keep: boolean }
  | { type: "open"; path: string; line?: number }
  | { type: "sideBySide"; path: string }
  | { type: "attach" }
  | { type: "listSessions" }
  | { type: "follow" }
  | { type: "detach"; index: number }
  | { type: "image"; name: string; mimeType: string; data: string };

export interface Attachment {
  label: string;
  /** The file, when there is one (a pasted image has none). */
  uri?: string;
  text?: string;
  range?: string;
  /** An image: its MIME type and base64 bytes. */
  image?: { mimeType: string; data: string };
}

export class ChatView implements vscode.WebviewViewProvider {
  static readonly id = "lathe.chat";
  private view?: vscode.WebviewView;
  private state?: ChatState;
  attachments: Attachment[] = [];

  constructor(private extensionUri: vscode.Uri, private onMessage: (m: ViewMessage) => void) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = this.html(view.webview, media);
    view.webview.onDidReceiveMessage((m: ViewMessage) => {
      if (m.type === "ready") this.post();
      else this.onMessage(m);
    });
  }

  update(state: ChatState): void {
    this.state = state;
    this.post();
  }

  private post(): void {
    if (this.view && this.state) void this.view.webview.postMessage({ type: "state", state: this.state, attachments: this.attachments.map((a) => a.label) });
  }

  private html(webview: vscode.Webview, media: vscode.Uri): string {
    const nonce = Math.random().toString(36).slice(2) + Date.now().toString(36);
    const script = webview.asWebviewUri(vscode.Uri.joinPath(media, "webview.js"));
    const style = webview.asWebviewUri(vscode.Uri.joinPath(media, "chat.css"));
    return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; img-src ${webview.cspSource} data:; script-src 'nonce-${nonce}';">
<link rel="stylesheet" href="${style}"></head>
<body><div id="toolbar"></div><div id="plan"></div><div id="log"></div><div id="changes"></div>
<div id="composer"><div id="attachments"></div>
<textarea id="prompt" rows="3" placeholder="Ask Lathe… (Enter sends, Shift+Enter newline, @ attaches, paste an image)"></textarea>
<div id="completions"></div>
<div id="actions"><span id="usage"></span><button id="attach" title="Attach a file, an image or the selection">Attach</button><button id="stop" title="Stop (cancel the turn and the prompts queued behind it)">Stop</button><button id="steer" hidden title="Add this to the running turn: the agent reads it at its next step">Steer</button><button id="send">Send</button></div></div>
<script nonce="${nonce}" src="${script}"></script></body></html>`;
  }
}
