// Reading MCP prompts and their messages.
#include "tools/mcp/prompts.h"

namespace lathe::tools::mcp {
namespace {

std::string str(const json::Value& v, const char* key) { return json::getStr(v, key).value_or(""); }

// One content block of a prompt message; false when it holds nothing usable.
bool readContent(const json::Value& block, PromptContent& out) {
  const std::string type = str(block, "type");
  if (type == "text") {
    out.text = str(block, "text");
    return true;
  }
  if (type == "image" || type == "audio") {
    out.mimeType = str(block, "mimeType");
    out.data = str(block, "data");
    return !out.mimeType.empty() && !out.data.empty();
  }
  if (type == "resource_link") {
    std::string uri = str(block, "uri");
    std::string name = str(block, "name");
    out.text = "[Resource: " + uri + (name.empty() || name == uri ? "" : " (" + name + ")") + "]";
    return !uri.empty();
  }
  if (type == "resource") {
    const json::Value* resource = json::find(block, "resource");
    if (!resource || !resource->IsObject()) return false;
    std::string uri = str(*resource, "uri");
    if (auto text = json::getStr(*resource, "text")) {
      out.text = "--- Content of " + uri + " ---\n" + *text + "\n--- End of " + uri + " ---";
      return true;
    }
    out.mimeType = str(*resource, "mimeType");
    out.data = str(*resource, "blob");
    if (out.mimeType.empty()) out.mimeType = "application/octet-stream";
    return !out.data.empty();
  }
  return false;
}

}  // namespace

ListedPrompt readPrompt(const json::Value& prompt) {
  ListedPrompt listed;
  listed.name = str(prompt, "name");
  listed.title = str(prompt, "title");
  listed.description = str(prompt, "description");
  if (const json::Value* args = json::find(prompt, "arguments"); args && args->IsArray()) {
    for (const auto& arg : args->GetArray()) {
      if (!arg.IsObject() || str(arg, "name").empty()) continue;
      listed.arguments.push_back({str(arg, "name"), str(arg, "description"), json::getBool(arg, "required").value_or(false)});
    }
  }
  return listed;
}

Result<std::vector<PromptContent>> promptMessages(const json::Value& result, const std::string& server,
                                                  const std::string& prompt) {
  const json::Value* messages = json::find(result, "messages");
  if (!messages || !messages->IsArray()) {
    return makeError(Errc::invalid_request, "MCP server " + server + " answered prompts/get for " + prompt +
                                                " without a messages array");
  }
  std::vector<PromptContent> out;
  for (const auto& message : messages->GetArray()) {
    if (!message.IsObject()) continue;
    const json::Value* content = json::find(message, "content");
    if (!content) continue;
    // A message holds one block (the spec); an array is read too.
    auto take = [&](const json::Value& block) {
      PromptContent piece;
      piece.role = str(message, "role");
      if (block.IsObject() && readContent(block, piece)) out.push_back(std::move(piece));
    };
    if (content->IsArray()) {
      for (const auto& block : content->GetArray()) take(block);
    } else {
      take(*content);
    }
  }
  if (out.empty()) {
    return makeError(Errc::invalid_request, "MCP server " + server + " returned no usable messages for the prompt " + prompt);
  }
  return out;
}

}  // namespace lathe::tools::mcp
