// ACP content blocks and session/prompt.
#include "protocol/acp/content.h"

#include "protocol/base/enum_names.h"

namespace lathe::acp {
namespace {

constexpr EnumName<MediaBlock::Type> kMediaTypes[] = {{MediaBlock::Type::image, "image"},
                                                      {MediaBlock::Type::audio, "audio"}};

}  // namespace

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
  } else if (auto mediaType = valueOf(kMediaTypes, type)) {
    MediaBlock media;
    media.type = *mediaType;
    media.data = r.str("data");
    media.mimeType = r.str("mimeType");
    block = std::move(media);
  } else if (r.ok()) {
    r.fail(r.path() + ".type", "unknown content block type \"" + type + "\"");
  }
  return finish(r, std::move(block));
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
  return {json::buildObject([&](json::Writer& w) {
    json::put(w, "stopReason", toString(stopReason));
    if (!usage) return;
    json::object(w, "usage", [&] {
      json::put(w, "inputTokens", usage->inputTokens);
      json::put(w, "outputTokens", usage->outputTokens);
      json::put(w, "thoughtTokens", usage->thoughtTokens);
      json::put(w, "cachedReadTokens", usage->cachedReadTokens);
      json::put(w, "totalTokens", usage->totalTokens);
    });
  })};
}

}  // namespace lathe::acp
