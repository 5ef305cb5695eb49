// The OpenAI Chat Completions wire format (OpenAI, Ollama, llama.cpp's server,
// vLLM, LM Studio): the history model to a request body (inline images as
// image_url; other inline data, such as MCP audio, as a text note), streamed
// chat.completion.chunk payloads (or one whole completion) back into the
// history model, and error bodies into sentences. Pure; any thread.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/model_provider.h"
#include "protocol/base/result.h"

namespace lathe::engine::openai {

struct RequestOptions {
  bool stream = true;
};

// The JSON text of a chat/completions request.
std::string buildRequestBody(const ModelRequest& request, RequestOptions options);

// Gathers a streamed reply: text and reasoning are handed on as they come;
// tool calls are assembled by index (a new id at the same index starts a new
// call, as some servers send every call at index 0) and come out at the end,
// because their arguments arrive in pieces.
class StreamAssembler {
 public:
  // One `data:` payload. Returns the parts to show now (maybe none).
  Result<ModelChunk> feed(std::string_view data);
  bool done() const { return done_; }
  // The tool calls, finish reason and usage, once the stream has ended.
  ModelChunk finish();

 private:
  struct PendingCall {
    int64_t index = 0;
    std::string id;
    std::string name;
    std::string arguments;
  };
  void addToolCallDelta(const json::Value& delta);

  std::vector<PendingCall> calls_;
  std::optional<FinishReason> finishReason_;
  std::optional<Usage> usage_;
  bool done_ = false;
};

// A whole (not streamed) completion.
Result<ModelReply> parseCompletion(std::string_view body);

// "OpenAI-compatible API error 401 (invalid_api_key): Incorrect API key ..."
std::string describeHttpError(int status, std::string_view body);

}  // namespace lathe::engine::openai
