// Entry point: wires the session, the chat view, the inline review, the
// documents, commands, the status bar and the output channel together.
import * as os from "node:os";
import * as vscode from "vscode";
import { ChatView, type Attachment, type ViewMessage } from "./chatView";
import { askLogin, Commands, setting } from "./commands";
import { currentText, readText, writeText } from "./documents";
import { ChangeGutter } from "./gutter";
import { launchOptions } from "./launch";
import { promptContent } from "./prompt";
import { InlineReview, PROPOSED_SCHEME } from "./review";
import { LatheSession } from "./session";

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
  let canLogout: boolean | undefined;

  const session = new LatheSession({
    launchOptions: () => launchOptions(folders(), (l) => output.appendLine(l), context.extensionPath),
    readText, currentText,
    writeText: async (p, content) => {
      if (await writeText(p, content)) await vscode.window.showTextDocument(vscode.Uri.file(p), { preview: false, preserveFocus: true });
    },
    folders,
    changed: (state) => {
      view.update(state);
      gutter.update(state.changes);
      status.text = state.busy ? "$(sync~spin) Lathe: working" : `$(hubot) Lathe: ${state.agentStatus}`;
      // "Lathe: Log out" is in the palette only when the agent advertises logout.
      if (canLogout !== !!state.canLogout) {
        canLogout = !!state.canLogout;
        void vscode.commands.executeCommand("setContext", "lathe.canLogout", canLogout);
      }
    },
    showError: (m) => void vscode.window.showErrorMessage(m),
    login: askLogin,
    openUrl: (u) => void vscode.env.openExternal(vscode.Uri.parse(u, true)),
    // "lathe.followAgent": the file the agent reads or edits opens at the line, the chat keeping focus.
    // Only files: a folder (list_directory, glob) or a file not written yet opens nothing.
    follow: (p, line) => {
      if (!setting("followAgent", false)) return;
      const uri = vscode.Uri.file(p);
      const at = line ? new vscode.Range(line - 1, 0, line - 1, 0) : undefined;
      void vscode.workspace.fs.stat(uri).then((st) => {
        if (st.type & vscode.FileType.File) return vscode.window.showTextDocument(uri, { preserveFocus: true, preview: true, selection: at });
      }).then(undefined, () => undefined);
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
  const commands = new Commands(session, review, attach);
  const send = (text: string) => {
    const content = promptContent(text, view.attachments, session.promptCapabilities);
    view.attachments = [];
    if (content.refused.length) {
      void vscode.window.showWarningMessage(`Lathe does not accept images; not sent: ${content.refused.join(", ")}`);
    }
    void session.prompt(content.blocks, text, content.images);
  };
  const onMessage = (m: ViewMessage) => {
    switch (m.type) {
      case "send": send(m.text); break;
      case "steer": void session.steer(m.text); break;
      case "unqueue": session.withdrawQueued(m.id); break;
      case "stop": void session.cancel(); break;
      case "permission": session.broker.answer(m.requestId, m.optionId); break;
      case "stopChild": void session.stopChild(m.sessionId); break;
      case "mode": void session.setMode(m.id); break;
      case "model": void session.setModel(m.value); break;
      case "effort": void session.setEffort(m.value); break;
      case "question": session.answerQuestion(m.id, m.action, m.values); break;
      case "newSession": void session.newSession(); break;
      case "hunk": void session.resolveHunk(m.path, m.hunk, m.keep); break;
      case "open": void vscode.window.showTextDocument(vscode.Uri.file(m.path), m.line ? { selection: new vscode.Range(m.line - 1, 0, m.line - 1, 0) } : {}); break;
      case "sideBySide": void review.sideBySide(m.path); break;
      case "attach": void commands.pickFiles(); break;
      case "listSessions": void commands.pickSession(); break; // the picker, in view however long the chat
      case "follow": void commands.toggleFollow(); break;
      case "detach": view.attachments.splice(m.index, 1); view.update(session.state); break;
      case "image": attach({ label: m.name, image: { mimeType: m.mimeType, data: m.data } }); break;
      default: break;
    }
  };
  view = new ChatView(context.extensionUri, onMessage);

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
    ...commands.register(),
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
