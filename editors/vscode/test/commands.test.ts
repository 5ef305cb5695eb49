// The palette's pickers without a VS Code window: where Follow is written, what a failed list says.
import { test } from "node:test";
import * as assert from "node:assert/strict";
import { Commands, settingScope } from "../src/commands";
import type { InlineReview } from "../src/review";
import type { LatheSession } from "../src/session";
import * as mock from "./vscode-mock";

test("commands: Follow is toggled where its value comes from, the workspace's own setting included", () => {
  assert.equal(settingScope({ workspaceValue: true }), "workspace");
  assert.equal(settingScope({ workspaceValue: false }), "workspace");
  assert.equal(settingScope({}), "global");
  assert.equal(settingScope(undefined), "global");
});

test("commands: a failed list of past sessions is said in the chat, not left as an unhandled rejection", async () => {
  const said: string[] = [];
  const session = {
    state: { canListSessions: true },
    listSessions: async () => { throw new Error("Lathe is gone"); },
    error: (m: string) => said.push(m),
  } as unknown as LatheSession;
  await new Commands(session, {} as InlineReview, () => {}).pickSession();
  assert.deepEqual(said, ["Could not list past sessions: Lathe is gone"]);
});

/** A QuickPick the test drives: its rows, and the row buttons and acceptance a person would use. */
class FakePicker<T extends { id: string }> {
  items: T[] = [];
  selectedItems: T[] = [];
  placeholder = "";
  visible = false;
  private handlers: Record<string, ((e?: unknown) => unknown)[]> = {};
  private on = (name: string) => (f: (e?: unknown) => unknown) => { (this.handlers[name] ??= []).push(f); return { dispose() {} }; };
  onDidAccept = this.on("accept");
  onDidHide = this.on("hide");
  onDidTriggerItemButton = this.on("button");
  fire(name: string, e?: unknown): Promise<unknown[]> { return Promise.all((this.handlers[name] ?? []).map((f) => f(e))); }
  show(): void { this.visible = true; }
  hide(): void { this.visible = false; void this.fire("hide"); }
  dispose(): void {}
}

test("commands: the trash button of a past session asks first, then deletes it and the list forgets it", async () => {
  const window = mock.window as Record<string, unknown>;
  const pickers: FakePicker<{ id: string; label: string; buttons: unknown[] }>[] = [];
  const asked: string[] = [];
  const answers = [undefined, "Delete"]; // the first time the person thinks better of it
  window.createQuickPick = () => { const p = new FakePicker<{ id: string; label: string; buttons: unknown[] }>(); pickers.push(p); return p; };
  window.showWarningMessage = async (m: string) => { asked.push(m); pickers[0].hide(); return answers.shift(); }; // a modal takes the focus
  window.showInformationMessage = async () => undefined;
  const deleted: string[] = [];
  const loaded: string[] = [];
  const state = { canListSessions: true, canDeleteSession: true, sessions: [] as { sessionId: string; title: string }[] };
  const session = {
    state,
    listSessions: async () => { state.sessions = [{ sessionId: "s1", title: "First" }, { sessionId: "s2", title: "Second" }]; },
    deleteSession: async (id: string) => { deleted.push(id); state.sessions = state.sessions.filter((x) => x.sessionId !== id); },
    loadSession: async (id: string) => { loaded.push(id); },
    error: (m: string) => assert.fail(m),
  } as unknown as LatheSession;
  const picked = new Commands(session, {} as InlineReview, () => {}).pickSession();
  await new Promise((r) => setImmediate(r));
  const picker = pickers[0];
  assert.deepEqual(picker.items.map((i) => [i.label, i.buttons.length]), [["First", 1], ["Second", 1]]);
  await picker.fire("button", { item: picker.items[1] });
  assert.deepEqual(asked, ['Delete the Lathe session "Second"?']);
  assert.deepEqual(deleted, [], "not confirmed: nothing deleted");
  assert.equal(picker.visible, true, "the picker is back after the question");
  await picker.fire("button", { item: picker.items[1] });
  assert.deepEqual(deleted, ["s2"]);
  assert.deepEqual(picker.items.map((i) => i.label), ["First"]);
  assert.equal(picker.visible, true);
  picker.selectedItems = [picker.items[0]];
  await picker.fire("accept");
  await picked;
  assert.deepEqual(loaded, ["s1"]);
});

test("commands: without session/delete the past sessions have no trash button", async () => {
  const window = mock.window as Record<string, unknown>;
  const pickers: FakePicker<{ id: string; buttons: unknown[] }>[] = [];
  window.createQuickPick = () => { const p = new FakePicker<{ id: string; buttons: unknown[] }>(); pickers.push(p); return p; };
  const state = { canListSessions: true, canDeleteSession: false, sessions: [{ sessionId: "s1", title: "First" }] };
  const session = { state, listSessions: async () => {}, loadSession: async () => {} } as unknown as LatheSession;
  const picked = new Commands(session, {} as InlineReview, () => {}).pickSession();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(pickers[0].items.map((i) => i.buttons.length), [0]);
  pickers[0].hide();
  await picked;
});
