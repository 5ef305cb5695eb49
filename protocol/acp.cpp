// ACP v1 encoders and decoders.
#include "protocol/acp.h"

namespace lathe::acp {
namespace {

template <class T>
Result<T> finish(json::Reader& r, T value) {
  if (!r.ok()) return r.error();
  return value;
}

void writeLocations(json::Writer& w, const std::vector<ToolCallLocation>& locations) {
  json::key(w, "locations");
  w.StartArray();
  for (const auto& loc : locations) {
    w.StartObject();
    json::put(w, "path", loc.path);
    if (loc.line) json::put(w, "line", *loc.line);
    w.EndObject();
  }
  w.EndArray();
}

void writeTextBlock(json::Writer& w, const std::string& text) {
  w.StartObject();
  json::put(w, "type", "text");
  json::put(w, "text", text);
  w.EndObject();
}

void writeContent(json::Writer& w, const std::vector<ToolCallContent>& content) {
  json::key(w, "content");
  w.StartArray();
  for (const auto& item : content) {
    w.StartObject();
    if (item.type == ToolCallContent::Type::diff) {
      json::put(w, "type", "diff");
      json::put(w, "path", item.path);
      json::key(w, "oldText");
      if (item.oldText) {
        json::str(w, *item.oldText);
      } else {
        w.Null();
      }
      json::put(w, "newText", item.newText);
    } else {
      json::put(w, "type", "content");
      json::key(w, "content");
      writeTextBlock(w, item.text);
    }
    w.EndObject();
  }
  w.EndArray();
}

void writeToolCallUpdateFields(json::Writer& w, const ToolCallUpdate& u) {
  json::put(w, "toolCallId", u.toolCallId);
  if (u.status) json::put(w, "status", toString(*u.status));
  if (u.title) json::put(w, "title", *u.title);
  if (u.kind) json::put(w, "kind", toString(*u.kind));
  if (u.content) writeContent(w, *u.content);
  if (u.locations) writeLocations(w, *u.locations);
  if (!u.rawInput.empty()) json::put(w, "rawInput", u.rawInput);
  if (!u.rawOutput.empty()) json::put(w, "rawOutput", u.rawOutput);
}

}  // namespace

const char* toString(ToolKind kind) {
  switch (kind) {
    case ToolKind::read: return "read";
    case ToolKind::edit: return "edit";
    case ToolKind::del: return "delete";
    case ToolKind::move: return "move";
    case ToolKind::search: return "search";
    case ToolKind::execute: return "execute";
    case ToolKind::think: return "think";
    case ToolKind::fetch: return "fetch";
    case ToolKind::switch_mode: return "switch_mode";
    case ToolKind::other: return "other";
  }
  return "other";
}

const char* toString(ToolCallStatus status) {
  switch (status) {
    case ToolCallStatus::pending: return "pending";
    case ToolCallStatus::in_progress: return "in_progress";
    case ToolCallStatus::completed: return "completed";
    case ToolCallStatus::failed: return "failed";
  }
  return "failed";
}

const char* toString(StopReason reason) {
  switch (reason) {
    case StopReason::end_turn: return "end_turn";
    case StopReason::max_tokens: return "max_tokens";
    case StopReason::max_turn_requests: return "max_turn_requests";
    case StopReason::refusal: return "refusal";
    case StopReason::cancelled: return "cancelled";
  }
  return "end_turn";
}

const char* toString(PermissionOptionKind kind) {
  switch (kind) {
    case PermissionOptionKind::allow_once: return "allow_once";
    case PermissionOptionKind::allow_always: return "allow_always";
    case PermissionOptionKind::reject_once: return "reject_once";
    case PermissionOptionKind::reject_always: return "reject_always";
  }
  return "reject_once";
}

Result<InitializeRequest> InitializeRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  InitializeRequest req;
  req.protocolVersion = r.int64("protocolVersion");
  if (auto caps = r.optObject("clientCapabilities")) {
    if (auto fs = caps->optObject("fs")) {
      req.clientCapabilities.readTextFile = fs->optBool("readTextFile").value_or(false);
      req.clientCapabilities.writeTextFile = fs->optBool("writeTextFile").value_or(false);
    }
    req.clientCapabilities.terminal = caps->optBool("terminal").value_or(false);
  }
  if (auto info = r.optObject("clientInfo")) req.clientName = info->optStr("name").value_or("");
  return finish(r, std::move(req));
}

json::Raw InitializeResponse::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "protocolVersion", kProtocolVersion);
    json::key(w, "agentCapabilities");
    w.StartObject();
    json::put(w, "loadSession", loadSession);
    json::key(w, "promptCapabilities");
    w.StartObject();
    json::put(w, "image", image);
    json::put(w, "audio", false);
    json::put(w, "embeddedContext", embeddedContext);
    w.EndObject();
    json::key(w, "mcpCapabilities");
    w.StartObject();
    json::put(w, "http", false);
    json::put(w, "sse", false);
    w.EndObject();
    w.EndObject();
    json::key(w, "authMethods");
    w.StartArray();
    w.EndArray();
    json::key(w, "agentInfo");
    w.StartObject();
    json::put(w, "name", agentInfo.name);
    json::put(w, "title", agentInfo.title);
    json::put(w, "version", agentInfo.version);
    w.EndObject();
    w.EndObject();
  })};
}

Result<NewSessionRequest> NewSessionRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  NewSessionRequest req;
  req.cwd = r.str("cwd");
  req.additionalDirectories = r.optStrings("additionalDirectories").value_or(std::vector<std::string>{});
  if (r.has("mcpServers") && !r.optArray("mcpServers")) return r.error();
  req.mcpServers = r.rawMember("mcpServers");
  return finish(r, std::move(req));
}

json::Raw NewSessionResponse::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    if (!availableModes.empty()) {
      json::key(w, "modes");
      w.StartObject();
      json::put(w, "currentModeId", currentModeId);
      json::key(w, "availableModes");
      w.StartArray();
      for (const auto& mode : availableModes) {
        w.StartObject();
        json::put(w, "id", mode.id);
        json::put(w, "name", mode.name);
        if (!mode.description.empty()) json::put(w, "description", mode.description);
        w.EndObject();
      }
      w.EndArray();
      w.EndObject();
    }
    w.EndObject();
  })};
}

Result<ContentBlock> ContentBlock::fromReader(json::Reader& r) {
  ContentBlock block;
  if (!r.expectObject()) return r.error();
  block.type = r.str("type");
  if (block.type == "text") {
    block.text = r.str("text");
  } else if (block.type == "resource_link") {
    block.uri = r.str("uri");
    block.name = r.optStr("name").value_or("");
    block.mimeType = r.optStr("mimeType").value_or("");
  } else if (block.type == "resource") {
    auto res = r.object("resource");
    block.uri = res.str("uri");
    block.mimeType = res.optStr("mimeType").value_or("");
    block.text = res.optStr("text").value_or("");
    block.data = res.optStr("blob").value_or("");
  } else if (block.type == "image" || block.type == "audio") {
    block.data = r.str("data");
    block.mimeType = r.str("mimeType");
  } else if (r.ok()) {
    r.fail(r.path() + ".type", "unknown content block type \"" + block.type + "\"");
  }
  return finish(r, std::move(block));
}

Result<PromptRequest> PromptRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  PromptRequest req;
  req.sessionId = r.str("sessionId");
  for (auto& item : r.array("prompt")) {
    auto block = ContentBlock::fromReader(item);
    if (!block) return block.error();
    req.prompt.push_back(std::move(block).value());
  }
  return finish(r, std::move(req));
}

json::Raw PromptResponse::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "stopReason", toString(stopReason));
    w.EndObject();
  })};
}

Result<CancelNotification> CancelNotification::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  CancelNotification n;
  n.sessionId = r.str("sessionId");
  return finish(r, std::move(n));
}

json::Raw sessionNotification(const std::string& sessionId, const SessionUpdate& update) {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    json::key(w, "update");
    w.StartObject();
    std::visit(
        [&](const auto& u) {
          using T = std::decay_t<decltype(u)>;
          if constexpr (std::is_same_v<T, MessageChunk>) {
            const char* kind = u.role == MessageChunk::Role::agent     ? "agent_message_chunk"
                               : u.role == MessageChunk::Role::thought ? "agent_thought_chunk"
                                                                       : "user_message_chunk";
            json::put(w, "sessionUpdate", kind);
            json::key(w, "content");
            writeTextBlock(w, u.text);
          } else if constexpr (std::is_same_v<T, ToolCall>) {
            json::put(w, "sessionUpdate", "tool_call");
            json::put(w, "toolCallId", u.toolCallId);
            json::put(w, "title", u.title);
            json::put(w, "kind", toString(u.kind));
            json::put(w, "status", toString(u.status));
            writeLocations(w, u.locations);
            if (!u.rawInput.empty()) json::put(w, "rawInput", u.rawInput);
            writeContent(w, u.content);
          } else if constexpr (std::is_same_v<T, ToolCallUpdate>) {
            json::put(w, "sessionUpdate", "tool_call_update");
            writeToolCallUpdateFields(w, u);
          } else if constexpr (std::is_same_v<T, CurrentModeUpdate>) {
            json::put(w, "sessionUpdate", "current_mode_update");
            json::put(w, "currentModeId", u.currentModeId);
          } else if constexpr (std::is_same_v<T, UsageUpdate>) {
            json::put(w, "sessionUpdate", "usage_update");
            json::put(w, "used", u.used);
            json::put(w, "size", u.size);
          }
        },
        update);
    w.EndObject();
    w.EndObject();
  })};
}

json::Raw RequestPermissionRequest::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    json::key(w, "toolCall");
    w.StartObject();
    writeToolCallUpdateFields(w, toolCall);
    w.EndObject();
    json::key(w, "options");
    w.StartArray();
    for (const auto& option : options) {
      w.StartObject();
      json::put(w, "optionId", option.optionId);
      json::put(w, "name", option.name);
      json::put(w, "kind", toString(option.kind));
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  })};
}

Result<RequestPermissionResponse> RequestPermissionResponse::fromJson(const json::Value& result) {
  auto r = json::Reader::root(result, "result");
  auto outcome = r.object("outcome");
  RequestPermissionResponse resp;
  std::string kind = outcome.str("outcome");
  if (kind == "selected") {
    resp.cancelled = false;
    resp.optionId = outcome.str("optionId");
  } else if (kind != "cancelled" && r.ok()) {
    r.fail("result.outcome.outcome", "unknown outcome \"" + kind + "\"");
  }
  return finish(r, std::move(resp));
}

Result<SetModeRequest> SetModeRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  SetModeRequest req;
  req.sessionId = r.str("sessionId");
  req.modeId = r.str("modeId");
  return finish(r, std::move(req));
}

json::Raw ReadTextFileRequest::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    json::put(w, "path", path);
    w.EndObject();
  })};
}

Result<std::string> readTextFileResult(const json::Value& result) {
  auto r = json::Reader::root(result, "result");
  std::string content = r.str("content");
  return finish(r, std::move(content));
}

json::Raw WriteTextFileRequest::toJson() const {
  return {json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "sessionId", sessionId);
    json::put(w, "path", path);
    json::put(w, "content", content);
    w.EndObject();
  })};
}

}  // namespace lathe::acp
