// Entry point: wires the session, the chat view, the inline review, the
// documents, commands, the status bar and the output channel together.
import * as os from "node:os";
import * as vscode from "vscode";
import type * as acp from "@agentclientprotocol/sdk";
import { ChatView, type Attachment, type ViewMessage } from "./chatView";
import { currentText, readText, writeText } from "./documents";
import { launchOptions } from "./launch";
import { InlineReview, PROPOSED_SCHEME } from "./review";
import { LatheSession } from "./session";

const ACCEPT: acp.PermissionOptionKind[] = ["allow_once", "allow_always"];
const REJECT: acp.PermissionOptionKind[] = ["reject_once", "reject_always"];

function folders(): string[] {
  const list = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  return list.length ? list : [os.homedir()];
}

export function activate(context: vscode.ExtensionContext): void {
  const output = vscode.window.createOutputChannel("Lathe");
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 100);
  status.command = "lathe.openChat";
  status.show();
  const review = new InlineReview();
  let view: ChatView;

  const session = new LatheSession({
    launchOptions: () => launchOptions(folders(), (l) => output.appendLine(l), context.extensionPath),
    readText, currentText,
    writeText: async (p, content) => {
      if (await writeText(p, content)) await vscode.window.showTextDocument(vscode.Uri.file(p), { preview: false, preserveFocus: true });
    },
    folders,
    changed: (state) => {
      view.update(state);
      status.text = state.busy ? "$(sync~spin) Lathe: working" : `$(hubot) Lathe: ${state.agentStatus}`;
    },
    showError: (m) => void vscode.window.showErrorMessage(m),
  });

  // Edits open inline for review; any other permission waits in its card.
  const showRequest = session.broker.onRequest;
  session.broker.onRequest = (id, request) => {
    showRequest(id, request);
    for (const c of request.toolCall.content ?? []) {
      if (c.type === "diff") void review.show(id, c.path, c.oldText ?? null, c.newText);
    }
  };
  const settled = session.broker.onSettled;
  session.broker.onSettled = (id, request, optionId) => { review.clear(id); settled(id, request, optionId); };

  const attach = (a: Attachment) => { view.attachments.push(a); view.update(session.state); };
  const addSelection = () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return;
    const sel = editor.selection;
    const name = editor.document.uri.path.split("/").pop();
    if (sel.isEmpty) attach({ label: name ?? "file", uri: editor.document.uri.toString() });
    else attach({ label: `${name}:${sel.start.line + 1}-${sel.end.line + 1}`, uri: editor.document.uri.toString(), text: editor.document.getText(sel), range: `${sel.start.line + 1}-${sel.end.line + 1}` });
  };
  const pickFiles = async () => {
    const files = await vscode.workspace.findFiles("**/*", "**/{node_modules,.git,build}/**", 2000);
    const items = [{ label: "$(selection) Current selection", uri: undefined as vscode.Uri | undefined },
      ...files.map((u) => ({ label: vscode.workspace.asRelativePath(u), uri: u as vscode.Uri | undefined }))];
    const pick = await vscode.window.showQuickPick(items, { placeHolder: "Attach a file or the selection" });
    if (!pick) return;
    if (!pick.uri) addSelection();
    else attach({ label: pick.label, uri: pick.uri.toString() });
  };
  const promptBlocks = (text: string): acp.ContentBlock[] => {
    const embedded = session.promptCapabilities?.embeddedContext === true;
    const blocks: acp.ContentBlock[] = [{ type: "text", text }];
    for (const a of view.attachments) {
      if (a.text !== undefined && embedded) blocks.push({ type: "resource", resource: { uri: `${a.uri}#L${a.range}`, text: a.text } });
      else blocks.push({ type: "resource_link", uri: a.uri, name: a.label });
    }
    view.attachments = [];
    return blocks;
  };

  const onMessage = (m: ViewMessage) => {
    switch (m.type) {
      case "send": void session.prompt(promptBlocks(m.text), m.text); break;
      case "stop": void session.cancel(); break;
      case "permission": session.broker.answer(m.requestId, m.optionId); break;
      case "mode": void session.setMode(m.id); break;
      case "model": void session.setModel(m.value); break;
      case "newSession": void session.newSession(); break;
      case "hunk": void session.resolveHunk(m.path, m.index, m.keep); break;
      case "open": void vscode.window.showTextDocument(vscode.Uri.file(m.path), m.line ? { selection: new vscode.Range(m.line - 1, 0, m.line - 1, 0) } : {}); break;
      case "sideBySide": void review.sideBySide(m.path); break;
      case "attach": void pickFiles(); break;
      case "listSessions": void session.listSessions(); break;
      case "loadSession": void session.loadSession(m.sessionId); break;
      case "detach": view.attachments.splice(m.index, 1); view.update(session.state); break;
      default: break;
    }
  };
  view = new ChatView(context.extensionUri, onMessage);

  const answerActive = (id: unknown, kinds: acp.PermissionOptionKind[]) => {
    const permission = typeof id === "string" ? id : review.activePermission();
    if (permission) session.broker.answerKind(permission, kinds);
  };
  context.subscriptions.push(
    output, status,
    vscode.window.registerWebviewViewProvider(ChatView.id, view, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.languages.registerCodeLensProvider({ scheme: "file" }, review),
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, review),
    vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => review.decorate(e))),
    vscode.commands.registerCommand("lathe.openChat", () => vscode.commands.executeCommand("lathe.chat.focus")),
    vscode.commands.registerCommand("lathe.newSession", () => session.newSession()),
    vscode.commands.registerCommand("lathe.cancel", () => session.cancel()),
    vscode.commands.registerCommand("lathe.changeMode", async () => {
      const modes = session.state.modes;
      if (!modes) { void vscode.window.showInformationMessage("Lathe offers no modes in this session."); return; }
      const pick = await vscode.window.showQuickPick(modes.available.map((m) => ({ label: m.name, description: m.description ?? "", id: m.id })));
      if (pick) await session.setMode(pick.id);
    }),
    vscode.commands.registerCommand("lathe.addSelection", () => { addSelection(); return vscode.commands.executeCommand("lathe.chat.focus"); }),
    vscode.commands.registerCommand("lathe.acceptEdit", (id?: string) => answerActive(id, ACCEPT)),
    vscode.commands.registerCommand("lathe.rejectEdit", (id?: string) => answerActive(id, REJECT)),
    vscode.commands.registerCommand("lathe.showSideBySide", (p?: string) => {
      const target = p ?? vscode.window.activeTextEditor?.document.uri.fsPath;
      if (target) return review.sideBySide(target);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("lathe")) { session.dispose(); void session.start(); }
    }),
    { dispose: () => session.dispose() },
  );
  void session.start();
}

export function deactivate(): void {}
