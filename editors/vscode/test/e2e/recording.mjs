// Writes the recorded model for the e2e run (Gemini CLI JSON lines, one line per
// model call, replayed in order by `lathe --fake-responses`). WS is the workspace.
const ws = process.argv[2];
const chunk = (text, thought = false) => ({ candidates: [{ content: { role: "model", parts: [{ text, ...(thought ? { thought } : {}) }] }, index: 0 }] });
const last = (parts) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
  usageMetadata: { promptTokenCount: 1200, candidatesTokenCount: 40, totalTokenCount: 1240 } });
const call = (name, args) => last([{ functionCall: { name, args } }]);
const say = (text) => last([{ text }]);
const line = (...chunks) => JSON.stringify({ method: "generateContentStream", response: chunks });
const multi = ["one", "TWO", "three", "four", "five", "six", "seven", "eight", "NINE", "ten", ""].join("\n");
console.log([
  // 1. A streamed answer with Markdown and a thought.
  line(chunk("The person wants a greeting.", true), chunk("**Hello** from Lathe. "), chunk("Here is code:\n\n```js\nconst x = 1;\n```\n"), say("Streaming works.")),
  // 2. An edit of a file with unsaved changes, accepted.
  line(call("replace", { file_path: `${ws}/notes.txt`, old_string: "beta", new_string: "BETA", instruction: "upper-case beta" })),
  line(say("Edited notes.txt.")),
  // 3. The same kind of edit, rejected.
  line(call("replace", { file_path: `${ws}/notes.txt`, old_string: "gamma", new_string: "GAMMA", instruction: "upper-case gamma" })),
  line(say("Understood, left it alone.")),
  // 4. A shell command that needs permission, allowed.
  line(call("run_shell_command", { command: "touch made-by-shell.txt && echo lathe-shell-ok" })),
  line(say("The command ran.")),
  // 5. A long command, stopped (Lathe makes no further model call).
  line(call("run_shell_command", { command: "sleep 30" })),
  // 5a. Working alongside: a command asked about (the person queues a prompt and steers meanwhile), its
  // output streamed live, then the queued prompt's turn.
  line(call("run_shell_command", { command: "printf 'live-one\\n'; sleep 3; printf 'live-two\\n'; exit 3" })),
  line(say("The live command ended.")),
  line(say("The queued prompt ran.")),
  // 5b. A command asked about, then Stop: the prompt queued behind it never reaches the model.
  line(call("run_shell_command", { command: "touch never-made.txt" })),
  // 6. A two-hunk write, accepted, then one hunk undone.
  line(call("write_file", { file_path: `${ws}/multi.txt`, content: multi })),
  line(say("Wrote multi.txt.")),
  // 7. A plan (write_todos), pinned at the top of the chat; multi.txt stays under review meanwhile.
  line(call("write_todos", { todos: [{ description: "Read the notes", status: "completed" }, { description: "Tidy multi.txt", status: "in_progress" }, { description: "Report back", status: "pending" }] })),
  line(say("Planned.")),
  // 7b. A shell command that changes files, allowed: its diffs come under review; b.txt undone, c.txt kept.
  line(call("run_shell_command", { command: "echo new > b.txt && echo made > c.txt" })),
  line(say("Changed b.txt and made c.txt.")),
  // 7a. In plan mode: the plan written to the plans folder, then exit_plan_mode asks with it.
  line(call("write_file", { file_path: "feature-x.md", content: "# Plan\n\n1. Tidy **multi.txt**\n2. Report back\n" })),
  line(call("exit_plan_mode", { plan_filename: "feature-x.md" })),
  line(say("Carrying out the plan.")),
  // 8. The one prompt of the second session (started with New), so that it is a past session later.
  line(say("Second chat.")),
  // 9. In the reopened first session: a prompt with an image attached.
  line(say("A single dot.")),
  // 10. With lathe.followAgent on: a read of lines 40-42 of far.txt.
  line(call("read_file", { file_path: `${ws}/far.txt`, start_line: 40, end_line: 42 })),
  line(say("Read far.txt.")),
  // 11. With lathe.followAgent off again: a read that opens nothing.
  line(call("read_file", { file_path: `${ws}/notes.txt` })),
  line(say("Read notes.txt.")),
  // 12. A search the person's BeforeTool hook blocks (e2e.sh writes the hook into GEMINI_CLI_HOME's settings).
  line(call("glob", { pattern: "*.txt" })),
  line(say("The hook kept the search out.")),
  // 13. A question to the person (ask_user), answered in the chat's form.
  line(call("ask_user", { questions: [{ question: "Which login should the app use?", header: "Auth", type: "choice",
    options: [{ label: "OAuth", description: "the standard" }, { label: "API keys", description: "simple" }] }] })),
  line(say("OAuth it is.")),
  // 13. A shell command allowed for good in this workspace (then /permissions lists and revokes it, without the model).
  line(call("run_shell_command", { command: "touch kept-by-answer.txt" })),
  line(say("Kept the file.")),
  // 14. A sub-agent (its model calls come between its parent's): a command it asks about, allowed, then stopped.
  line(call("invoke_agent", { agent_name: "generalist", prompt: "Run the slow check" })),
  line(call("run_shell_command", { command: "touch by-subagent.txt && sleep 31" })),
  line(say("The sub-agent was stopped.")),
].join("\n"));
