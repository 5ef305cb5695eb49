// MCP prompts as Lathe reads them: what prompts/list says about each prompt
// (name, description, declared arguments) and what prompts/get returns,
// mapped to text and inline data a model can take. Pure.
#pragma once

#include <string>
#include <vector>

#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::tools::mcp {

struct PromptArgument {
  std::string name;
  std::string description;
  bool required = false;
};

struct ListedPrompt {
  std::string name;
  std::string title;
  std::string description;
  std::vector<PromptArgument> arguments;  // in the order the server declared them
};

// One piece of a prompt's messages: text, or inline data (image, audio, a
// binary resource) when mimeType is set.
struct PromptContent {
  std::string role;  // "user" or "assistant", as the server said
  std::string text;
  std::string mimeType;
  std::string data;  // base64
  bool isInline() const { return !mimeType.empty(); }
};

// One prompts/list entry; a prompt without a name is skipped by the caller.
ListedPrompt readPrompt(const json::Value& prompt);

// The messages of a prompts/get result, in order. Embedded text resources
// become text marked with their URI, resource links name their URI, blobs
// and media travel as inline data. An error when there are no messages.
Result<std::vector<PromptContent>> promptMessages(const json::Value& result, const std::string& server,
                                                  const std::string& prompt);

}  // namespace lathe::tools::mcp
