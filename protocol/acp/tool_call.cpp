// ACP tool call encoders.
#include "protocol/acp/tool_call.h"

namespace lathe::acp {
namespace {

void writeLocations(json::Writer& w, const std::vector<ToolCallLocation>& locations) {
  json::array(w, "locations", [&] {
    for (const auto& loc : locations) {
      json::object(w, [&] {
        json::put(w, "path", loc.path);
        if (loc.line) json::put(w, "line", *loc.line);
      });
    }
  });
}

void writeDiff(json::Writer& w, const std::string& path, const std::optional<std::string>& oldText,
               const std::string& newText) {
  // Room for both texts at once: growing for the second would copy the first.
  w.reserve(path.size() + newText.size() + (oldText ? oldText->size() : 0), 64);
  json::object(w, [&] {
    json::put(w, "type", "diff");
    json::put(w, "path", path);
    json::key(w, "oldText");
    if (oldText) {
      json::str(w, *oldText);
    } else {
      w.Null();
    }
    json::put(w, "newText", newText);
  });
}

void writeItem(json::Writer& w, const ToolCallContent& item) {
  if (item.type == ToolCallContent::Type::diff) return writeDiff(w, item.path, item.oldText, item.newText);
  json::object(w, [&] {
    json::put(w, "type", "content");
    json::object(w, "content", [&] {
      json::put(w, "type", "text");
      json::put(w, "text", item.text);
    });
  });
}

void writeContent(json::Writer& w, const std::vector<ToolCallContent>& content) {
  json::array(w, "content", [&] {
    for (const auto& item : content) writeItem(w, item);
  });
}

}  // namespace

void writeToolCallFields(json::Writer& w, const ToolCall& call) {
  json::put(w, "toolCallId", call.toolCallId);
  json::put(w, "title", call.title);
  if (!call.name.empty()) json::put(w, "name", call.name);
  json::put(w, "kind", toString(call.kind));
  json::put(w, "status", toString(call.status));
  writeLocations(w, call.locations);
  if (!call.rawInput.empty()) json::put(w, "rawInput", call.rawInput);
  writeContent(w, call.content);
}

void writeToolCallUpdateFields(json::Writer& w, const ToolCallUpdate& u) {
  json::put(w, "toolCallId", u.toolCallId);
  if (!u.name.empty()) json::put(w, "name", u.name);
  if (u.status) json::put(w, "status", toString(*u.status));
  if (u.title) json::put(w, "title", *u.title);
  if (u.kind) json::put(w, "kind", toString(*u.kind));
  if (u.content) writeContent(w, *u.content);
  if (u.locations) writeLocations(w, *u.locations);
  if (!u.rawInput.empty()) json::put(w, "rawInput", u.rawInput);
  if (!u.rawOutput.empty()) json::put(w, "rawOutput", u.rawOutput);
  if (!u.meta.empty()) json::put(w, "_meta", u.meta);
}

}  // namespace lathe::acp
