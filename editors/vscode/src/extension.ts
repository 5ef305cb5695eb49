// Entry point: wires the session, the chat view, the inline review, the
// documents, commands, the status bar and the output channel together.
import * as os from "node:os";
import * as vscode from "vscode";
import type * as acp from "@agentclientprotocol/sdk";
import { ChatView, type Attachment, type ViewMessage } from "./chatView";
import { currentText, readText, writeText } from "./documents";
import { ChangeGutter } from "./gutter";
import { launchOptions } from "./launch";
import { imageType, promptContent } from "./prompt";
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
  const gutter = new ChangeGutter(context.extensionUri);
  let view: ChatView;
  const setting = <T>(name: string, fallback: T) => vscode.workspace.getConfiguration("lathe").get<T>(name, fallback);

  const session = new LatheSession({
    launchOptions: () => launchOptions(folders(), (l) => output.appendLine(l)),
    readText, currentText,
    writeText: async (p, content) => {
      if (await writeText(p, content)) await vscode.window.showTextDocument(vscode.Uri.file(p), { preview: false, preserveFocus: true });
    },
    folders,
    changed: (state) => {
      view.update(state);
      gutter.update(state.changes);
      status.text = state.busy ? "$(sync~spin) Lathe: working" : `$(hubot) Lathe: ${state.agentStatus}`;
    },
    showError: (m) => void vscode.window.showErrorMessage(m),
    // "lathe.followAgent": the file the agent reads or edits opens at the line, the chat keeping focus.
    follow: (p, line) => {
      if (!setting("followAgent", false)) return;
      const at = line ? new vscode.Range(line - 1, 0, line - 1, 0) : undefined;
      void vscode.window.showTextDocument(vscode.Uri.file(p), { preserveFocus: true, preview: true, selection: at })
        .then(undefined, () => undefined); // a file about to be created is not there yet
    },
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
  const attachImage = async (uri: vscode.Uri, label: string, mimeType: string) => {
    const bytes = await vscode.workspace.fs.readFile(uri);
    attach({ label, uri: uri.toString(), image: { mimeType, data: Buffer.from(bytes).toString("base64") } });
  };
  const pickFiles = async () => {
    const files = await vscode.workspace.findFiles("**/*", "**/{node_modules,.git,build}/**", 2000);
    const items = [{ label: "$(selection) Current selection", uri: undefined as vscode.Uri | undefined },
      { label: "$(file-media) An image from anywhere…", uri: undefined as vscode.Uri | undefined },
      ...files.map((u) => ({ label: vscode.workspace.asRelativePath(u), uri: u as vscode.Uri | undefined }))];
    const pick = await vscode.window.showQuickPick(items, { placeHolder: "Attach a file, an image or the selection" });
    if (!pick) return;
    let uri = pick.uri;
    if (pick === items[1]) {
      const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { Images: ["png", "jpg", "jpeg", "gif", "webp"] } });
      uri = chosen?.[0];
      if (!uri) return;
    }
    if (!uri) return addSelection();
    const label = vscode.workspace.asRelativePath(uri);
    const mime = imageType(uri.path);
    if (mime) await attachImage(uri, label, mime);
    else attach({ label, uri: uri.toString() });
  };
  const send = (text: string) => {
    const content = promptContent(text, view.attachments, session.promptCapabilities);
    view.attachments = [];
    if (content.refused.length) {
      void vscode.window.showWarningMessage(`Lathe does not accept images; not sent: ${content.refused.join(", ")}`);
    }
    void session.prompt(content.blocks, text, content.images);
  };
  const pickSession = async () => {
    if (!session.state.canListSessions) { void vscode.window.showInformationMessage("This Lathe cannot list past sessions."); return; }
    try {
      await session.listSessions();
    } catch (e) {
      session.error(`Could not list past sessions: ${(e as Error).message}`);
      return;
    }
    const items = (session.state.sessions ?? []).map((x) => ({ label: x.title ?? x.sessionId, description: x.sessionId, id: x.sessionId }));
    if (!items.length) { void vscode.window.showInformationMessage("No past Lathe sessions in this folder."); return; }
    const pick = await vscode.window.showQuickPick(items, { placeHolder: "Reopen a past session" });
    if (pick) await session.loadSession(pick.id);
  };
  const pickModel = async () => {
    const models = session.state.models;
    if (!models) { void vscode.window.showInformationMessage("Lathe offers no model choice in this session."); return; }
    const pick = await vscode.window.showQuickPick(models.options.map((m) => ({ label: m.name, description: m.value === models.current ? "current" : "", value: m.value })));
    if (pick) await session.setModel(pick.value);
  };

  const toggleFollow = () => vscode.workspace.getConfiguration("lathe").update("followAgent", !setting("followAgent", false), vscode.ConfigurationTarget.Global);

  const onMessage = (m: ViewMessage) => {
    switch (m.type) {
      case "send": send(m.text); break;
      case "stop": void session.cancel(); break;
      case "permission": session.broker.answer(m.requestId, m.optionId); break;
      case "mode": void session.setMode(m.id); break;
      case "model": void session.setModel(m.value); break;
      case "newSession": void session.newSession(); break;
      case "hunk": void session.resolveHunk(m.path, m.hunk, m.keep); break;
      case "open": void vscode.window.showTextDocument(vscode.Uri.file(m.path), m.line ? { selection: new vscode.Range(m.line - 1, 0, m.line - 1, 0) } : {}); break;
      case "sideBySide": void review.sideBySide(m.path); break;
      case "attach": void pickFiles(); break;
      case "listSessions": void pickSession(); break; // the picker, in view however long the chat
      case "follow": void toggleFollow(); break;
      case "detach": view.attachments.splice(m.index, 1); view.update(session.state); break;
      case "image": attach({ label: m.name, image: { mimeType: m.mimeType, data: m.data } }); break;
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
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.scheme === "file") void session.documentChanged(e.document.uri.fsPath, e.document.getText());
    }),
    vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => { review.decorate(e); gutter.decorate(e); })),
    gutter,
    vscode.commands.registerCommand("lathe.openChat", () => vscode.commands.executeCommand("lathe.chat.focus")),
    vscode.commands.registerCommand("lathe.newSession", () => session.newSession()),
    vscode.commands.registerCommand("lathe.sessions", pickSession),
    vscode.commands.registerCommand("lathe.changeModel", pickModel),
    vscode.commands.registerCommand("lathe.attach", pickFiles),
    vscode.commands.registerCommand("lathe.toggleFollow", toggleFollow),
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
      if (e.affectsConfiguration("lathe.followAgent")) { session.state.follow = setting("followAgent", false); view.update(session.state); }
      const restart = ["path", "args", "env", "traceProtocol"].some((k) => e.affectsConfiguration(`lathe.${k}`));
      if (restart) { session.dispose(); void session.start(); }
    }),
    { dispose: () => session.dispose() },
  );
  session.state.follow = setting("followAgent", false);
  void session.start();
}

export function deactivate(): void {}
