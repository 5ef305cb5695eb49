// run_shell_command: a bash command line in the workspace, in the foreground
// (output streamed live, to a display-only terminal where the editor shows
// one; head and tail for the model, the whole saved to a file), in the
// editor's own terminal when settings say so (approved lines only), or in
// the background (returns at once with an id). Confirmation details come
// from the real parse in shell_analysis. Runs on a worker thread.
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "tools/core/terminal_view.h"
#include "tools/core/untrusted_text.h"
#include "tools/files/guarded_reads.h"
#include "tools/files/secret_files.h"
#include "tools/process/process_runner.h"
#include "tools/shell/background_processes.h"
#include "tools/shell/exec_confirmation.h"
#include "tools/shell/output_buffer.h"
#include "tools/shell/sandbox.h"
#include "tools/shell/sealed_run.h"
#include "tools/shell/shell_analysis.h"
#include "tools/shell/shell_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "The exact command line, run as `bash -c <command>`."},
    "description": {"type": "string", "description": "A short description of what the command does and why, shown to the person who approves it."},
    "dir_path": {"type": "string", "description": "Directory to run the command in: absolute, or relative to the workspace root; it must be inside the workspace. Defaults to the workspace root."},
    "is_background": {"type": "boolean", "description": "Start the command in the background and return at once with its id, for servers, watchers and other commands that do not end by themselves. Defaults to false."}
  },
  "required": ["command"]
})";

constexpr size_t kLiveBytes = 4096;
constexpr auto kLiveInterval = std::chrono::milliseconds(250);
// What the editor keeps of a command's output in its terminal (the model reads at most this).
constexpr int64_t kEditorTerminalBytes = 4 * 1024 * 1024;

std::string toolDescription(const ShellOptions& shell) {
  std::string text =
      "Runs a command line as `bash -c <command>` and returns its output (stdout and stderr together, in the "
      "order written), its exit code or the signal that ended it, and its process group id. The command runs in "
      "its own process group with no terminal and stdin closed, so nothing can prompt for input: use "
      "non-interactive flags (--yes, --no-pager, ...). ";
  text += "Output longer than " + std::to_string(shell.maxOutputChars) +
          " characters is shortened to its beginning and end (lines mentioning errors or warnings in between are "
          "kept) and the whole output is saved to a file whose path is given. ";
  if (shell.inactivitySeconds > 0) {
    text += "A command that prints nothing for " + std::to_string(shell.inactivitySeconds) +
            " seconds is stopped. ";
  }
  text +=
      "For servers, watchers and other commands that keep running, set is_background to true (do not use `&`): "
      "the call returns at once with an id; list_background_processes and read_background_output show how it "
      "goes. Processes a command leaves running are reported as background PIDs. ";
  if (shell.sandbox) {
    text += "Commands run in a sandbox: only the workspace is writable (/tmp is private to the command)";
    text += shell.sandboxNetwork ? ". " : ", and there is no network. ";
  }
  return text;
}

std::string signalName(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(sig);
}

// The number of a signal as the editor names it ("SIGTERM", "TERM", "15"); 0 when none or unknown.
int signalNumber(const std::optional<std::string>& name) {
  if (!name || name->empty()) return 0;
  std::string bare = name->starts_with("SIG") ? name->substr(3) : *name;
  for (int sig = 1; sig < NSIG; ++sig) {
    const char* abbrev = ::sigabbrev_np(sig);
    if (abbrev && bare == abbrev) return sig;
  }
  int number = std::atoi(bare.c_str());
  return number > 0 && number < NSIG ? number : 0;
}

std::string joinPids(const std::vector<pid_t>& pids) {
  std::string text;
  for (pid_t pid : pids) text += (text.empty() ? "" : ", ") + std::to_string(pid);
  return text;
}

std::string timestamp() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
  return buf;
}

// What every command finds in its environment: it runs under an agent, and
// pagers must not wait for a terminal.
std::vector<std::pair<std::string, std::string>> commandMarkers() {
  return {{"GEMINI_CLI", "1"}, {"LATHE_AGENT", "1"}, {"PAGER", "cat"}, {"GIT_PAGER", "cat"}};
}

void trimTrailingNewlines(std::string& text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
}

class RunShellInvocation final : public ToolInvocation {
 public:
  RunShellInvocation(ToolContext context, ShellSetup shell, std::shared_ptr<shell::SealedFailures> sealedFailures,
                     std::string command, std::string description, std::string dir, bool background)
      : context_(std::move(context)),
        shell_(std::move(shell)),
        sealedFailures_(std::move(sealedFailures)),
        command_(std::move(command)),
        description_(std::move(description)),
        dir_(std::move(dir)),
        background_(background) {}

  std::string description() const override {
    std::string text = command_;
    if (dir_ != context_.workspace->cwd()) text += " [in " + context_.workspace->relative(dir_) + "]";
    if (!description_.empty()) text += " (" + description_ + ")";
    if (background_) text += " [background]";
    return text;
  }

  // The workspace files the line names (arguments that are existing files,
  // files it redirects into), so "follow the agent" opens what it touches;
  // never the folder it runs in.
  std::vector<Location> locations() const override {
    std::vector<Location> out;
    for (auto& path : namedFiles(shell::analyzeShellCommand(command_))) out.push_back(Location{std::move(path), std::nullopt});
    return out;
  }

  Result<std::optional<ConfirmationDetails>> shouldConfirmExecute(const CancelToken& cancel) override {
    shell::ShellAnalysis analysis = shell::analyzeShellCommand(command_, cancel);
    if (cancel.cancelled()) return makeError(Errc::cancelled, "cancelled");
    // "a & b & wait" waits for what it started: nothing is left to end with a sandbox.
    startsBackground_ = analysis.startsBackground &&
                        std::none_of(analysis.commands.begin(), analysis.commands.end(),
                                     [](const shell::CommandWords& c) { return c.name() == "wait"; });
    ExecConfirmation details = shell::execConfirmationFor(command_, analysis);
    if (details.readOnly) keepGuardedFilesAsked(analysis, details);
    if (details.readOnly) {
      Status sealable = shell::probeSealed();
      shell::askInsteadOfSealing(details, sealable ? std::string() : sealable.error().message,
                                 sealedFailures_->contains(command_));
    }
    return std::optional<ConfirmationDetails>{std::move(details)};
  }

  void setApproval(Approval approval) override { approval_ = approval; }
  void setTerminalView(TerminalView* view) override { view_ = view; }


  ToolResult execute(const CancelToken& cancel, const OutputSink& updateOutput) override {
    if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled before the command started");
    struct stat st {};
    if (::stat(dir_.c_str(), &st) != 0) {
      return ToolResult::failure(ErrorType::file_not_found, "Directory not found: " + dir_);
    }
    if (!S_ISDIR(st.st_mode)) return ToolResult::failure(ErrorType::not_a_directory, dir_ + " is not a directory");

    // A sealed line writes nothing; a background one goes on after its call.
    if (sealed() || background_ || !context_.changes) return run(cancel, updateOutput);
    auto mark = context_.changes->mark();
    ToolResult result = run(cancel, updateOutput);
    if (!mark) {
      result.displayNotes.push_back("Lathe could not take a snapshot of the workspace before this command (" +
                                    mark.error().message + "): what it changed cannot be undone.");
      return result;
    }
    auto changed = context_.changes->changedSince(*mark);
    if (!changed) {
      result.displayNotes.push_back("Lathe could not tell what this command changed (" + changed.error().message +
                                    "): its changes cannot be undone.");
      return result;
    }
    result.changedFiles = std::move(changed->diffs);
    for (auto& note : changed->notes) result.displayNotes.push_back(std::move(note));
    return result;
  }

 private:
  ToolResult run(const CancelToken& cancel, const OutputSink& updateOutput) {
    // An approved line may run in the editor's own terminal; never a sealed
    // one (it must run where it cannot do harm), nor under Lathe's sandbox.
    if (!sealed() && !background_ && !shell_.options.sandbox && shell_.options.editorTerminal && context_.terminals) {
      return runInEditorTerminal(cancel);
    }
    process::RunSpec spec;
    spec.cwd = dir_;
    spec.env.set = commandMarkers();
    if (sealed()) {
      // Nobody approved this line: it runs where it cannot do harm.
      if (Status probe = shell::probeSealed(); !probe) {
        return ToolResult::failure(ErrorType::execution_failed,
                                   "The command was not run: it was not approved, and " + probe.error().message);
      }
      shell::SealedPolicy policy;
      policy.readableRoots = context_.workspace->roots();
      // A line nobody approved may search the workspace (grep -r, cat *): it
      // sees files shaped like secrets as empty.
      policy.emptiedFiles = secretFilesUnder(policy.readableRoots);
      const char* home = std::getenv("HOME");
      policy.home = home ? home : "";
      spec.argv = shell::sealedArgv(policy, dir_, command_);
    } else if (shell_.options.sandbox) {
      if (Status probe = shell::probeSandbox(); !probe) {
        return ToolResult::failure(ErrorType::execution_failed, "The command was not run: " + probe.error().message);
      }
      shell::SandboxPolicy policy;
      policy.writableRoots = context_.workspace->roots();
      if (!context_.sessionDataDir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(context_.sessionDataDir, ec);
        if (!ec) policy.writableRoots.push_back(context_.sessionDataDir);
      }
      policy.network = shell_.options.sandboxNetwork;
      spec.argv = shell::sandboxArgv(policy, dir_, command_);
    } else {
      spec.argv = process::bashArgv(command_);
    }
    return background_ ? runInBackground(std::move(spec)) : runInForeground(spec, cancel, updateOutput);
  }

  // The workspace files the line names, at most a few dozen: its commands'
  // arguments that are existing files (or folders, when asked), and what it
  // writes through redirections.
  std::vector<std::string> namedFiles(const shell::ShellAnalysis& analysis, bool folders = false) const {
    constexpr size_t kMaxFiles = 20;
    std::vector<std::pair<std::string, bool>> named;  // word, written by the line
    for (const auto& command : analysis.commands) {
      for (size_t i = 1; i < command.words.size(); ++i) {
        if (!command.words[i].empty() && command.words[i][0] != '-') named.emplace_back(command.words[i], false);
      }
    }
    for (const auto& file : analysis.writtenFiles) named.emplace_back(file, true);
    std::vector<std::string> out;
    for (const auto& [word, written] : named) {
      auto path = context_.workspace->resolve(word.front() == '/' ? word : dir_ + "/" + word);
      if (!path) continue;
      std::error_code ec;
      const bool shown = std::filesystem::is_regular_file(*path, ec) || (folders && std::filesystem::is_directory(*path, ec));
      if (!written && !shown) continue;
      if (std::find(out.begin(), out.end(), *path) == out.end()) out.push_back(std::move(*path));
      if (out.size() == kMaxFiles) break;
    }
    return out;
  }

  // A line that only reads still runs unasked only when it names no file the
  // person keeps from the model (secrets, what git ignores, .git): otherwise
  // it is asked about, saying which.
  void keepGuardedFilesAsked(const shell::ShellAnalysis& analysis, ExecConfirmation& details) const {
    for (const auto& path : namedFiles(analysis, true)) {
      std::string why = guardedReadReason(*context_.workspace, path, std::filesystem::is_directory(path));
      if (why.empty()) continue;
      details.readOnly = false;
      details.note += (details.note.empty() ? "" : "\n") + std::string("It reads ") + context_.workspace->relative(path) +
                      ": " + why + ".";
    }
  }


  bool sealed() const { return approval_ == Approval::judged; }
  // Under bubblewrap (either kind), the pid namespace dies with the shell.
  bool sandboxed() const { return sealed() || shell_.options.sandbox; }

  std::string outputDir() const {
    return context_.sessionDataDir.empty() ? std::string() : context_.sessionDataDir + "/shell-output";
  }

  ToolResult runInBackground(process::RunSpec spec) {
    if (!shell_.background) {
      return ToolResult::failure(ErrorType::execution_failed, "Background commands are not available in this session");
    }
    auto started = shell_.background->start(std::move(spec), command_, outputDir());
    if (!started) {
      return ToolResult::failure(ErrorType::execution_failed, "Could not start the command: " + started.error().message);
    }
    std::string id = std::to_string(started->id);
    std::string llm = "Started in the background with id " + id + ".\nCommand: " + command_ + "\nDirectory: " + dir_ +
                      "\nProcess Group PGID: " + id +
                      "\nRead its output with read_background_output (id " + id +
                      "); list_background_processes shows whether it still runs. It is stopped when the session "
                      "ends";
    llm += sandboxed() ? ".\n" : "; to stop it sooner, run `kill -- -" + id + "`.\n";
    if (sealed()) llm += shell::sealedNoteForModel(false) + "\n";
    return ToolResult::text(std::move(llm), "Started in the background (id " + id + ")");
  }

  // How a foreground run went, for the model and the person.
  struct Ran {
    std::string output;  // the model's text of it (head and tail)
    process::RunExit exit;
    std::optional<pid_t> pgid;  // a process group of Lathe's; none in the editor's terminal
    std::string terminalId;     // the editor's terminal it ran in
    std::vector<pid_t> leftovers;
    std::optional<int64_t> adoptedId;
    bool stoppedWithSandbox = false;
    bool shownInTerminal = false;  // the person saw the output in a terminal: the card shows only how it ended
  };

  shell::OutputBufferOptions bufferOptions(const std::string& stem) const {
    shell::OutputBufferOptions options;
    options.maxChars = static_cast<size_t>(std::max<int64_t>(shell_.options.maxOutputChars, 100));
    options.saveDir = outputDir();
    options.saveStem = "shell-" + timestamp() + "-" + stem;
    return options;
  }

  ToolResult runInForeground(const process::RunSpec& spec, const CancelToken& cancel, const OutputSink& updateOutput) {
    auto spawned = process::ProcessRunner::spawn(spec);
    if (!spawned) {
      return ToolResult::failure(ErrorType::execution_failed, "Could not start the command: " + spawned.error().message);
    }
    std::unique_ptr<process::ProcessRunner> runner = std::move(spawned).value();
    const pid_t pgid = runner->pgid();
    shell::OutputBuffer buffer(bufferOptions(std::to_string(pgid)));
    // An editor that shows display-only terminals gets the output as it comes;
    // others a snapshot of its end now and then.
    TerminalView* terminal = view_ && view_->streams() ? view_ : nullptr;
    if (terminal) terminal->start(dir_);

    uint64_t shown = 0;
    process::WaitOptions wait;
    if (shell_.options.inactivitySeconds > 0) wait.inactivity = std::chrono::seconds(shell_.options.inactivitySeconds);
    wait.tickInterval = kLiveInterval;
    wait.onTick = [&] {
      if (terminal) return terminal->flush();
      if (!updateOutput || buffer.totalBytes() == shown) return;
      shown = buffer.totalBytes();
      updateOutput(buffer.recent(kLiveBytes));
    };
    Ran ran;
    ran.pgid = pgid;
    ran.shownInTerminal = terminal != nullptr;
    ran.exit = runner->waitForExit(cancel, wait, [&](std::string_view chunk) {
      buffer.append(chunk);
      if (terminal) terminal->write(chunk);
    });
    const process::RunExit& exit = ran.exit;
    if (terminal) terminal->exit(exit.exitCode, exit.signal ? std::optional<std::string>(signalName(exit.signal)) : std::nullopt);

    // Processes the command left running (`server &`): reported, and kept
    // track of by the session so they end with it.
    // In a sandbox, what the line started in the background dies with its pid
    // namespace, often before it can be seen: the parse tells.
    ran.stoppedWithSandbox = sandboxed() && startsBackground_ && !exit.cancelled && !exit.timedOut;
    if (!exit.cancelled && !exit.timedOut && runner->groupAlive()) {
      if (sandboxed()) {
        // Its pid namespace is being torn down with the shell: make sure of it.
        runner->killTree(std::chrono::milliseconds(500));
        ran.stoppedWithSandbox = true;
      } else {
        ran.leftovers = runner->leftovers();
      }
    }
    buffer.finish();
    ran.output = buffer.modelText();
    if (!ran.leftovers.empty() && shell_.background) {
      auto adopted = shell_.background->adopt(std::move(runner), command_, dir_, buffer.recent(64 * 1024), outputDir());
      if (adopted) ran.adoptedId = adopted->id;
    }
    return describe(std::move(ran));
  }

  // The line in the editor's terminal (terminal/create): the editor shows it
  // running; Lathe waits for its end, watching for silence (by reading its
  // output now and then), and kills it on cancel or inactivity. What it
  // printed reaches the model as a command's output does.
  ToolResult runInEditorTerminal(const CancelToken& cancel) {
    TerminalHost& host = *context_.terminals;
    acp::CreateTerminalRequest request;
    request.command = "bash";
    request.args = {"-c", command_};
    request.cwd = dir_;
    request.env = commandMarkers();
    request.outputByteLimit = kEditorTerminalBytes;
    auto created = host.create(std::move(request), cancel);
    if (!created) {
      if (cancel.cancelled()) return ToolResult::failure(ErrorType::cancelled, "Cancelled before the command started");
      return ToolResult::failure(ErrorType::execution_failed,
                                 "Could not start the command in the editor's terminal: " + created.error().message);
    }
    const std::string id = std::move(created).value();
    if (view_) view_->embed(id);

    Ran ran;
    ran.terminalId = id;
    ran.shownInTerminal = true;
    const auto inactivity = std::chrono::seconds(std::max<int64_t>(shell_.options.inactivitySeconds, 0));
    // Silence is looked for this often (a fifth of the limit, 1 to 30 s).
    const auto look = inactivity.count() > 0
                          ? std::clamp<std::chrono::milliseconds>(inactivity / 5, std::chrono::seconds(1), std::chrono::seconds(30))
                          : std::chrono::milliseconds(std::chrono::seconds(30));
    std::string seen;
    auto lastChange = std::chrono::steady_clock::now();
    std::string failure;
    for (;;) {
      auto waited = host.waitForExit(id, look, cancel);
      if (waited && *waited) {
        ran.exit.exitCode = (*waited)->exitCode ? std::optional<int>(static_cast<int>(*(*waited)->exitCode)) : std::nullopt;
        ran.exit.signal = signalNumber((*waited)->signal);
        break;
      }
      if (!waited) {
        if (cancel.cancelled()) {
          ran.exit.cancelled = true;
        } else {
          failure = waited.error().message;
        }
        break;
      }
      if (inactivity.count() == 0) continue;
      auto now = host.output(id);
      if (!now) {
        failure = now.error().message;
        break;
      }
      if (now->exitStatus) continue;  // ended: the next wait says how
      if (now->output != seen) {
        seen = std::move(now->output);
        lastChange = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - lastChange >= inactivity) {
        ran.exit.timedOut = true;
        break;
      }
    }
    if (ran.exit.cancelled || ran.exit.timedOut || !failure.empty()) (void)host.kill(id);
    auto last = host.output(id);
    (void)host.release(id);
    if (!failure.empty()) {
      return ToolResult::failure(ErrorType::execution_failed,
                                 "Lost the command in the editor's terminal: " + failure + "; it was killed");
    }
    shell::OutputBuffer buffer(bufferOptions("terminal"));
    if (last) {
      if (last->truncated) buffer.append("[the editor kept only the end of the output]\n");
      buffer.append(last->output);
    }
    buffer.finish();
    ran.output = buffer.modelText();
    return describe(std::move(ran));
  }

  ToolResult describe(Ran ran) {
    const process::RunExit& exit = ran.exit;
    std::string output = std::move(ran.output);
    trimTrailingNewlines(output);
    std::string llm = "Command: " + command_ + "\nDirectory: " + dir_ + "\n" + kUntrustedOutputNote + "\nOutput: " +
                      (output.empty() ? "(empty)" : output) + "\n";
    std::string status;
    if (exit.cancelled) {
      llm += ran.pgid ? "Error: the command was cancelled; its whole process tree was killed.\n"
                      : "Error: the command was cancelled; the editor's terminal was told to kill it.\n";
      status = "[cancelled]";
    } else if (exit.timedOut) {
      llm += "Error: the command printed nothing for " + std::to_string(shell_.options.inactivitySeconds) +
             " seconds and was stopped; " + (ran.pgid ? "its whole process tree was killed.\n" : "the editor's terminal was told to kill it.\n");
      status = "[stopped: no output for " + std::to_string(shell_.options.inactivitySeconds) + " s]";
    }
    if (exit.exitCode && !exit.cancelled && !exit.timedOut) {
      llm += "Exit Code: " + std::to_string(*exit.exitCode) + "\n";
      if (*exit.exitCode != 0) status = "[exit code " + std::to_string(*exit.exitCode) + "]";
    }
    if (exit.signal != 0) {
      llm += "Signal: " + std::to_string(exit.signal) + " (" + signalName(exit.signal) + ")\n";
      if (status.empty()) status = "[ended by " + signalName(exit.signal) + "]";
    }
    if (!exit.exitCode && exit.signal == 0 && !exit.cancelled && !exit.timedOut) {
      llm += "Exit Code: (unknown)\n";
    }
    if (!ran.leftovers.empty()) {
      llm += "Background PIDs: " + joinPids(ran.leftovers);
      if (ran.adoptedId) {
        llm += " (still running; listed by list_background_processes as id " + std::to_string(*ran.adoptedId) +
               ", stopped when the session ends)";
      } else {
        llm += " (still running)";
      }
      llm += "\n";
      status += std::string(status.empty() ? "" : " ") + "[left running: " + joinPids(ran.leftovers) + "]";
    }
    if (ran.stoppedWithSandbox) {
      llm += "Anything this line left running in the background (started with `&` or the like) ended with its "
             "sandbox when the line finished. To keep one running, start it with is_background set to true";
      llm += sealed() && !shell_.options.sandbox ? "; or run the same line again to have the person approve it, "
                                                   "and it runs unsealed, keeping what it starts.\n"
                                                 : ".\n";
      status += std::string(status.empty() ? "" : " ") + "[background processes ended with the sandbox]";
    }
    llm += ran.pgid ? "Process Group PGID: " + std::to_string(*ran.pgid) : "Ran in the editor's terminal " + ran.terminalId;
    if (sealed()) {
      bool failed = !exit.cancelled && (exit.signal != 0 || exit.timedOut || exit.exitCode.value_or(1) != 0);
      // Either way the seal got in its way: the same line is asked about next time.
      if (failed || ran.stoppedWithSandbox) sealedFailures_->add(command_);
      llm += "\n" + shell::sealedNoteForModel(failed);
      status += std::string(status.empty() ? "" : " ") + shell::kSealedDisplay;
    }

    // Shown in a terminal, the output is there already: the card says how it ended.
    std::string display = ran.shownInTerminal ? status : (output.empty() ? "(no output)" : output);
    if (!ran.shownInTerminal && !status.empty()) display += "\n" + status;
    ToolResult result = ToolResult::text(std::move(llm), std::move(display));
    if (exit.cancelled) result.error = ToolError{ErrorType::cancelled, "The command was cancelled"};
    // The bare output and how the line ended, for a custom command's !{…}.
    result.data = json::Raw{json::buildObject([&](json::Writer& w) {
      json::put(w, "output", output);
      json::key(w, "exitCode");
      if (exit.exitCode) w.Int64(*exit.exitCode); else w.Null();
      json::key(w, "signal");
      if (exit.signal != 0) json::str(w, signalName(exit.signal)); else w.Null();
      json::put(w, "stopped", exit.cancelled || exit.timedOut);
    })};
    return result;
  }

  ToolContext context_;
  ShellSetup shell_;
  std::shared_ptr<shell::SealedFailures> sealedFailures_;
  TerminalView* view_ = nullptr;   // during execute, when the scheduler gives one
  bool startsBackground_ = false;  // from the parse the confirmation made
  std::string command_;
  std::string description_;
  std::string dir_;
  bool background_;
  Approval approval_ = Approval::judged;  // until the scheduler says a person approved it
};

class RunShellCommandTool final : public Tool {
 public:
  RunShellCommandTool(ToolContext context, ShellSetup shell)
      : Tool(ToolInfo{.name = "run_shell_command",
                      .displayName = "Shell",
                      .description = toolDescription(shell.options),
                      .kind = Kind::execute,
                      .parametersSchema = kSchema,
                      .isOutputMarkdown = false,
                      .canUpdateOutput = true}),
        context_(std::move(context)),
        shell_(std::move(shell)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    std::string command = r.str("command");
    std::string description = r.optStr("description").value_or("");
    auto dir = r.optStr("dir_path");
    if (!dir) dir = r.optStr("directory");  // older name
    bool background = r.optBool("is_background").value_or(false);
    if (!r.ok()) return invalidParams(r.error().message);
    if (command.find_first_not_of(" \t\r\n") == std::string::npos) {
      return invalidParams("params.command: must not be empty");
    }
    std::string cwd = context_.workspace->cwd();
    if (dir && !dir->empty()) {
      auto resolved = resolveToolPath(*context_.workspace, *dir);
      if (resolved.error) return {nullptr, resolved.error};
      cwd = resolved.path;
    }
    return {std::make_unique<RunShellInvocation>(context_, shell_, sealedFailures_, std::move(command),
                                                 std::move(description), std::move(cwd), background),
            std::nullopt};
  }

 private:
  ToolContext context_;
  ShellSetup shell_;
  // This session's lines that failed sealed (one tool per session).
  std::shared_ptr<shell::SealedFailures> sealedFailures_ = std::make_shared<shell::SealedFailures>();
};

}  // namespace

std::unique_ptr<Tool> makeRunShellCommandTool(const ToolContext& context, const ShellSetup& shell) {
  return std::make_unique<RunShellCommandTool>(context, shell);
}

}  // namespace lathe::tools
