// list_background_processes and read_background_output: the model's view of
// the session's background commands. Read-only; run on a worker thread.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "tools/core/untrusted_text.h"
#include "tools/shell/background_processes.h"
#include "tools/shell/shell_tools.h"

namespace lathe::tools {
namespace {

constexpr const char* kListSchema = R"({"type": "object", "properties": {}})";

constexpr const char* kReadSchema = R"({
  "type": "object",
  "properties": {
    "pid": {"type": "integer", "description": "The process id of the background command (as given when it started, or by list_background_processes)."},
    "id": {"type": "integer", "description": "Older name of pid."},
    "lines": {"type": "integer", "minimum": 1, "description": "How many of the last lines to show. Defaults to 100."},
    "delay_ms": {"type": "integer", "minimum": 0, "description": "Wait this long first (at most 30000 ms), e.g. to let a server start and print something."}
  }
})";

constexpr int64_t kDefaultLines = 100;
constexpr int64_t kMaxDelayMs = 30'000;

std::string ago(std::chrono::system_clock::time_point when) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now() - when).count();
  if (seconds < 120) return std::to_string(std::max<int64_t>(seconds, 0)) + " s ago";
  if (seconds < 7200) return std::to_string(seconds / 60) + " min ago";
  return std::to_string(seconds / 3600) + " h ago";
}

std::string statusText(const shell::BackgroundInfo& info) {
  if (info.running) return "RUNNING";
  if (info.killed) return "KILLED";
  if (info.signal != 0) return "ENDED (signal " + std::to_string(info.signal) + ")";
  if (info.exitCode) return "EXITED (exit code " + std::to_string(*info.exitCode) + ")";
  return "EXITED";
}

std::string describe(const shell::BackgroundInfo& info) {
  return "[id " + std::to_string(info.id) + "] " + statusText(info) + ": `" + info.command + "` (in " + info.cwd +
         ", started " + ago(info.started) + ", " + std::to_string(info.outputBytes) + " bytes of output)";
}

class ListInvocation final : public ToolInvocation {
 public:
  explicit ListInvocation(ShellSetup context) : context_(std::move(context)) {}
  std::string description() const override { return "List background commands"; }

  ToolResult execute(const CancelToken&, const OutputSink&) override {
    std::vector<shell::BackgroundInfo> infos;
    if (context_.background) infos = context_.background->list();
    if (infos.empty()) return ToolResult::text("No background processes in this session.", "No background processes");
    std::string text;
    for (const auto& info : infos) text += "- " + describe(info) + "\n";
    text.pop_back();
    return ToolResult::text(text, text);
  }

 private:
  ShellSetup context_;
};

class ReadInvocation final : public ToolInvocation {
 public:
  ReadInvocation(ShellSetup context, int64_t id, int64_t lines, int64_t delayMs)
      : context_(std::move(context)), id_(id), lines_(lines), delayMs_(delayMs) {}

  std::string description() const override { return "Read the output of background command " + std::to_string(id_); }

  ToolResult execute(const CancelToken& cancel, const OutputSink&) override {
    if (!context_.background || !context_.background->info(id_)) {
      return ToolResult::failure(ErrorType::invalid_params, "No background command with id " + std::to_string(id_) +
                                                                " in this session; list_background_processes shows them");
    }
    if (delayMs_ > 0 && !waitOrCancel(cancel)) return ToolResult::failure(ErrorType::cancelled, "Cancelled");
    auto output = context_.background->readOutput(id_, static_cast<size_t>(lines_),
                                                  static_cast<size_t>(std::max<int64_t>(context_.options.maxOutputChars, 100)));
    if (!output) return ToolResult::failure(ErrorType::execution_failed, output.error().message);
    std::string text = describe(output->info) + "\n";
    if (output->text.empty()) {
      text += "No output yet.";
    } else {
      if (output->linesShown < output->linesKept || output->olderDropped) {
        text += "Showing the last " + std::to_string(output->linesShown) + " lines";
        if (!output->info.logPath.empty()) text += " (all of its output is in " + output->info.logPath + ")";
        text += ":\n";
      } else {
        text += "All of its output (" + std::to_string(output->linesShown) + " lines):\n";
      }
      std::string display = text + output->text;
      text += std::string(kUntrustedOutputNote) + "\n" + output->text;
      while (!text.empty() && text.back() == '\n') text.pop_back();
      while (!display.empty() && display.back() == '\n') display.pop_back();
      return ToolResult::text(std::move(text), std::move(display));
    }
    return ToolResult::text(text, text);
  }

 private:
  bool waitOrCancel(const CancelToken& cancel) const {
    auto state = std::make_shared<std::pair<std::mutex, std::condition_variable>>();
    auto registration = cancel.onCancel([state] {
      std::lock_guard lock(state->first);
      state->second.notify_all();
    });
    std::unique_lock lock(state->first);
    state->second.wait_for(lock, std::chrono::milliseconds(std::min(delayMs_, kMaxDelayMs)),
                           [&] { return cancel.cancelled(); });
    return !cancel.cancelled();
  }

  ShellSetup context_;
  int64_t id_;
  int64_t lines_;
  int64_t delayMs_;
};

class ListBackgroundProcessesTool final : public Tool {
 public:
  explicit ListBackgroundProcessesTool(ShellSetup context)
      : Tool(ToolInfo{.name = "list_background_processes",
                      .displayName = "List Background Processes",
                      .description =
                          "Lists this session's background commands (started by run_shell_command with is_background, "
                          "or left running by a command): id, whether each still runs or how it ended, the command, "
                          "and how much output it printed.",
                      .kind = Kind::read,
                      .parametersSchema = kListSchema,
                      .isOutputMarkdown = false}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value&) const override {
    return {std::make_unique<ListInvocation>(context_), std::nullopt};
  }

 private:
  ShellSetup context_;
};

class ReadBackgroundOutputTool final : public Tool {
 public:
  explicit ReadBackgroundOutputTool(ShellSetup context)
      : Tool(ToolInfo{.name = "read_background_output",
                      .displayName = "Read Background Output",
                      .description =
                          "Shows the most recent output (stdout and stderr together) of a background command of this "
                          "session, by its id, and whether it still runs.",
                      .kind = Kind::read,
                      .parametersSchema = kReadSchema,
                      .isOutputMarkdown = false}),
        context_(std::move(context)) {}

 protected:
  BuildResult createInvocation(const json::Value& params) const override {
    json::Reader r(&params, "params");
    auto pid = r.optInt64("pid");
    if (!pid) pid = r.optInt64("id");  // older name
    if (r.ok() && !pid) return invalidParams("params.pid: required");
    int64_t id = pid.value_or(0);
    int64_t lines = r.optInt64("lines").value_or(kDefaultLines);
    int64_t delay = r.optInt64("delay_ms").value_or(0);
    if (!r.ok()) return invalidParams(r.error().message);
    return {std::make_unique<ReadInvocation>(context_, id, std::max<int64_t>(lines, 1), std::max<int64_t>(delay, 0)),
            std::nullopt};
  }

 private:
  ShellSetup context_;
};

}  // namespace

std::unique_ptr<Tool> makeListBackgroundProcessesTool(const ShellSetup& shell) {
  return std::make_unique<ListBackgroundProcessesTool>(shell);
}

std::unique_ptr<Tool> makeReadBackgroundOutputTool(const ShellSetup& shell) {
  return std::make_unique<ReadBackgroundOutputTool>(shell);
}

}  // namespace lathe::tools
