// Headless mode. The turn runs on its own thread; this thread waits for it.
// Ctrl-C (or SIGTERM) cancels the turn.
#include "server/headless.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <mutex>
#include <optional>

#include "engine/agent/session_manager.h"
#include "protocol/exec/signal_watcher.h"
#include "server/terminal_diff.h"

namespace lathe::server {
namespace {

// Prints session updates for a terminal. stdout carries only the answer.
class TerminalClient final : public engine::EditorClient {
 public:
  void sendUpdate(const std::string&, const acp::SessionUpdate& update) override {
    std::lock_guard lock(mutex_);
    if (auto* chunk = std::get_if<acp::MessageChunk>(&update)) {
      if (chunk->role == acp::MessageChunk::Role::agent) {
        std::fwrite(chunk->text.data(), 1, chunk->text.size(), stdout);  // stdout-ok: headless answer
        std::fflush(stdout);
        answerOpen_ = !chunk->text.empty() && chunk->text.back() != '\n';
      } else if (chunk->role == acp::MessageChunk::Role::thought) {
        info(dim("(thinking) " + chunk->text));
      }
    } else if (auto* call = std::get_if<acp::ToolCall>(&update)) {
      info("> " + call->title);
    } else if (auto* change = std::get_if<acp::ToolCallUpdate>(&update)) {
      if (!change->status || *change->status == acp::ToolCallStatus::in_progress) return;
      std::string text;
      if (change->content) {
        for (const auto& item : *change->content) text += item.type == acp::ToolCallContent::Type::diff ? "edited " + item.path : item.text;
      } else if (change->locations && !change->locations->empty()) {
        text = "edited " + change->locations->front().path;  // an approved edit: its diff was in the question
      }
      info(std::string(*change->status == acp::ToolCallStatus::completed ? "  ok: " : "  failed: ") + text);
    }
  }

  // Asks on the terminal when there is one; otherwise no one can say yes.
  Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest& request,
                                                           const CancelToken& cancel) override {
    if (!::isatty(STDIN_FILENO)) {
      return makeError(Errc::auth_required,
                       "no terminal to ask for permission; run with --approval-mode autoEdit or yolo to allow it");
    }
    std::string question = "Allow " + request.toolCall.title.value_or("this tool call") + "?\n";
    if (request.toolCall.content) {
      for (const auto& item : *request.toolCall.content) {
        question += item.type == acp::ToolCallContent::Type::diff
                        ? "Edit of " + item.path + ":\n" + terminalDiff(item.oldText, item.newText, ::isatty(STDERR_FILENO))
                        : "  " + item.text + "\n";
      }
    }
    for (size_t i = 0; i < request.options.size(); ++i) {
      question += "  " + std::to_string(i + 1) + ") " + request.options[i].name + "\n";
    }
    question += "Choice: ";
    // One question at a time (parallel calls may ask together), and Ctrl-C
    // ends the wait: stdin is polled, never read blocking.
    std::lock_guard asking(askMutex_);
    {
      std::lock_guard lock(mutex_);
      info(question);
    }
    std::string line;
    acp::RequestPermissionResponse response;
    for (;;) {
      if (cancel.cancelled()) return response;  // cancelled outcome
      pollfd in{STDIN_FILENO, POLLIN, 0};
      if (::poll(&in, 1, 100) <= 0) continue;
      char c = 0;
      if (::read(STDIN_FILENO, &c, 1) != 1 || c == '\n') break;
      line += c;
    }
    size_t pick = std::strtoul(line.c_str(), nullptr, 10);
    if (pick >= 1 && pick <= request.options.size()) {
      response.cancelled = false;
      response.optionId = request.options[pick - 1].optionId;
    }
    return response;
  }

  acp::ClientCapabilities capabilities() const override { return {}; }
  Result<std::string> readTextFile(const std::string&, const std::string& path, const CancelToken&) override {
    return makeError(Errc::internal, "headless mode has no editor buffers (" + path + ")");
  }
  Status writeTextFile(const std::string&, const std::string& path, const std::string&, const CancelToken&) override {
    return makeError(Errc::internal, "headless mode has no editor buffers (" + path + ")");
  }

  void finishAnswer() {
    std::lock_guard lock(mutex_);
    if (answerOpen_) std::fputs("\n", stdout);  // stdout-ok: headless answer
    std::fflush(stdout);
  }

 private:
  void info(const std::string& line) {
    if (answerOpen_) {
      std::fputs("\n", stdout);  // stdout-ok: headless answer
      std::fflush(stdout);
      answerOpen_ = false;
    }
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::string dim(const std::string& text) const {
    return ::isatty(STDERR_FILENO) ? "\x1b[2m" + text + "\x1b[0m" : text;
  }

  std::mutex mutex_;
  std::mutex askMutex_;
  bool answerOpen_ = false;
};

}  // namespace

int runHeadless(const HeadlessOptions& options, engine::AgentConfig config) {
  config.interactive = ::isatty(STDIN_FILENO);  // without a terminal nobody can be asked
  TerminalClient terminal;
  engine::SessionManager sessions(std::move(config), terminal);
  // Ctrl-C and SIGTERM arrive on the executor's reactor and cancel the turn
  // (one that comes before the turn starts cancels it as soon as it has).
  std::mutex signalMutex;
  std::optional<std::string> turn;
  bool interrupted = false;
  exec::SignalWatcher watcher(exec::Executor::shared(), {SIGINT, SIGTERM}, [&](int) {
    std::lock_guard lock(signalMutex);
    interrupted = true;
    if (turn) (void)sessions.cancel(*turn);
  });
  acp::NewSessionRequest newSession;
  newSession.cwd = options.cwd;
  auto opened = sessions.newSession(newSession);
  if (!opened) {
    std::fprintf(stderr, "lathe: %s\n", opened.error().message.c_str());
    return 1;
  }
  const std::string sessionId = opened->id;
  opened->opening = {};  // nobody else names it: no request waits

  std::promise<Result<acp::StopReason>> finished;
  auto outcome = finished.get_future();
  acp::PromptRequest prompt;
  prompt.sessionId = sessionId;
  prompt.prompt.push_back(acp::TextBlock{options.prompt});
  auto started = sessions.startPrompt(prompt, [&](Result<acp::PromptResponse> result) {
    if (!result) return finished.set_value(result.error());
    finished.set_value(result->stopReason);
  });
  if (!started) {
    std::fprintf(stderr, "lathe: %s\n", started.error().message.c_str());
    return 1;
  }

  {
    std::lock_guard lock(signalMutex);
    turn = sessionId;
    if (interrupted) (void)sessions.cancel(*turn);
  }
  Result<acp::StopReason> result = outcome.get();
  terminal.finishAnswer();

  if (!result) {
    std::fprintf(stderr, "lathe: %s\n", result.error().message.c_str());
    return 1;
  }
  switch (*result) {
    case acp::StopReason::end_turn: return 0;
    case acp::StopReason::cancelled: std::fprintf(stderr, "lathe: cancelled\n"); return 130;
    default: std::fprintf(stderr, "lathe: the turn stopped: %s\n", acp::toString(*result)); return 3;
  }
}

}  // namespace lathe::server
