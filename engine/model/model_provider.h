// The seam between the engine and a model API, free of any one provider's
// wire: a provider streams one reply for a request (the ReAct loop), or
// generates one whole reply (compression, loop checks, web tools, titles). Both
// block, so callers use worker threads.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/content.h"
#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/http/http_client.h"
#include "tools/core/one_shot_model.h"
#include "tools/core/tool_declaration.h"

namespace lathe::engine {

struct GenerationConfig {
  std::optional<double> temperature;
  std::optional<double> topP;
  std::optional<int64_t> topK;
  std::optional<int64_t> maxOutputTokens;
  bool includeThoughts = true;
  std::optional<int64_t> thinkingBudget;     // tokens (Gemini 2.5)
  std::optional<std::string> thinkingLevel;  // LOW, HIGH... (Gemini 3)
  // A JSON reply of this schema (the JSON text of one) instead of free text.
  std::optional<std::string> responseJsonSchema;
  std::optional<std::string> reasoningEffort;  // low, medium, high (OpenAI's reasoning_effort)
};

// Why a reply ended, whatever the provider called it.
enum class FinishReason { unspecified, stop, max_tokens, safety, other };

struct ModelRequest {
  std::string model;
  std::string systemInstruction;
  const std::vector<Content>* contents = nullptr;            // owned by the caller
  const std::vector<tools::ToolDeclaration>* tools = nullptr;  // none when null or empty
  bool requireToolCall = false;  // the reply must call one of the tools (Gemini's mode ANY)
  // Offer the provider's own web search tool (Gemini's googleSearch); only for
  // providers whose supportsWebSearch() is true.
  bool webSearch = false;
  GenerationConfig config;
  // Told, in words for the person, before a failed attempt is tried again.
  std::function<void(const std::string& notice)> onRetry;
};

// The hook a provider gives its HTTP client: request.onRetry in words.
http::RetryHook retryHookFor(const ModelRequest& request);

// One streamed piece of a reply. rawJson is the provider's own payload for it
// (a GenerateContentResponse for Gemini), kept so replies can be recorded.
struct ModelChunk {
  std::vector<Part> parts;
  std::optional<FinishReason> finishReason;
  std::optional<Usage> usage;
  tools::Grounding grounding;  // the sources a web search answer rests on
  std::string rawJson;
};

// The whole reply, merged from its chunks.
struct ModelReply {
  Content content{Role::model, {}};
  FinishReason finishReason = FinishReason::unspecified;
  std::optional<Usage> usage;
  tools::Grounding grounding;
};

using ChunkSink = std::function<void(const ModelChunk&)>;

class ModelProvider {
 public:
  virtual ~ModelProvider() = default;
  // Streams one reply, calling onChunk for each piece as it arrives (on the
  // calling thread). Returns the merged reply, or an error with a message fit
  // for a person. A cancelled token ends the call with Errc::cancelled.
  virtual Result<ModelReply> stream(const ModelRequest& request, const ChunkSink& onChunk,
                                    const CancelToken& cancel) = 0;
  // One whole reply, not streamed.
  virtual Result<ModelReply> generate(const ModelRequest& request, const CancelToken& cancel) = 0;
  // The model's own token count of the request's contents, from the API's
  // count endpoint; nullopt when the provider has none (callers estimate).
  virtual std::optional<Result<int64_t>> countTokens(const ModelRequest& request, const CancelToken& cancel) {
    (void)request;
    (void)cancel;
    return std::nullopt;
  }
  // Whether requests may ask for the provider's web search (ModelRequest::webSearch).
  virtual bool supportsWebSearch() const { return false; }
  // Whether a request could be made with the credentials in force, without
  // making one: an Errc::auth_required error saying what is missing and how to
  // give it, or success (a provider that needs no credentials always says so).
  virtual Status credentialsReady() const { return {}; }
  // Does now what the first request would do first (Code Assist finds the
  // person's project), so a login's problems show when the person logs in.
  virtual Status prepare(const CancelToken& cancel) {
    (void)cancel;
    return {};
  }
};

// Merges streamed chunks into one reply: adjacent text (and thought text) parts
// are joined; function calls and other parts are kept in order.
class ReplyAccumulator {
 public:
  void add(const ModelChunk& chunk);
  ModelReply take() { return std::move(reply_); }
  const ModelReply& reply() const { return reply_; }

 private:
  ModelReply reply_;
};

}  // namespace lathe::engine
