// The conversation history model: Gemini-shaped contents and parts, which the
// providers map to and from their wire formats. Plain values; any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/base/json.h"

namespace lathe::engine {

struct FunctionCall {
  std::string id;    // may be empty: Gemini does not always send one
  std::string name;
  json::Raw args;    // a JSON object
};

struct FunctionResponse {
  std::string id;
  std::string name;
  json::Raw response;  // {"output": ...} or {"error": ...}
};

struct InlineData {
  std::string mimeType;
  std::string data;  // base64
};

struct Part {
  std::optional<std::string> text;
  bool thought = false;
  std::string thoughtSignature;  // opaque; must be sent back with its part
  std::optional<FunctionCall> functionCall;
  std::optional<FunctionResponse> functionResponse;
  std::optional<InlineData> inlineData;

  static Part makeText(std::string text) {
    Part p;
    p.text = std::move(text);
    return p;
  }
};

enum class Role { user, model };

struct Content {
  Role role = Role::user;
  std::vector<Part> parts;
};

// One reply's tokens, as the provider reported them. promptTokens includes
// cachedTokens (read from the provider's cache); candidatesTokens excludes
// thoughtsTokens (both are billed as output).
struct Usage {
  int64_t promptTokens = 0;
  int64_t candidatesTokens = 0;
  int64_t thoughtsTokens = 0;
  int64_t totalTokens = 0;
  int64_t cachedTokens = 0;
};

}  // namespace lathe::engine
