// ACP content blocks and session/prompt.
#include "protocol/acp/content.h"

namespace lathe::acp {

Result<ContentBlock> decodeContentBlock(json::Reader& r) {
  if (!r.expectObject()) return r.error();
  std::string type = r.str("type");
  ContentBlock block;
  if (type == "text") {
    block = TextBlock{r.str("text")};
  } else if (type == "resource_link") {
    std::string uri = r.str("uri");
    block = ResourceLinkBlock{std::move(uri), r.optStr("name").value_or(""), r.optStr("mimeType").value_or("")};
  } else if (type == "resource") {
    auto res = r.object("resource");
    ResourceBlock resource;
    resource.uri = res.str("uri");
    resource.mimeType = res.optStr("mimeType").value_or("");
    resource.text = res.optStr("text");
    resource.blob = res.optStr("blob").value_or("");
    block = std::move(resource);
  } else if (type == "image" || type == "audio") {
    MediaBlock media;
    media.type = type == "image" ? MediaBlock::Type::image : MediaBlock::Type::audio;
    media.data = r.str("data");
    media.mimeType = r.str("mimeType");
    block = std::move(media);
  } else if (r.ok()) {
    r.fail(r.path() + ".type", "unknown content block type \"" + type + "\"");
  }
  return finish(r, std::move(block));
}

void writeContentBlock(json::Writer& w, const ContentBlock& block) {
  w.StartObject();
  std::visit(
      [&](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, TextBlock>) {
          json::put(w, "type", "text");
          json::put(w, "text", b.text);
        } else if constexpr (std::is_same_v<T, MediaBlock>) {
          json::put(w, "type", b.type == MediaBlock::Type::image ? "image" : "audio");
          json::put(w, "mimeType", b.mimeType);
          json::put(w, "data", b.data);
        } else if constexpr (std::is_same_v<T, ResourceLinkBlock>) {
          json::put(w, "type", "resource_link");
          json::put(w, "uri", b.uri);
          json::put(w, "name", b.name.empty() ? b.uri : b.name);
          if (!b.mimeType.empty()) json::put(w, "mimeType", b.mimeType);
        } else {
          json::put(w, "type", "resource");
          json::key(w, "resource");
          w.StartObject();
          json::put(w, "uri", b.uri);
          if (!b.mimeType.empty()) json::put(w, "mimeType", b.mimeType);
          if (b.text) json::put(w, "text", *b.text);
          else json::put(w, "blob", b.blob);
          w.EndObject();
        }
      },
      block);
  w.EndObject();
}

Result<PromptRequest> PromptRequest::fromJson(const json::Value& params) {
  auto r = json::Reader::root(params);
  PromptRequest req;
  req.sessionId = r.str("sessionId");
  for (auto& item : r.array("prompt")) {
    auto block = decodeContentBlock(item);
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

}  // namespace lathe::acp
