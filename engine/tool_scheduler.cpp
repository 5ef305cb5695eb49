// Tool call execution and its mapping to ACP tool_call / tool_call_update.
#include "engine/tool_scheduler.h"

#include <thread>

namespace lathe::engine {
namespace {

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

}  // namespace

ToolScheduler::ToolScheduler(const tools::ToolRegistry& registry, EditorClient& editor, std::string sessionId)
    : registry_(registry), editor_(editor), sessionId_(std::move(sessionId)) {}

bool ToolScheduler::isReadOnlyCall(const FunctionCall& call) const {
  const tools::Tool* tool = registry_.find(call.name);
  return tool && tool->isReadOnly();
}

std::vector<Part> ToolScheduler::run(const std::vector<FunctionCall>& calls, const CancelToken& cancel) {
  std::vector<Outcome> outcomes(calls.size());
  std::vector<std::string> ids(calls.size());
  for (auto& id : ids) id = "call_" + std::to_string(++nextId_);

  size_t i = 0;
  while (i < calls.size()) {
    size_t end = i + 1;
    if (isReadOnlyCall(calls[i])) {
      while (end < calls.size() && isReadOnlyCall(calls[end])) ++end;
    }
    if (end - i == 1) {
      outcomes[i] = runOne(calls[i], ids[i], cancel);
    } else {
      std::vector<std::thread> workers;
      for (size_t k = i; k < end; ++k) {
        workers.emplace_back([&, k] { outcomes[k] = runOne(calls[k], ids[k], cancel); });
      }
      for (auto& worker : workers) worker.join();
    }
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

ToolScheduler::Outcome ToolScheduler::runOne(const FunctionCall& call, const std::string& toolCallId,
                                             const CancelToken& cancel) {
  Outcome outcome;
  outcome.response.id = call.id;
  outcome.response.name = call.name;

  acp::ToolCall announce;
  announce.toolCallId = toolCallId;
  announce.title = call.name;
  announce.rawInput = call.args.empty() ? json::Raw{"{}"} : call.args;

  auto fail = [&](const std::string& message) {
    outcome.response.response = responseJson("error", message);
    acp::ToolCallUpdate update;
    update.toolCallId = toolCallId;
    update.status = acp::ToolCallStatus::failed;
    update.content = std::vector<acp::ToolCallContent>{textContent(message)};
    editor_.sendUpdate(sessionId_, update);
    return outcome;
  };

  const tools::Tool* tool = registry_.find(call.name);
  if (!tool) {
    editor_.sendUpdate(sessionId_, announce);
    std::string names;
    for (const tools::Tool* t : registry_.all()) names += (names.empty() ? "" : ", ") + t->name();
    return fail("Tool \"" + call.name + "\" does not exist. Available tools: " + names + ".");
  }
  announce.kind = toAcpKind(tool->kind());

  auto args = json::parse(announce.rawInput.text);
  if (!args) {
    editor_.sendUpdate(sessionId_, announce);
    return fail("The arguments of " + call.name + " are not valid JSON: " + args.error().message);
  }
  tools::BuildResult built = tool->build(*args);
  if (!built.invocation) {
    editor_.sendUpdate(sessionId_, announce);
    return fail("Invalid parameters for " + call.name + ": " + built.error->message);
  }
  tools::ToolInvocation& invocation = *built.invocation;
  announce.title = tool->info().displayName + ": " + invocation.description();
  for (const auto& loc : invocation.locations()) announce.locations.push_back({loc.path, loc.line});
  editor_.sendUpdate(sessionId_, announce);

  if (cancel.cancelled()) return fail("Cancelled before it ran: the user stopped the turn.");

  acp::ToolCallUpdate running;
  running.toolCallId = toolCallId;
  running.status = acp::ToolCallStatus::in_progress;
  editor_.sendUpdate(sessionId_, running);

  CancelToken callToken = cancel.child();
  tools::ToolResult result = invocation.execute(callToken, [](const std::string&) {});

  if (result.error) {
    if (result.error->type == tools::ErrorType::cancelled || cancel.cancelled()) {
      return fail("Cancelled: the user stopped the turn.");
    }
    return fail(result.error->message);
  }

  std::string output;
  for (auto& part : result.llmContent) {
    if (part.isInline()) {
      Part inlinePart;
      inlinePart.inlineData = InlineData{part.mimeType, std::move(part.data)};
      outcome.inlineParts.push_back(std::move(inlinePart));
      output += (output.empty() ? "" : "\n") + std::string("[") + part.mimeType + " content attached below]";
    } else {
      output += part.text;
    }
  }
  outcome.response.response = responseJson("output", output);

  acp::ToolCallUpdate done;
  done.toolCallId = toolCallId;
  done.status = acp::ToolCallStatus::completed;
  std::vector<acp::ToolCallContent> content;
  if (auto* diff = std::get_if<tools::FileDiff>(&result.returnDisplay)) {
    acp::ToolCallContent item;
    item.type = acp::ToolCallContent::Type::diff;
    item.path = diff->path;
    item.oldText = diff->oldText;
    item.newText = diff->newText;
    content.push_back(std::move(item));
  } else if (auto* text = std::get_if<std::string>(&result.returnDisplay); text && !text->empty()) {
    content.push_back(textContent(*text));
  }
  done.content = std::move(content);
  editor_.sendUpdate(sessionId_, done);
  return outcome;
}

}  // namespace lathe::engine
