// ACP prompt content and session/prompt: the blocks a person sends, as a typed
// variant. Pure.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/acp/common.h"

namespace lathe::acp {

struct TextBlock {
  std::string text;
};
// image or audio, base64
struct MediaBlock {
  enum class Type { image, audio } type = Type::image;
  std::string mimeType;
  std::string data;
};
struct ResourceLinkBlock {
  std::string uri;
  std::string name;
  std::string mimeType;
};
// An embedded resource: text, or a base64 blob.
struct ResourceBlock {
  std::string uri;
  std::string mimeType;
  std::optional<std::string> text;
  std::string blob;
};

using ContentBlock = std::variant<TextBlock, MediaBlock, ResourceLinkBlock, ResourceBlock>;

Result<ContentBlock> decodeContentBlock(json::Reader& r);

struct PromptRequest {
  std::string sessionId;
  std::vector<ContentBlock> prompt;
  static Result<PromptRequest> fromJson(const json::Value& params);
};

// The tokens one prompt turn used, all its model requests together
// (unstable PromptResponse.usage).
struct TurnUsage {
  int64_t inputTokens = 0;
  int64_t outputTokens = 0;
  int64_t thoughtTokens = 0;
  int64_t cachedReadTokens = 0;
  int64_t totalTokens = 0;
};

struct PromptResponse {
  StopReason stopReason = StopReason::end_turn;
  std::optional<TurnUsage> usage;  // when the model reported any
  json::Raw toJson() const;
};

}  // namespace lathe::acp
