// A session's hooks at its tool calls: BeforeTool, AfterTool and
// Notification, as the scheduler's CallGate.
#include "engine/hooks/session_hooks.h"

namespace lathe::engine {
namespace {

// The name hooks know a tool by: Gemini CLI's mcp_<server>_<tool> for an
// MCP tool, else the tool's own.
std::string hookToolName(const GatedCall& call) {
  if (call.source && call.source->group == tools::ToolSource::Group::mcp) {
    return "mcp_" + call.source->server + "_" + call.source->tool;
  }
  return call.name;
}

// The names a matcher is tried against: Gemini CLI's, and Lathe's own.
std::vector<std::string> matcherTargets(const GatedCall& call) {
  std::vector<std::string> targets{hookToolName(call)};
  if (targets.front() != call.name) targets.push_back(call.name);
  return targets;
}

// The fields every tool event carries.
void writeCallFields(json::Writer& w, const GatedCall& call) {
  json::put(w, "tool_name", hookToolName(call));
  json::key(w, "tool_input");
  auto args = json::parse(call.args.text);
  if (args && args->IsObject()) {
    args->Accept(w);
  } else {
    w.StartObject();
    w.EndObject();
  }
  if (call.source && call.source->group == tools::ToolSource::Group::mcp) {
    json::object(w, "mcp_context", [&] {
      json::put(w, "server_name", call.source->server);
      json::put(w, "tool_name", call.source->tool);
    });
  }
  if (!call.originalName.empty()) json::put(w, "original_request_name", call.originalName);
}

std::string llmText(const tools::ToolResult& result) {
  std::string text;
  for (const auto& part : result.llmContent) {
    text += part.isInline() ? "[" + part.mimeType + " content]" : part.text;
  }
  return text;
}

void writeToolResponse(json::Writer& w, const tools::ToolResult& result) {
  json::object(w, "tool_response", [&] {
    json::put(w, "llmContent", llmText(result));
    if (const auto* text = std::get_if<std::string>(&result.returnDisplay)) {
      json::put(w, "returnDisplay", *text);
    } else {
      const auto& diff = std::get<tools::FileDiff>(result.returnDisplay);
      json::object(w, "returnDisplay", [&] {
        json::put(w, "filePath", diff.path);
        json::put(w, "fileName", diff.path.substr(diff.path.find_last_of('/') + 1));
        json::key(w, "originalContent");
        if (diff.oldText) {
          json::str(w, *diff.oldText);
        } else {
          w.Null();
        }
        json::put(w, "newContent", diff.newText);
      });
    }
    if (result.error) json::object(w, "error", [&] { json::put(w, "message", result.error->message); });
  });
}

// The arguments with the hook's tool_input laid over them, key by key.
json::Raw overlaid(const json::Raw& args, const json::Value& changes) {
  auto doc = json::parse(args.text);
  json::Document merged;
  if (doc && doc->IsObject()) {
    merged = std::move(doc).value();
  } else {
    merged.SetObject();
  }
  overlayMembers(merged, changes, merged.GetAllocator());
  return {json::stringify(merged)};
}

// Gemini CLI's words for a permission question, by its kind.
std::pair<std::string, std::string> notificationOf(const tools::ConfirmationDetails& details, const std::string& title) {
  if (std::holds_alternative<tools::EditConfirmation>(details)) return {"edit", "Tool " + title + " requires editing"};
  if (std::holds_alternative<tools::ExecConfirmation>(details)) return {"exec", "Tool " + title + " requires execution"};
  if (std::holds_alternative<tools::McpConfirmation>(details)) return {"mcp", "Tool " + title + " requires MCP"};
  return {"info", "Tool " + title + " requires information"};
}

void writeDetails(json::Writer& w, const tools::ConfirmationDetails& details, const std::string& kind,
                  const std::string& title) {
  json::object(w, "details", [&] {
    json::put(w, "type", kind);
    json::put(w, "title", title);
    if (const auto* edit = std::get_if<tools::EditConfirmation>(&details)) {
      json::put(w, "filePath", edit->diff.path);
      json::put(w, "fileName", edit->diff.path.substr(edit->diff.path.find_last_of('/') + 1));
      json::put(w, "isModifying", edit->diff.oldText.has_value());
    } else if (const auto* exec = std::get_if<tools::ExecConfirmation>(&details)) {
      json::put(w, "command", exec->command);
      if (!exec->commands.empty() && !exec->commands.front().empty()) {
        json::put(w, "rootCommand", exec->commands.front().front());
      }
    } else if (const auto* mcp = std::get_if<tools::McpConfirmation>(&details)) {
      json::put(w, "serverName", mcp->serverName);
      json::put(w, "toolName", mcp->toolName);
    } else if (const auto* info = std::get_if<tools::InfoConfirmation>(&details)) {
      json::put(w, "prompt", info->prompt);
      json::array(w, "urls", [&] {
        for (const auto& url : info->urls) json::str(w, url);
      });
    }
  });
}

}  // namespace

void SessionHooks::stopAfterCalls(const std::string& reason) {
  std::lock_guard lock(mutex_);
  if (!stopReason_) stopReason_ = reason;
}

BeforeCall SessionHooks::beforeCall(const GatedCall& call, const CancelToken& cancel) {
  BeforeCall out;
  {
    std::lock_guard lock(mutex_);
    if (stopReason_) {
      out.action = BeforeCall::Action::stop;
      out.reason = *stopReason_;
      return out;
    }
    if (offered_ && !offered_->count(call.name)) {
      out.action = BeforeCall::Action::refuse;
      out.reason = "the person's hooks did not offer " + call.name + " for this request";
      return out;
    }
  }
  if (!dispatcher_.has(HookEvent::BeforeTool)) return out;
  std::string fields = json::buildObject([&](json::Writer& w) { writeCallFields(w, call); });
  HookVerdict verdict = fire(HookEvent::BeforeTool, matcherTargets(call), fields, cancel);
  out.notes = std::move(verdict.notes);
  if (verdict.stop) {
    out.action = BeforeCall::Action::stop;
    out.reason = verdict.stopReason;
    stopAfterCalls(verdict.stopReason);
    return out;
  }
  if (verdict.blocked) {
    out.action = BeforeCall::Action::refuse;
    out.reason = verdict.reason;
    return out;
  }
  out.ask = verdict.ask;
  if (const json::Value* input = json::find(verdict.specific, "tool_input"); input && input->IsObject()) {
    out.args = overlaid(call.args, *input);
  }
  return out;
}

AfterCall SessionHooks::afterCall(const GatedCall& call, const tools::ToolResult& result, const CancelToken& cancel) {
  AfterCall out;
  if (!dispatcher_.has(HookEvent::AfterTool)) return out;
  std::string fields = json::buildObject([&](json::Writer& w) {
    writeCallFields(w, call);
    writeToolResponse(w, result);
  });
  HookVerdict verdict = fire(HookEvent::AfterTool, matcherTargets(call), fields, cancel);
  out.notes = std::move(verdict.notes);
  if (cancel.cancelled()) return out;
  if (verdict.stop) {
    out.action = AfterCall::Action::stop;
    out.reason = verdict.stopReason;
    stopAfterCalls(verdict.stopReason);
    return out;
  }
  if (verdict.blocked) {
    out.action = AfterCall::Action::withhold;
    out.reason = verdict.reason;
    return out;
  }
  out.addedContext = verdict.context;
  const json::Value* tail = json::find(verdict.specific, "tailToolCallRequest");
  if (tail && tail->IsObject()) {
    auto name = json::getStr(*tail, "name");
    const json::Value* args = json::find(*tail, "args");
    if (name && !name->empty()) {
      out.tail = tools::TailCall{*name, json::Raw{args && args->IsObject() ? json::stringify(*args) : "{}"}};
    }
  }
  return out;
}

std::vector<HookNote> SessionHooks::onPermissionAsked(const tools::ConfirmationDetails& details, const std::string& title,
                                                      const CancelToken& cancel) {
  if (!dispatcher_.has(HookEvent::Notification)) return {};
  auto [kind, message] = notificationOf(details, title);
  std::string fields = json::buildObject([&](json::Writer& w) {
    json::put(w, "notification_type", "ToolPermission");
    json::put(w, "message", message);
    writeDetails(w, details, kind, title);
  });
  return fire(HookEvent::Notification, {}, fields, cancel).notes;
}

}  // namespace lathe::engine
