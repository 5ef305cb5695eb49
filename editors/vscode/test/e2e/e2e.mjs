// Drives code-server with playwright-core: each step is a test; a failed step
// saves a screenshot and fails the run. Usage: e2e.mjs URL WORKSPACE OUT
import { chromium } from "playwright-core";
import * as fs from "node:fs";
import * as path from "node:path";
// Compiled from test/fakeGemini.ts by package.sh (tsc), as the unit tests are.
import { fakeGemini } from "../../out/test/fakeGemini.js";

const [url, ws, out] = process.argv.slice(2);
const LONG = 90_000; // generous: the machine is shared and loaded
const results = [];
const disk = (name) => fs.readFileSync(path.join(ws, name), "utf8");

const profile = fs.mkdtempSync(path.join(out, "chromium-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1400, height: 900 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const page = context.pages()[0] ?? (await context.newPage());
page.setDefaultTimeout(LONG);
const chat = page.frameLocator("iframe.webview.ready").frameLocator("#active-frame");

async function until(what, check) {
  const deadline = Date.now() + LONG;
  let last;
  while (Date.now() < deadline) {
    try { last = await check(); if (last === true) return; } catch (e) { last = e.message; }
    await page.waitForTimeout(250);
  }
  throw new Error(`timed out waiting for ${what} (last: ${String(last).slice(0, 300)})`);
}

async function step(name, body) {
  const shot = path.join(out, "shots", `${String(results.length + 1).padStart(2, "0")}-${name.replace(/\W+/g, "-")}.png`);
  if (results.some((r) => !r.ok)) { results.push({ name, ok: false }); console.log(`not ok - ${name} (skipped after a failure)`); return; }
  try {
    await body();
    await page.screenshot({ path: shot });
    results.push({ name, ok: true });
    console.log(`ok - ${name}`);
  } catch (e) {
    await page.screenshot({ path: shot.replace(/\.png$/, "-FAILED.png") }).catch(() => {});
    results.push({ name, ok: false });
    console.log(`not ok - ${name}\n  ${e.message.split("\n").join("\n  ")}`);
  }
}

async function palette(command) {
  // Retried: the palette lists an extension's commands only once they are registered.
  await until(`"${command}" in the palette`, async () => {
    await page.keyboard.press("F1");
    await page.locator(".quick-input-widget input").fill(`>${command}`);
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: command }).first();
    if (await row.isVisible()) return true;
    await page.waitForTimeout(1000);
    if (await row.isVisible()) return true;
    await page.keyboard.press("Escape");
    return "not listed";
  });
  await page.keyboard.press("Enter");
}

async function openFile(name) {
  await page.keyboard.press("Control+P");
  await page.locator(".quick-input-widget input").fill(name);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor();
  await page.keyboard.press("Enter");
  await page.locator(`.tab.active[aria-label^="${name}"]`).waitFor();
}

const editorText = async () => (await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().innerText()).replace(/\u00a0/g, " ");

// The input stays open while a turn runs (a prompt sent then is queued); Stop is enabled only then.
const idle = async () => (await chat.locator("#stop").isDisabled()) && (await chat.locator("#send").innerText()) === "Send";
const turnDone = () => until("the turn to end", idle);

/** Types a prompt into the chat and sends it with Enter; `queue`: while a turn runs (it waits behind it). */
async function prompt(text, { queue = false } = {}) {
  const box = chat.locator("#prompt");
  if (!queue) await until("no turn running", idle);
  await box.click();
  await box.fill(text);
  await box.press("Enter");
  await chat.locator(".user", { hasText: text }).waitFor();
}

await step("VS Code starts and the Lathe chat opens from the palette", async () => {
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor();
  await page.locator("#workbench\\.parts\\.statusbar", { hasText: "Lathe:" }).waitFor();
  await palette("Lathe: Open Chat");
  await chat.locator("#prompt").waitFor();
  await chat.locator("#status", { hasText: "ready" }).waitFor();
  await chat.locator("#mode").waitFor(); // Lathe offers modes; the picker shows them
});

await step("at the side bar's default 300 px the toolbar wraps and every control is on screen", async () => {
  const sidebar = await page.locator(".part.sidebar").boundingBox();
  if (!sidebar || Math.abs(sidebar.width - 300) > 2) throw new Error(`the side bar is ${sidebar?.width} px wide, not 300`);
  await chat.locator("#toolbar #sessions").waitFor();
  const off = await chat.locator("#toolbar").evaluate((bar) => Array.from(bar.children).filter((c) => {
    const r = c.getBoundingClientRect();
    return r.width === 0 || r.left < 0 || r.right > document.documentElement.clientWidth + 0.5;
  }).map((c) => c.id || c.tagName));
  if (off.length) throw new Error(`off screen at 300 px: ${off.join(", ")}`);
  for (const id of ["#new", "#sessions", "#follow", "#mode", "#effort", "#status"]) await chat.locator(`#toolbar ${id}`).waitFor({ state: "visible" });
  await page.screenshot({ path: path.join(out, "shots", "toolbar-300px.png") });
});

await step("every toolbar action is also a palette command", async () => {
  for (const command of ["Lathe: Past Sessions", "Lathe: New Session", "Lathe: Change Mode", "Lathe: Change Model", "Lathe: Change Effort",
    "Lathe: Cancel (Stop)", "Lathe: Attach File or Image", "Lathe: Toggle Follow the Agent"]) {
    await page.keyboard.press("F1");
    await page.locator(".quick-input-widget input").fill(`>${command}`);
    await page.locator(".quick-input-list .monaco-list-row", { hasText: command }).first().waitFor();
    await page.keyboard.press("Escape");
  }
});

await step("the workspace's custom command and the person's skill complete after /", async () => {
  const box = chat.locator("#prompt");
  await until("the prompt box to be enabled", async () => !(await chat.locator("#send").isDisabled()));
  await box.click();
  await box.fill("/");
  await chat.locator('#completions .cmd[data-name="git:msg"]', { hasText: "Write a commit message" }).waitFor();
  await chat.locator('#completions .cmd[data-name="review"]', { hasText: "Reviews the change" }).waitFor();
  await box.fill("/gi");
  await until("only /git:msg for /gi", async () => {
    const names = await chat.locator("#completions .cmd").evaluateAll((els) => els.map((e) => e.dataset.name));
    return names.length === 1 && names[0] === "git:msg" ? true : names.join(",");
  });
  await chat.locator('#completions .cmd[data-name="git:msg"]').click();
  await until("the command in the prompt box", async () => {
    const value = await box.inputValue();
    return value === "/git:msg " ? true : value;
  });
  await box.fill("");
});

await step("a prompt's answer streams in as Markdown", async () => {
  await prompt("Say hello");
  await chat.locator(".agent", { hasText: "Streaming works." }).waitFor();
  await chat.locator(".agent strong", { hasText: "Hello" }).waitFor();
  await chat.locator(".agent pre.hljs code").waitFor();
  await chat.locator("details.thought summary").waitFor();
  if (await chat.locator("details.thought[open]").count()) throw new Error("the thought is not collapsed");
  await chat.locator("#usage", { hasText: "tokens" }).waitFor();
  // gemini-2.5-pro has a list price: the meter shows what the session cost so far.
  await chat.locator("#usage", { hasText: /tokens · \$0\.\d{4}$/ }).waitFor();
  await turnDone();
});

await step("that answer came from the lathe the platform .vsix carries", async () => {
  // "lathe.path" is empty and no lathe is on PATH (e2e.sh), so the running
  // agent must be the installed extension's bin/lathe.
  const bundled = fs.realpathSync(process.env.LATHE_E2E_BUNDLED);
  const running = [];
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try { running.push(fs.readlinkSync(`/proc/${pid}/exe`)); } catch { /* gone, or not ours */ }
  }
  if (!running.includes(bundled)) throw new Error(`no process runs ${bundled}; lathe processes: ${running.filter((e) => e.endsWith("/lathe")).join(", ") || "none"}`);
});

await step("an edit of an unsaved buffer is shown inline and accepted", async () => {
  await openFile("notes.txt");
  await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.type("UNSAVED ");
  await page.locator(".tab.active.dirty").waitFor();
  await prompt("Upper-case beta in notes.txt");
  const accept = page.locator(".codelens-decoration a", { hasText: "Accept (Lathe)" });
  await accept.waitFor();
  await page.locator(".codelens-decoration a", { hasText: "Side by side" }).waitFor();
  await chat.locator(".tool .diff .add", { hasText: "BETA" }).waitFor();
  await page.screenshot({ path: path.join(out, "shots", "inline-review.png") });
  await accept.click();
  await chat.locator(".agent", { hasText: "Edited notes.txt." }).waitFor();
  await turnDone();
  await until("the buffer to hold the unsaved text plus the edit", async () => {
    const text = await editorText();
    return (text.includes("UNSAVED alpha") && text.includes("BETA")) || text;
  });
  await until("the edit to be saved to disk", async () => disk("notes.txt") === "UNSAVED alpha\nBETA\ngamma\n" || disk("notes.txt"));
  await until("the CodeLens to go after accepting", async () => (await page.locator(".codelens-decoration a", { hasText: "Accept (Lathe)" }).count()) === 0);
});

await step("Ctrl+Z undoes the agent's edit in one step", async () => {
  await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Z");
  await until("the edit to be undone", async () => {
    const text = await editorText();
    return (text.includes("UNSAVED alpha") && text.includes("beta") && !text.includes("BETA")) || text;
  });
  await page.keyboard.press("Control+Shift+Z");
  await until("the edit to be redone", async () => (await editorText()).includes("BETA"));
  await page.keyboard.press("Control+S");
  await page.locator(".tab.active.dirty").waitFor({ state: "detached" });
});

await step("a rejected edit changes nothing (after a look side by side)", async () => {
  const before = disk("notes.txt");
  await prompt("Upper-case gamma in notes.txt");
  await page.locator(".codelens-decoration a", { hasText: "Accept (Lathe)" }).waitFor();
  await page.locator(".codelens-decoration a", { hasText: "Side by side" }).click();
  const diff = page.locator(".editor-group-container.active .monaco-diff-editor");
  await diff.waitFor();
  await page.locator(".tab.active", { hasText: "Lathe's proposal" }).waitFor();
  await until("the proposal on the right", async () => (await diff.locator(".editor.modified .view-lines").innerText()).includes("GAMMA"));
  await until("the buffer on the left", async () => (await diff.locator(".editor.original .view-lines").innerText()).includes("gamma"));
  await page.screenshot({ path: path.join(out, "shots", "side-by-side.png") });
  await palette("View: Close Editor");
  await openFile("notes.txt");
  await chat.locator(".tool button.reject_once").click();
  await chat.locator(".agent", { hasText: "Understood, left it alone." }).waitFor();
  await turnDone();
  await chat.locator(".tool.status-failed").last().waitFor();
  if (disk("notes.txt") !== before) throw new Error(`the file changed: ${disk("notes.txt")}`);
  const text = await editorText();
  if (text.includes("GAMMA")) throw new Error("the buffer changed");
  await until("the CodeLens to go after rejecting", async () => (await page.locator(".codelens-decoration a", { hasText: "Accept (Lathe)" }).count()) === 0);
});

await step("a shell command is allowed in its card and its output shown", async () => {
  await prompt("Run the check");
  const card = chat.locator(".tool", { hasText: "lathe-shell-ok" }).last();
  await card.locator("button.allow_once").click();
  await card.locator(".status", { hasText: "completed" }).waitFor();
  await card.locator("pre", { hasText: /^lathe-shell-ok\s*$/ }).waitFor();
  await chat.locator(".agent", { hasText: "The command ran." }).waitFor();
  await turnDone();
  if (!fs.existsSync(path.join(ws, "made-by-shell.txt"))) throw new Error("the command did not run");
});

await step("Stop cancels a long command", async () => {
  await prompt("Wait a while");
  const card = chat.locator(".tool", { hasText: "sleep 30" }).last();
  await card.locator(".status", { hasText: "in_progress" }).waitFor();
  await page.locator("#workbench\\.parts\\.statusbar", { hasText: "Lathe: working" }).waitFor();
  await chat.locator("#stop").click();
  await chat.locator(".notice", { hasText: "Stopped: cancelled" }).waitFor();
  await card.locator(".status", { hasText: "failed" }).waitFor();
  await turnDone();
});

await step("while a command runs: a prompt is queued (pending until its turn), text steers the turn, the output streams live", async () => {
  await prompt("Run the live command");
  const card = chat.locator(".tool", { hasText: "live-one" }).last();
  await card.locator("button.allow_once").waitFor();
  // The turn waits for the person: the input stays open, Send queues.
  await until("Send to read Queue", async () => (await chat.locator("#send").innerText()) === "Queue" || await chat.locator("#send").innerText());
  await prompt("Then tell me about it", { queue: true });
  const pending = chat.locator(".user.queued", { hasText: "Then tell me about it" });
  await pending.locator(".tag", { hasText: "queued" }).waitFor();
  // Steering: the words join the running turn, marked as added to it.
  await chat.locator("#prompt").fill("and keep it short");
  await chat.locator("#steer").click();
  await chat.locator(".user.steered", { hasText: "and keep it short" }).waitFor();
  await page.screenshot({ path: path.join(out, "shots", "queued-and-steered.png") });
  await card.locator("button.allow_once").click();
  // Live: the first line is on the card while the command still runs.
  const terminal = card.locator(".terminal");
  await terminal.locator(".terminal-output", { hasText: "live-one" }).waitFor();
  await terminal.locator(".terminal-exit", { hasText: "running…" }).waitFor();
  if (await terminal.locator(".terminal-output", { hasText: "live-two" }).count()) throw new Error("the output was not shown live");
  await terminal.locator(".terminal-cwd", { hasText: ws }).waitFor();
  await page.screenshot({ path: path.join(out, "shots", "live-shell-output.png") });
  await terminal.locator(".terminal-output", { hasText: "live-two" }).waitFor();
  await terminal.locator(".terminal-exit", { hasText: "exit code 3" }).waitFor();
  await chat.locator(".agent", { hasText: "The live command ended." }).waitFor();
  // Its turn starts: the pending entry becomes the person's message, once.
  await chat.locator(".agent", { hasText: "The queued prompt ran." }).waitFor();
  await turnDone();
  if (await chat.locator(".user.queued").count()) throw new Error("a queued entry stayed");
  const sent = await chat.locator(".user", { hasText: "Then tell me about it" }).count();
  if (sent !== 1) throw new Error(`the queued prompt is shown ${sent} times`);
  const order = await chat.locator("#log > .user, #log > .agent").evaluateAll((els) => els.map((e) => e.textContent.trim()).slice(-4));
  const want = ["added to the turnand keep it short", "The live command ended.", "Then tell me about it", "The queued prompt ran."];
  if (JSON.stringify(order) !== JSON.stringify(want)) throw new Error(`the chat reads ${JSON.stringify(order)}`);
});

await step("Stop ends the turn and drops the prompt queued behind it", async () => {
  await prompt("Make the file that never comes");
  const card = chat.locator(".tool", { hasText: "never-made.txt" }).last();
  await card.locator("button.allow_once").waitFor();
  await prompt("This one waits", { queue: true });
  await chat.locator(".user.queued", { hasText: "This one waits" }).waitFor();
  await chat.locator("#stop").click();
  await chat.locator(".notice", { hasText: "Stopped: cancelled" }).last().waitFor();
  await turnDone();
  if (await chat.locator(".user", { hasText: "This one waits" }).count()) throw new Error("the dropped prompt is still shown");
  if (fs.existsSync(path.join(ws, "never-made.txt"))) throw new Error("the cancelled command ran");
});

const gutterMarks = () => page.locator(".editor-group-container.active .monaco-editor .cgmr").count();

await step("changed files stay under review across prompts, marked in the gutter, until kept or undone", async () => {
  await openFile("multi.txt");
  await prompt("Upper-case two and nine");
  await page.locator(".codelens-decoration a", { hasText: "Accept (Lathe)" }).first().waitFor();
  await chat.locator(".tool button.allow_once").last().click();
  await chat.locator(".agent", { hasText: "Wrote multi.txt." }).waitFor();
  await turnDone();
  // notes.txt's edit was undone with Ctrl+Z and then redone by the person: theirs now, nothing to review.
  if (await chat.locator(".changes .file", { hasText: "notes.txt" }).count()) throw new Error("notes.txt is listed as Lathe's change");
  const hunks = chat.locator(".changes .file", { hasText: "multi.txt" }).locator(".hunk");
  await until("two hunks listed", async () => (await hunks.count()) === 2 || await hunks.count());
  await until("two lines marked in the gutter", async () => (await gutterMarks()) === 2 || await gutterMarks());
  // The next prompt makes a plan: the plan is pinned above the log, the review stays.
  await prompt("Make a plan");
  await chat.locator(".agent", { hasText: "Planned." }).waitFor();
  await turnDone();
  await chat.locator("#plan li.plan-in_progress", { hasText: "Tidy multi.txt" }).waitFor();
  await chat.locator("#plan summary", { hasText: "1/3" }).waitFor();
  const card = chat.locator(".tool", { hasText: "Write Todos" }).last();
  await card.locator(".notice", { hasText: "pinned" }).waitFor();
  if (await card.getByText("Report back").count()) throw new Error("the write_todos card repeats the list");
  await chat.locator("#log").evaluate((log) => { log.scrollTop = 0; });
  await chat.locator("#plan li", { hasText: "Report back" }).waitFor({ state: "visible" });
  await page.screenshot({ path: path.join(out, "shots", "pinned-plan.png") });
  if ((await hunks.count()) !== 2) throw new Error(`the review did not last: ${await hunks.count()} hunks`);
  await hunks.nth(0).locator("button.undo").click();
  const want = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nNINE\nten\n";
  await until("the first hunk undone on disk", async () => disk("multi.txt") === want || disk("multi.txt"));
  await until("one hunk left", async () => (await hunks.count()) === 1 || await hunks.count());
  await until("one line marked in the gutter", async () => (await gutterMarks()) === 1 || await gutterMarks());
  await hunks.nth(0).locator("button.keep").click();
  await until("no hunk of multi.txt left", async () => (await hunks.count()) === 0 || await hunks.count());
  await until("no gutter mark left", async () => (await gutterMarks()) === 0 || await gutterMarks());
  if (disk("multi.txt") !== want) throw new Error("Keep changed the file");
});

await step("files a shell command changed are under review from its diffs: Undo puts b.txt back, Keep keeps c.txt", async () => {
  await prompt("Change b.txt and make c.txt");
  const card = chat.locator(".tool", { hasText: "echo new > b.txt" }).last();
  await card.locator("button.allow_once").click();
  await chat.locator(".agent", { hasText: "Changed b.txt and made c.txt." }).waitFor();
  await turnDone();
  if (disk("b.txt") !== "new\n" || disk("c.txt") !== "made\n") throw new Error(`the command did not run: ${disk("b.txt")}`);
  await card.locator(".diff .add", { hasText: "made" }).waitFor(); // its diffs on the card
  const file = (name) => chat.locator(".changes .file").filter({ has: chat.locator("a.loc", { hasText: new RegExp(`^${name.replace(".", "\\.")}$`) }) });
  await until("b.txt and c.txt listed", async () => (await file("b.txt").count()) === 1 && (await file("c.txt").count()) === 1
    || await chat.locator(".changes").innerText().catch(() => "no list"));
  await page.screenshot({ path: path.join(out, "shots", "shell-changes-listed.png") });
  await file("b.txt").locator(".hunk").first().locator("button.undo").click();
  await until("b.txt undone on disk", async () => disk("b.txt") === "old\n" || disk("b.txt"));
  await until("b.txt gone from the list", async () => (await file("b.txt").count()) === 0 || "still listed");
  await file("c.txt").locator(".hunk").first().locator("button.keep").click();
  await until("c.txt gone from the list", async () => (await file("c.txt").count()) === 0 || "still listed");
  if (disk("c.txt") !== "made\n") throw new Error(`Keep changed c.txt: ${JSON.stringify(disk("c.txt"))}`);
  if (disk("b.txt") !== "old\n") throw new Error(`b.txt is ${JSON.stringify(disk("b.txt"))}`);
});

await step("the palette changes the mode and the model, and adds the selection to the chat", async () => {
  await palette("Lathe: Change Mode");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "Auto edit" }).first().click();
  await until("the mode picker to show Auto edit", async () => (await chat.locator("#mode").inputValue()) === "autoEdit" || await chat.locator("#mode").inputValue());
  const models = await chat.locator("#model option").evaluateAll((os) => os.map((o) => ({ name: o.textContent, selected: o.selected })));
  const other = models.find((m) => !m.selected);
  if (!other) throw new Error(`Lathe offers one model only: ${JSON.stringify(models)}`);
  await palette("Lathe: Change Model");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: other.name }).first().click();
  await until(`the model picker to show ${other.name}`, async () => {
    const shown = await chat.locator("#model option:checked").innerText();
    return shown === other.name || shown;
  });
  await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Shift+ArrowDown");
  await palette("Lathe: Add Selection to Chat");
  await chat.locator(".chip", { hasText: "multi.txt:1-3" }).waitFor();
});

await step("in plan mode, exit_plan_mode asks with the plan as Markdown; the mode picked shows in the picker", async () => {
  await chat.locator("#mode").selectOption("plan");
  await prompt("Plan the tidy-up");
  const card = chat.locator(".tool", { has: chat.locator("button.opt", { hasText: "Yes, and allow edits" }) }).last();
  await card.locator(".md ol li", { hasText: "Tidy multi.txt" }).waitFor();
  await card.locator(".md ol li strong", { hasText: "multi.txt" }).waitFor();
  for (const name of ["Yes, and allow edits", "No, keep planning"]) await card.locator("button.opt", { hasText: name }).waitFor();
  if ((await card.locator("button.opt").count()) !== 3) throw new Error("not Lathe's three options");
  await page.screenshot({ path: path.join(out, "shots", "plan-exit-question.png") });
  await card.locator("button.opt", { hasText: "Yes, and allow edits" }).click();
  await chat.locator(".agent", { hasText: "Carrying out the plan." }).waitFor();
  await turnDone();
  await until("the mode picker to show Auto edit", async () => (await chat.locator("#mode").inputValue()) === "autoEdit" || await chat.locator("#mode").inputValue());
});

await step("@ attaches a file, and New starts an empty session", async () => {
  await chat.locator("#prompt").click();
  await chat.locator("#prompt").pressSequentially("@");
  await page.locator(".quick-input-widget input").fill("notes.txt");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "notes.txt" }).first().click();
  await chat.locator(".chip", { hasText: "notes.txt" }).waitFor();
  if ((await chat.locator("#prompt").inputValue()).includes("@")) throw new Error("the @ stayed in the prompt");
  await chat.locator("#new").click();
  await until("an empty chat", async () => (await chat.locator("#log .user").count()) === 0 || await chat.locator("#log .user").count());
  await chat.locator("#status", { hasText: "ready" }).waitFor();
  await prompt("A second chat");
  await chat.locator(".agent", { hasText: "Second chat." }).waitFor();
  await turnDone();
});

await step("back to the first chat from the palette: its history is replayed", async () => {
  await palette("Lathe: Past Sessions");
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: "Say hello" }).first();
  await row.waitFor();
  await row.click();
  await chat.locator(".user", { hasText: "Upper-case two and nine" }).waitFor();
  await chat.locator(".agent", { hasText: "Streaming works." }).waitFor();
  await chat.locator("#status", { hasText: "ready" }).waitFor();
  if (await chat.locator("#log .error").count()) throw new Error(await chat.locator("#log .error").first().innerText());
});

await step("images are attached from the palette and by pasting, and sent with the prompt", async () => {
  await palette("Lathe: Attach File or Image");
  await page.locator(".quick-input-widget input").fill("dot.png");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "dot.png" }).first().click();
  await chat.locator(".chip", { hasText: "dot.png" }).waitFor();
  // A paste of image data, as the clipboard delivers it to the prompt box.
  const png = fs.readFileSync(path.join(ws, "dot.png")).toString("base64");
  await chat.locator("#prompt").evaluate((box, b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "pasted.png", { type: "image/png" }));
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, png);
  await chat.locator(".chip", { hasText: "pasted.png" }).waitFor();
  await prompt("What is in the image?");
  const sent = chat.locator(".user", { hasText: "What is in the image?" }).locator("img.thumb");
  await until("both images in the sent prompt", async () => (await sent.count()) === 2 || await sent.count());
  await until("the log at its end after sending", async () => await chat.locator("#log").evaluate((log) =>
    log.scrollHeight - log.scrollTop - log.clientHeight < 40 || `${log.scrollTop} of ${log.scrollHeight}`));
  await chat.locator(".agent", { hasText: "A single dot." }).waitFor();
  await turnDone();
  if (await chat.locator(".chip").count()) throw new Error("the attachments stayed after sending");
});

await step("with Follow on, the file Lathe reads opens at the line, the chat keeping the focus", async () => {
  await chat.locator("#follow.off").click();
  await chat.locator("#follow.on").waitFor(); // lathe.followAgent is set and read back
  try {
    await prompt("Read the end of far.txt");
    await chat.locator(".agent", { hasText: "Read far.txt." }).waitFor();
    await turnDone();
    await page.locator('.tab.active[aria-label^="far.txt"]').waitFor();
    await page.locator("#workbench\\.parts\\.statusbar", { hasText: "Ln 40," }).waitFor();
    const focused = await chat.locator("#prompt").evaluate((box) => document.activeElement === box);
    if (!focused) throw new Error("the prompt lost the focus");
  } finally {
    await palette("Lathe: Toggle Follow the Agent");
  }
  await chat.locator("#follow.off").waitFor();
});

await step("with Follow off, the file Lathe reads does not open", async () => {
  await prompt("Read notes.txt");
  await chat.locator(".agent", { hasText: "Read notes.txt." }).waitFor();
  await turnDone();
  await page.locator('.tab.active[aria-label^="far.txt"]').waitFor();
});

await step("a hook's decision shows on the tool call it touched", async () => {
  await prompt("Find the text files");
  const card = chat.locator(".tool", { hasText: "*.txt" }).last();
  await card.locator(".hook.hook-blocked", { hasText: "no searching here" }).waitFor();
  await card.locator(".hook-name", { hasText: "Hook guard" }).waitFor();
  await card.locator(".status", { hasText: "failed" }).waitFor();
  await chat.locator(".agent", { hasText: "The hook kept the search out." }).waitFor();
  await turnDone();
  if (await card.locator(".md", { hasText: "Hook guard" }).count()) throw new Error("the note is repeated among the output");
});

await step("the agent's question is a form in the chat; the answer reaches the agent", async () => {
  await prompt("Ask me how to log in");
  const form = chat.locator(".question form.q-form");
  await form.waitFor();
  await chat.locator(".question .q-message", { hasText: "The agent has a question for you." }).waitFor();
  await form.locator("fieldset", { hasText: "Which login should the app use?" }).waitFor();
  await page.screenshot({ path: path.join(out, "shots", "question-form.png") });
  await form.locator("label.choice", { hasText: "OAuth — the standard" }).locator("input").check();
  await chat.locator(".question button.q-submit").click();
  await chat.locator(".question.settled .answer", { hasText: "Answered: Auth: OAuth" }).waitFor();
  await chat.locator(".tool strong", { hasText: "Auth" }).waitFor(); // the call's card: what the model was told
  await chat.locator(".agent", { hasText: "OAuth it is." }).waitFor();
  await turnDone();
});

await step("the effort picker changes the effort from the toolbar and the palette", async () => {
  const effort = chat.locator("#toolbar #effort");
  await effort.waitFor();
  await effort.selectOption("high");
  await until("the toolbar's effort to stay High", async () => (await effort.inputValue()) === "high" || await effort.inputValue());
  await palette("Lathe: Change Effort");
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "Low" }).first().click();
  await until("the effort picker to show Low", async () => (await effort.inputValue()) === "low" || await effort.inputValue());
});

await step("an answer kept for the workspace is offered apart from the session's; /permissions lists it and revokes it", async () => {
  await prompt("Make the kept file");
  const card = chat.locator(".tool", { hasText: "touch kept-by-answer.txt" }).last();
  await card.locator("button.opt", { hasText: "Allow touch for this session" }).waitFor();
  await card.locator("button.opt", { hasText: "Always allow touch in every workspace" }).waitFor();
  await card.locator("button.opt", { hasText: "Always allow touch in this workspace" }).click();
  await card.locator(".status", { hasText: "completed" }).waitFor();
  await card.getByText("allowed in this workspace from now on").waitFor();
  await chat.locator(".agent", { hasText: "Kept the file." }).waitFor();
  await turnDone();
  if (!fs.existsSync(path.join(ws, "kept-by-answer.txt"))) throw new Error("the command did not run");
  await prompt("/permissions");
  // Answered in autoEdit mode (an earlier step chose it): kept for autoEdit and yolo, as Gemini CLI keeps it.
  await chat.locator(".agent", { hasText: "touch (shell commands) (in autoEdit, yolo mode) — in this workspace" }).waitFor();
  await turnDone();
  await page.screenshot({ path: path.join(out, "shots", "permissions.png") });
  await prompt("/permissions revoke 1");
  await chat.locator(".agent", { hasText: "Revoked: touch (shell commands) (in autoEdit, yolo mode) in this workspace is asked about again." }).waitFor();
  await turnDone();
});

await step("in a long chat, the toolbar's Sessions button opens the session picker in view", async () => {
  if (await chat.locator("#log").evaluate((log) => log.scrollHeight <= log.clientHeight)) throw new Error("the chat is not long enough to scroll");
  await chat.locator("#sessions").click();
  await page.locator(".quick-input-widget input[placeholder^='Reopen a past session']").waitFor({ state: "visible" });
  await page.locator(".quick-input-list .monaco-list-row", { hasText: "A second chat" }).first().waitFor({ state: "visible" });
  await page.keyboard.press("Escape");
});

await step("a past session is deleted from the picker's trash button, after a confirmation; the list forgets it", async () => {
  await palette("Lathe: Past Sessions");
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: "A second chat" }).first();
  await row.waitFor({ state: "visible" });
  await row.hover();
  await row.locator(".action-label.codicon-trash").click();
  const dialog = page.locator(".monaco-dialog-box");
  await dialog.locator(".dialog-message-text", { hasText: 'Delete the Lathe session "A second chat"?' }).waitFor();
  await page.screenshot({ path: path.join(out, "shots", "delete-session.png") });
  await dialog.locator(".monaco-button", { hasText: "Delete" }).first().click();
  await dialog.waitFor({ state: "detached" });
  // It was the only past one (the open chat is not listed): the picker closes and says so.
  await page.locator(".notifications-toasts", { hasText: "No past Lathe sessions left in this folder." }).waitFor();
  await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  // Lathe forgot it too: a fresh list has none.
  await palette("Lathe: Past Sessions");
  await page.locator(".notifications-toasts", { hasText: "No past Lathe sessions in this folder." }).waitFor();
});

await step("a sub-agent works nested under its call: its question is answered there, and Stop stops it alone", async () => {
  await prompt("Delegate the slow check");
  const child = chat.locator("details.subagent").last();
  await child.locator(".subagent-title", { hasText: "Generalist Agent" }).waitFor();
  await child.locator(".subagent-task", { hasText: "Run the slow check" }).waitFor();
  const shell = child.locator(".subagent-log .tool", { hasText: "sleep 31" });
  await shell.locator("button.allow_once").click();
  await shell.locator(".status", { hasText: "in_progress" }).waitFor();
  await child.locator(".subagent-state", { hasText: "working" }).waitFor();
  await page.screenshot({ path: path.join(out, "shots", "subagent-nested.png") });
  await until("the child's command to have started", async () => fs.existsSync(path.join(ws, "by-subagent.txt")) || "not yet");
  await child.locator("button.stop-child").click();
  await child.locator(".subagent-state", { hasText: "stopped" }).waitFor();
  await chat.locator(".agent", { hasText: "The sub-agent was stopped." }).waitFor(); // the parent went on
  await turnDone();
  if (await chat.locator("#log > .tool > .tool-head", { hasText: "sleep 31" }).count()) throw new Error("the child's call is in the chat itself");
});

// Last: it restarts Lathe without the recorded model, against a fake Gemini API and without a key.
await step("without a key, the new session asks for a login; the key, typed unseen, reaches the model; Log Out asks again; a gateway's URL and headers, and keyless Vertex AI, are entered the same way", async () => {
  const model = await fakeGemini("Hello through the fake Gemini API.");
  try {
    const home = fs.mkdtempSync(path.join(out, "login-home-")); // Lathe keeps the key here, not in the real HOME
    const adc = path.join(home, "adc.json"); // gcloud's login, for keyless Vertex AI: its token endpoint is the fake
    fs.writeFileSync(adc, JSON.stringify({ type: "authorized_user", client_id: "c", client_secret: "s", refresh_token: "r", token_uri: `${model.url}/token` }));
    // Edited in VS Code's settings.json editor, as a person would (a file written behind its back may go unseen).
    const file = path.join(out, "ud", "User", "settings.json");
    const settings = JSON.parse(fs.readFileSync(file, "utf8"));
    settings["lathe.args"] = [];
    settings["lathe.env"] = { GOOGLE_GEMINI_BASE_URL: model.url, HOME: home, XDG_STATE_HOME: path.join(home, "state"), GEMINI_API_KEY: "",
      GOOGLE_CLOUD_PROJECT: "e2e-project", GOOGLE_VERTEX_BASE_URL: model.url, GOOGLE_APPLICATION_CREDENTIALS: adc };
    await palette("Preferences: Open User Settings (JSON)");
    await page.locator('.tab.active[aria-label^="settings.json"]').waitFor();
    await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText(JSON.stringify(settings)); // one line: no auto-indent on the way
    await page.keyboard.press("Control+Shift+End"); // what the editor auto-closed after the cursor
    await page.keyboard.press("Delete");
    await page.keyboard.press("Control+S");
    await until("settings.json saved", () => JSON.parse(fs.readFileSync(file, "utf8"))["lathe.env"]?.GOOGLE_GEMINI_BASE_URL === model.url || "not yet");

    // The settings change restarts Lathe, whose new session asks for a login at once.
    const picker = page.locator(".quick-input-widget input[placeholder^='Lathe needs a login']");
    await picker.waitFor({ state: "visible" });
    for (const name of ["Log in with Google", "Use Gemini API key", "Vertex AI", "Use an AI gateway"]) {
      await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor();
    }
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "Use Gemini API key" }).first().click();
    const secret = page.locator(".quick-input-widget input[type='password']");
    await secret.waitFor({ state: "visible" });
    await secret.fill("e2e-key-1234");
    await page.screenshot({ path: path.join(out, "shots", "login-key.png") });
    await page.keyboard.press("Enter");
    await until("Lathe restarted with an empty chat", async () => (await chat.locator("#log .user").count()) === 0 || "old chat still shown");
    await chat.locator("#status", { hasText: "ready" }).waitFor();
    await prompt("Who answers?");
    await chat.locator(".agent", { hasText: "Hello through the fake Gemini API." }).waitFor();
    await turnDone();
    let asked = model.prompts();
    if (asked.length !== 1 || asked[0].key !== "e2e-key-1234") throw new Error(`the model saw ${JSON.stringify(model.requests)}`);
    if ((await chat.locator(".user", { hasText: "Who answers?" }).count()) !== 1) throw new Error("the prompt was not shown exactly once");
    if (await chat.locator("#log .error").count()) throw new Error(await chat.locator("#log .error").first().innerText());

    await palette("Lathe: Log Out");
    await chat.locator(".notice", { hasText: "Logged out" }).waitFor();
    await prompt("And now?");
    await picker.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await chat.locator(".notice", { hasText: "Login cancelled" }).waitFor();
    await turnDone();
    if (model.prompts().length !== 1) throw new Error("a prompt reached the model after Log Out");

    // A gateway: its base URL, then its headers (hidden as typed).
    await prompt("Through the gateway?");
    await picker.waitFor({ state: "visible" });
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "Use an AI gateway" }).first().click();
    const input = page.locator(".quick-input-widget .quick-input-box input");
    await page.locator(".quick-input-widget", { hasText: "base URL" }).waitFor({ state: "visible" });
    await input.fill(model.url);
    await page.keyboard.press("Enter");
    await page.locator(".quick-input-widget", { hasText: "Headers the gateway needs" }).waitFor({ state: "visible" });
    await secret.fill("Authorization: Bearer gw-e2e; X-Team: core");
    await page.screenshot({ path: path.join(out, "shots", "login-gateway.png") });
    await page.keyboard.press("Enter");
    await until("the prompt reached the gateway", () => model.prompts().length === 2 || JSON.stringify(model.requests.map((r) => r.path)));
    await turnDone();
    asked = model.prompts();
    if (asked[1].authorization !== "Bearer gw-e2e" || asked[1].key) throw new Error(`the gateway saw ${JSON.stringify(asked[1])}`);

    // Vertex AI without a key: the project and gcloud's login from Lathe's environment.
    await palette("Lathe: Log Out");
    await chat.locator(".notice", { hasText: "Logged out" }).nth(1).waitFor();
    await prompt("From Vertex AI?");
    await picker.waitFor({ state: "visible" });
    await page.locator(".quick-input-list .monaco-list-row", { hasText: "Vertex AI" }).first().click();
    await page.locator(".quick-input-widget", { hasText: "leave it empty" }).waitFor({ state: "visible" });
    await page.keyboard.press("Enter"); // no key
    await until("the prompt reached Vertex AI", () => model.prompts().length === 3 || JSON.stringify(model.requests.map((r) => r.path)));
    await turnDone();
    const vertex = model.prompts()[2];
    if (!vertex.path.startsWith("/v1/projects/e2e-project/locations/us-central1/publishers/google/models/") || vertex.authorization !== "Bearer access-1") {
      throw new Error(`Vertex AI saw ${JSON.stringify(vertex)}`);
    }
    if (await chat.locator("#log .error").count()) throw new Error(await chat.locator("#log .error").first().innerText());
  } finally {
    await model.close();
  }
});

await context.close();
fs.rmSync(profile, { recursive: true, force: true });
const passed = results.filter((r) => r.ok).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
