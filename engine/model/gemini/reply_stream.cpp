// Reading a streamed generateContent reply.
#include "engine/model/gemini/reply_stream.h"

#include "engine/model/gemini/gemini_wire.h"
#include "protocol/http/retry_policy.h"

namespace lathe::engine::gemini {

http::StreamCallbacks replyStream(ReplyAccumulator& reply, ChunkParser parse, const ChunkSink& onChunk) {
  http::StreamCallbacks callbacks;
  callbacks.onAttempt = [&reply] { reply = ReplyAccumulator(); };
  callbacks.onEvent = [&reply, parse, &onChunk](const http::SseEvent& event) -> std::optional<http::EventError> {
    auto chunk = parse(event.data);
    if (!chunk) {
      auto apiError = parseApiError(event.data);
      return http::EventError{chunk.error(), apiError && http::retryableStatus(apiError->code)};
    }
    reply.add(*chunk);
    if (onChunk) onChunk(*chunk);
    return std::nullopt;
  };
  return callbacks;
}

}  // namespace lathe::engine::gemini
