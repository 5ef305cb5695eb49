// Tool call execution and its mapping to ACP tool_call / tool_call_update.
#include "engine/scheduler/tool_scheduler.h"

#include <algorithm>
#include <chrono>
#include <system_error>
#include <thread>

#include "engine/scheduler/call_state.h"
#include "engine/scheduler/permission_options.h"

namespace lathe::engine {
namespace {

constexpr auto kOutputInterval = std::chrono::milliseconds(200);
constexpr int kMaxTailDepth = 5;

acp::ToolKind toAcpKind(tools::Kind kind) {
  switch (kind) {
    case tools::Kind::read: return acp::ToolKind::read;
    case tools::Kind::edit: return acp::ToolKind::edit;
    case tools::Kind::del: return acp::ToolKind::del;
    case tools::Kind::move: return acp::ToolKind::move;
    case tools::Kind::search: return acp::ToolKind::search;
    case tools::Kind::execute: return acp::ToolKind::execute;
    case tools::Kind::think:
    case tools::Kind::plan: return acp::ToolKind::think;
    case tools::Kind::fetch: return acp::ToolKind::fetch;
    case tools::Kind::switch_mode: return acp::ToolKind::switch_mode;
    case tools::Kind::agent:
    case tools::Kind::communicate:
    case tools::Kind::other: return acp::ToolKind::other;
  }
  return acp::ToolKind::other;
}

json::Raw responseJson(const char* field, const std::string& text) {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, field, text);
    w.EndObject();
  })};
}

acp::ToolCallContent textContent(std::string text) {
  acp::ToolCallContent content;
  content.text = std::move(text);
  return content;
}

acp::ToolCallContent diffContent(const tools::FileDiff& diff) {
  acp::ToolCallContent content;
  content.type = acp::ToolCallContent::Type::diff;
  content.path = diff.path;
  content.oldText = diff.oldText;
  content.newText = diff.newText;
  return content;
}

// What the person sees in a permission request for each confirmation type.
std::vector<acp::ToolCallContent> confirmationContent(const tools::ConfirmationDetails& details) {
  if (auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
    if (edit->sensitive.empty()) return {diffContent(edit->diff)};
    return {diffContent(edit->diff), textContent("Asked even when edits are allowed: " + edit->sensitive + ".")};
  }
  if (auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
    std::string text = "$ " + exec->command;
    std::vector<std::string> names;
    for (const auto& words : exec->commands) {
      std::string name = words.empty() ? "(a computed command)" : words.front();
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    if (!names.empty()) {
      text += "\nRuns: ";
      for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + names[i];
    }
    if (!exec->understood) text += "\n(Lathe could not fully understand this command line: judge it yourself.)";
    if (!exec->note.empty()) text += "\n" + exec->note;
    return {textContent(text)};
  }
  if (auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
    return {textContent("MCP tool " + mcp->toolName + " from server " + mcp->serverName)};
  }
  const auto& info = std::get<tools::InfoConfirmation>(details);
  std::string text = info.prompt;
  for (const auto& url : info.urls) text += "\n- " + url;
  return {textContent(text)};
}

}  // namespace

// One call's journey through its states, and its reports to the editor.
class ToolScheduler::CallRun {
 public:
  CallRun(ToolScheduler& owner, const FunctionCall& call)
      : owner_(owner), id_(owner.nextCallId()) {
    outcome_.response.id = call.id;
    outcome_.response.name = call.name;
  }

  const std::string& id() const { return id_; }
  CallState state() const { return machine_.state(); }

  // Ends the call with a message for the model and the person.
  Outcome finish(CallState final, const std::string& message) {
    machine_.advance(final);
    outcome_.response.response = responseJson("error", message);
    acp::ToolCallUpdate update;
    update.toolCallId = id_;
    update.status = toAcpStatus(machine_.state());
    update.content = std::vector<acp::ToolCallContent>{textContent(message)};
    owner_.editor_.sendUpdate(owner_.sessionId_, update);
    return std::move(outcome_);
  }

  void moveTo(CallState next) {
    if (!machine_.advance(next)) return;
    if (next != CallState::executing) return;
    acp::ToolCallUpdate update;
    update.toolCallId = id_;
    update.status = toAcpStatus(next);
    owner_.editor_.sendUpdate(owner_.sessionId_, update);
  }

  // Live output, throttled; the final result replaces it.
  void output(const std::string& text) {
    auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(outputMutex_);
    if (now - lastOutput_ < kOutputInterval) return;
    lastOutput_ = now;
    acp::ToolCallUpdate update;
    update.toolCallId = id_;
    update.content = std::vector<acp::ToolCallContent>{textContent(text)};
    owner_.editor_.sendUpdate(owner_.sessionId_, update);
  }

  Outcome succeed(tools::ToolResult& result) {
    machine_.advance(CallState::success);
    std::string text;
    for (auto& part : result.llmContent) {
      if (part.isInline()) {
        Part inlinePart;
        inlinePart.inlineData = InlineData{part.mimeType, std::move(part.data)};
        outcome_.inlineParts.push_back(std::move(inlinePart));
        text += (text.empty() ? "" : "\n") + std::string("[") + part.mimeType + " content attached below]";
      } else {
        text += part.text;
      }
    }
    outcome_.response.response = responseJson("output", text);
    acp::ToolCallUpdate done;
    done.toolCallId = id_;
    done.status = acp::ToolCallStatus::completed;
    std::vector<acp::ToolCallContent> content;
    if (auto* diff = std::get_if<tools::FileDiff>(&result.returnDisplay)) {
      content.push_back(diffContent(*diff));
    } else if (auto* display = std::get_if<std::string>(&result.returnDisplay); display && !display->empty()) {
      content.push_back(textContent(*display));
    }
    for (auto& note : result.displayNotes) content.push_back(textContent(std::move(note)));
    done.content = std::move(content);
    owner_.editor_.sendUpdate(owner_.sessionId_, done);
    return std::move(outcome_);
  }

 private:
  ToolScheduler& owner_;
  std::string id_;
  CallStateMachine machine_;
  Outcome outcome_;
  std::mutex outputMutex_;
  std::chrono::steady_clock::time_point lastOutput_{};
};

ToolScheduler::ToolScheduler(const tools::ToolRegistry& registry, EditorClient& editor, std::string sessionId,
                             const std::atomic<ApprovalMode>& mode, SessionApprovals configured)
    : registry_(registry),
      editor_(editor),
      sessionId_(std::move(sessionId)),
      mode_(mode),
      approvals_(std::move(configured)) {}

std::string ToolScheduler::nextCallId() { return "call_" + std::to_string(++nextId_); }

bool ToolScheduler::isReadOnlyCall(const FunctionCall& call) const {
  const tools::Tool* tool = registry_.find(call.name);
  return tool && tool->isReadOnly();
}

std::vector<Part> ToolScheduler::run(const std::vector<FunctionCall>& calls, const CancelToken& cancel) {
  std::vector<Outcome> outcomes(calls.size());
  size_t i = 0;
  while (i < calls.size()) {
    size_t end = i + 1;
    if (isReadOnlyCall(calls[i])) {
      while (end < calls.size() && isReadOnlyCall(calls[end])) ++end;
    }
    std::vector<std::thread> workers;
    for (size_t k = i; k < end; ++k) {
      if (end - i > 1) {
        try {
          workers.emplace_back([&, k] { outcomes[k] = guarded(calls[k], cancel); });
          continue;
        } catch (const std::system_error&) {
          // No thread to be had: this call runs here, in order.
        }
      }
      outcomes[k] = guarded(calls[k], cancel);
    }
    for (auto& worker : workers) worker.join();
    i = end;
  }

  std::vector<Part> parts;
  for (auto& outcome : outcomes) {
    Part part;
    part.functionResponse = std::move(outcome.response);
    parts.push_back(std::move(part));
  }
  for (auto& outcome : outcomes) {
    for (auto& extra : outcome.inlineParts) parts.push_back(std::move(extra));
  }
  return parts;
}

// A tool that throws (it should not) answers the model with an error instead
// of taking the process down.
ToolScheduler::Outcome ToolScheduler::guarded(const FunctionCall& call, const CancelToken& cancel) {
  try {
    return runOne(call, cancel, 0);
  } catch (const std::exception& e) {
    Outcome outcome;
    outcome.response = FunctionResponse{call.id, call.name, responseJson("error", std::string("Internal error: ") + e.what())};
    return outcome;
  }
}

ToolScheduler::Outcome ToolScheduler::runOne(const FunctionCall& call, const CancelToken& cancel, int depth) {
  CallRun run(*this, call);
  acp::ToolCall announce;
  announce.toolCallId = run.id();
  announce.title = call.name;
  announce.rawInput = call.args.empty() ? json::Raw{"{}"} : call.args;

  const tools::Tool* tool = registry_.find(call.name);
  if (!tool) {
    editor_.sendUpdate(sessionId_, announce);
    std::string names;
    for (const tools::Tool* t : registry_.all()) names += (names.empty() ? "" : ", ") + t->name();
    return run.finish(CallState::error, "Tool \"" + call.name + "\" does not exist. Available tools: " + names + ".");
  }
  announce.kind = toAcpKind(tool->kind());
  auto args = json::parse(announce.rawInput.text);
  if (!args) {
    editor_.sendUpdate(sessionId_, announce);
    return run.finish(CallState::error, "The arguments of " + call.name + " are not valid JSON: " + args.error().message);
  }
  tools::BuildResult built = tool->build(*args);
  if (!built.invocation) {
    editor_.sendUpdate(sessionId_, announce);
    return run.finish(CallState::error, "Invalid parameters for " + call.name + ": " + built.error->message);
  }
  tools::ToolInvocation& invocation = *built.invocation;
  announce.title = tool->info().displayName + ": " + invocation.description();
  for (const auto& loc : invocation.locations()) announce.locations.push_back({loc.path, loc.line});
  editor_.sendUpdate(sessionId_, announce);

  if (cancel.cancelled()) return run.finish(CallState::cancelled, "Cancelled before it ran: the user stopped the turn.");

  // Approval: a pure decision first; the person is asked only when it says so.
  auto details = invocation.shouldConfirmExecute(cancel);
  if (!details) return run.finish(CallState::error, details.error().message);
  ApprovalQuery query{call.name, tool->kind(), details->has_value() ? &**details : nullptr};
  Decision decision;
  {
    std::lock_guard lock(approvalsMutex_);
    decision = decideApproval(mode_.load(), query, approvals_);
  }
  if (decision == Decision::deny) {
    if (mode_.load() == ApprovalMode::plan && !tools::isReadOnlyKind(tool->kind())) {
      return run.finish(CallState::error, "Refused: the session is in plan mode, which allows only read-only tools. "
                                          "Describe the change instead of making it.");
    }
    return run.finish(CallState::error, "Refused: the settings exclude this command (tools.exclude).");
  }
  if (decision == Decision::ask) {
    run.moveTo(CallState::awaiting_approval);
    acp::RequestPermissionRequest ask;
    ask.sessionId = sessionId_;
    ask.toolCall.toolCallId = run.id();
    ask.toolCall.title = announce.title;
    ask.toolCall.kind = announce.kind;
    ask.toolCall.status = acp::ToolCallStatus::pending;
    ask.toolCall.locations = announce.locations;
    ask.toolCall.rawInput = announce.rawInput;
    ask.toolCall.content = confirmationContent(**details);
    ask.options = permissionOptions(**details, tool->info().displayName);
    auto answer = editor_.requestPermission(ask, cancel);
    // Fail closed: anything but a selected option we offered means no.
    if (cancel.cancelled()) return run.finish(CallState::cancelled, "Cancelled: the user stopped the turn.");
    if (!answer) {
      return run.finish(CallState::error, "Not run: permission could not be obtained (" + answer.error().message + ").");
    }
    std::optional<PermissionChoice> choice;
    if (!answer->cancelled) choice = choiceFor(answer->optionId, **details);
    if (!choice || !choice->allow) {
      return run.finish(CallState::error, "The user rejected this tool call. Do not retry it; ask what they want "
                                          "instead if it is unclear.");
    }
    if (choice->always) {
      std::lock_guard lock(approvalsMutex_);
      remember(approvals_, *choice->always, query);
    }
  }
  invocation.setApproval(decision == Decision::allowSealed ? tools::Approval::judged : tools::Approval::person);
  run.moveTo(CallState::scheduled);
  run.moveTo(CallState::executing);

  CancelToken callToken = cancel.child();
  tools::ToolResult result = invocation.execute(callToken, [&run](const std::string& text) { run.output(text); });
  // What the tool did is what is reported: a call that finished before the
  // cancel reached it really did its work, and the model must know.
  if (result.error && result.error->type == tools::ErrorType::cancelled) {
    return run.finish(CallState::cancelled, "Cancelled: the user stopped the turn.");
  }
  if (result.error) return run.finish(CallState::error, result.error->message);

  if (result.tailToolCallRequest && depth < kMaxTailDepth) {
    // The tool asked for another to run right after it: the model sees the
    // tail's result as the answer to its call.
    Outcome first = run.succeed(result);
    FunctionCall tail{call.id, result.tailToolCallRequest->name, result.tailToolCallRequest->args};
    Outcome tailOutcome = runOne(tail, cancel, depth + 1);
    tailOutcome.response.name = call.name;
    tailOutcome.inlineParts.insert(tailOutcome.inlineParts.begin(), std::make_move_iterator(first.inlineParts.begin()),
                                   std::make_move_iterator(first.inlineParts.end()));
    return tailOutcome;
  }
  return run.succeed(result);
}

}  // namespace lathe::engine
