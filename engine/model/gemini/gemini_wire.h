// The Gemini API wire format: the history model to a GenerateContentRequest,
// GenerateContentResponse chunks and error bodies back. Pure functions; any thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "engine/model/model_provider.h"
#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::engine::gemini {

// The JSON text of a GenerateContentRequest. Contents without parts are left
// out (the API rejects them); so are an empty system instruction and tools.
std::string buildRequestBody(const ModelRequest& request);
// Its members, written into an object the caller opened (a wrapped request).
void writeRequestMembers(json::Writer& w, const ModelRequest& request);

// The JSON text of a CountTokensRequest for the request's contents, and the
// count read back from its reply.
std::string buildCountTokensBody(const ModelRequest& request);
// Its "contents" member, written into an object the caller opened.
void writeContentsMember(json::Writer& w, const std::vector<Content>* contents);
Result<int64_t> parseCountTokens(std::string_view body);

// One GenerateContentResponse (an SSE `data:` payload or a recorded reply).
// A body carrying `error` becomes Errc::model with the API's message; a
// blocked prompt becomes a chunk without parts whose finishReason is the
// blockReason. rawJson is the input text.
Result<ModelChunk> parseResponseChunk(std::string_view json);
// The same from a parsed GenerateContentResponse; rawJson is `raw`.
Result<ModelChunk> readResponseChunk(const json::Value& root, std::string raw);

// A GenerateContentResponse for a chunk (for recording replies of providers
// whose own payload is not Gemini's).
std::string buildResponseChunk(const ModelChunk& chunk);

// The API's error body {error:{code,message,status,details}} (also inside a
// one-element array), read leniently.
struct ApiError {
  int code = 0;
  std::string status;   // INVALID_ARGUMENT, RESOURCE_EXHAUSTED, ...
  std::string message;
  std::string reason;   // details[].reason of an ErrorInfo, e.g. API_KEY_INVALID
  std::optional<std::chrono::milliseconds> retryDelay;  // details[] RetryInfo
};
std::optional<ApiError> parseApiError(std::string_view body);

// "Gemini API error 400 (INVALID_ARGUMENT): API key not valid. ..." from an
// HTTP status and its body (JSON error or, failing that, the start of the text).
std::string describeHttpError(int httpStatus, std::string_view body);
std::string describeApiError(const ApiError& error);

}  // namespace lathe::engine::gemini
