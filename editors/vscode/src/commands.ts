// The palette's commands and the pickers they open; the chat's buttons run the
// same pickers, so a toolbar action and its command behave alike.
import * as vscode from "vscode";
import type * as acp from "@agentclientprotocol/sdk";
import type { Attachment } from "./chatView";
import { parseHeaders, type LoginAnswer, type LoginChoice } from "./chatState";
import { imageType } from "./prompt";
import type { InlineReview } from "./review";
import type { LatheSession } from "./session";

const ACCEPT: acp.PermissionOptionKind[] = ["allow_once", "allow_always"];
const REJECT: acp.PermissionOptionKind[] = ["reject_once", "reject_always"];

export const setting = <T>(name: string, fallback: T) => vscode.workspace.getConfiguration("lathe").get<T>(name, fallback);

/** Where a toggled setting is written: where its current value comes from (the workspace's own, else the user's). */
export function settingScope(inspected: { workspaceValue?: unknown } | undefined): "workspace" | "global" {
  return inspected?.workspaceValue !== undefined ? "workspace" : "global";
}

/**
 * Auth-required: one of the agent's logins in a QuickPick, then what it needs: a key in a
 * password box (Vertex AI's may be left empty: the project and credentials of Lathe's
 * environment), or a gateway's base URL and its headers (hidden: they often carry a token).
 * Undefined on a cancel.
 */
export async function askLogin(choices: LoginChoice[]): Promise<LoginAnswer | undefined> {
  const pick = await vscode.window.showQuickPick(
    choices.map((c) => ({ label: c.name, detail: c.description, choice: c })),
    { placeHolder: "Lathe needs a login to reach the model: pick one", ignoreFocusOut: true, matchOnDetail: true });
  if (!pick) return undefined;
  const { id: methodId, ask } = pick.choice;
  if (ask === "browser") return { methodId };
  if (ask === "gateway") {
    const baseUrl = await vscode.window.showInputBox({
      title: pick.label, prompt: "The gateway's base URL (it stands in for https://generativelanguage.googleapis.com)",
      placeHolder: "https://gateway.example.com", ignoreFocusOut: true,
      validateInput: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? undefined : "Enter an http:// or https:// URL, or press Escape to cancel"),
    });
    if (!baseUrl?.trim()) return undefined;
    const typed = await vscode.window.showInputBox({
      title: pick.label, prompt: "Headers the gateway needs, as Name: value, separated by ; (empty: none; not shown)",
      placeHolder: "Authorization: Bearer …", password: true, ignoreFocusOut: true,
      validateInput: (v) => { const h = parseHeaders(v); return typeof h === "string" ? h : undefined; },
    });
    if (typed === undefined) return undefined;
    return { methodId, gateway: { baseUrl: baseUrl.trim(), headers: parseHeaders(typed) as Record<string, string> } };
  }
  const optional = ask === "optionalKey";
  const key = await vscode.window.showInputBox({
    title: pick.label, password: true, ignoreFocusOut: true,
    prompt: optional
      ? "An express-mode API key, or leave it empty to use GOOGLE_CLOUD_PROJECT and Application Default Credentials from Lathe's environment"
      : "The key, given to Lathe only (it keeps it in a file only you can read)",
    validateInput: (v) => (optional || v.trim() ? undefined : "Enter a key, or press Escape to cancel"),
  });
  if (key === undefined || (!optional && !key.trim())) return undefined;
  return key.trim() ? { methodId, key: key.trim() } : { methodId };
}

export class Commands {
  constructor(private session: LatheSession, private review: InlineReview, private attach: (a: Attachment) => void) {}

  addSelection(): void {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return;
    const sel = editor.selection;
    const name = editor.document.uri.path.split("/").pop();
    if (sel.isEmpty) this.attach({ label: name ?? "file", uri: editor.document.uri.toString() });
    else this.attach({ label: `${name}:${sel.start.line + 1}-${sel.end.line + 1}`, uri: editor.document.uri.toString(), text: editor.document.getText(sel), range: `${sel.start.line + 1}-${sel.end.line + 1}` });
  }

  private async attachImage(uri: vscode.Uri, label: string, mimeType: string): Promise<void> {
    const bytes = await vscode.workspace.fs.readFile(uri);
    this.attach({ label, uri: uri.toString(), image: { mimeType, data: Buffer.from(bytes).toString("base64") } });
  }

  async pickFiles(): Promise<void> {
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
    if (!uri) return this.addSelection();
    const label = vscode.workspace.asRelativePath(uri);
    const mime = imageType(uri.path);
    if (mime) await this.attachImage(uri, label, mime);
    else this.attach({ label, uri: uri.toString() });
  }

  /** Past sessions in a QuickPick; a failed list is said in the chat. */
  async pickSession(): Promise<void> {
    const session = this.session;
    if (!session.state.canListSessions) { void vscode.window.showInformationMessage("This Lathe cannot list past sessions."); return; }
    try {
      await session.listSessions();
    } catch (e) {
      session.error(`Could not list past sessions: ${(e as Error).message}`);
      return;
    }
    if (!session.state.sessions?.length) { void vscode.window.showInformationMessage("No past Lathe sessions in this folder."); return; }
    const id = await this.choosePastSession();
    if (id) await session.loadSession(id);
  }

  /**
   * The picker of past sessions. When Lathe can delete them (sessionCapabilities.delete),
   * each row has a trash button: asked to confirm, the session is deleted and leaves the list.
   */
  private choosePastSession(): Promise<string | undefined> {
    const session = this.session;
    const canDelete = !!session.state.canDeleteSession;
    const trash = { iconPath: new vscode.ThemeIcon("trash"), tooltip: "Delete this session" };
    const rows = () => (session.state.sessions ?? []).map((x) => ({
      label: x.title ?? x.sessionId, description: x.sessionId, id: x.sessionId, buttons: canDelete ? [trash] : [] }));
    const picker = vscode.window.createQuickPick<ReturnType<typeof rows>[number]>();
    picker.placeholder = canDelete ? "Reopen a past session (the trash button deletes one)" : "Reopen a past session";
    picker.items = rows();
    let confirming = false; // the confirmation takes the focus: the picker comes back after it
    return new Promise((resolve) => {
      picker.onDidAccept(() => { resolve(picker.selectedItems[0]?.id); picker.hide(); });
      picker.onDidHide(() => { if (confirming) return; resolve(undefined); picker.dispose(); });
      picker.onDidTriggerItemButton(async ({ item }) => {
        confirming = true;
        const answer = await vscode.window.showWarningMessage(`Delete the Lathe session "${item.label}"?`,
          { modal: true, detail: "Its history is removed for good; it cannot be reopened." }, "Delete");
        confirming = false;
        if (answer === "Delete") {
          try {
            await session.deleteSession(item.id);
          } catch (e) {
            void vscode.window.showErrorMessage(`Could not delete the session: ${(e as Error).message}`);
          }
        }
        picker.items = rows();
        if (picker.items.length) picker.show();
        else { picker.hide(); void vscode.window.showInformationMessage("No past Lathe sessions left in this folder."); }
      });
      picker.show();
    });
  }

  async pickModel(): Promise<void> {
    const models = this.session.state.models;
    if (!models) { void vscode.window.showInformationMessage("Lathe offers no model choice in this session."); return; }
    const pick = await vscode.window.showQuickPick(models.options.map((m) => ({ label: m.name, description: m.value === models.current ? "current" : "", value: m.value })));
    if (pick) await this.session.setModel(pick.value);
  }

  async pickEffort(): Promise<void> {
    const efforts = this.session.state.efforts;
    if (!efforts) { void vscode.window.showInformationMessage("The model of this session has no effort to choose."); return; }
    const pick = await vscode.window.showQuickPick(efforts.options.map((m) => ({
      label: m.name, description: m.value === efforts.current ? "current" : "", detail: m.description, value: m.value })),
    { placeHolder: "How much the model thinks, from the next request" });
    if (pick) await this.session.setEffort(pick.value);
  }

  async pickMode(): Promise<void> {
    const modes = this.session.state.modes;
    if (!modes) { void vscode.window.showInformationMessage("Lathe offers no modes in this session."); return; }
    const pick = await vscode.window.showQuickPick(modes.available.map((m) => ({ label: m.name, description: m.description ?? "", id: m.id })));
    if (pick) await this.session.setMode(pick.id);
  }

  /** lathe.followAgent switched, in the scope its value comes from (a workspace's own setting stays the workspace's). */
  async toggleFollow(): Promise<void> {
    const config = vscode.workspace.getConfiguration("lathe");
    const target = settingScope(config.inspect("followAgent")) === "workspace" ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config.update("followAgent", !setting("followAgent", false), target);
  }

  private answerActive(id: unknown, kinds: acp.PermissionOptionKind[]): void {
    const permission = typeof id === "string" ? id : this.review.activePermission();
    if (permission) this.session.broker.answerKind(permission, kinds);
  }

  register(): vscode.Disposable[] {
    const command = vscode.commands.registerCommand;
    return [
      command("lathe.openChat", () => vscode.commands.executeCommand("lathe.chat.focus")),
      command("lathe.newSession", () => this.session.newSession()),
      command("lathe.sessions", () => this.pickSession()),
      command("lathe.changeModel", () => this.pickModel()),
      command("lathe.changeEffort", () => this.pickEffort()),
      command("lathe.attach", () => this.pickFiles()),
      command("lathe.toggleFollow", () => this.toggleFollow()),
      command("lathe.cancel", () => this.session.cancel()),
      command("lathe.logout", () => this.session.logout()),
      command("lathe.changeMode", () => this.pickMode()),
      command("lathe.addSelection", () => { this.addSelection(); return vscode.commands.executeCommand("lathe.chat.focus"); }),
      command("lathe.acceptEdit", (id?: string) => this.answerActive(id, ACCEPT)),
      command("lathe.rejectEdit", (id?: string) => this.answerActive(id, REJECT)),
      command("lathe.showSideBySide", (p?: string) => {
        const target = p ?? vscode.window.activeTextEditor?.document.uri.fsPath;
        if (target) return this.review.sideBySide(target);
      }),
    ];
  }
}
