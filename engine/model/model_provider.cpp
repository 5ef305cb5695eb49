// Reply merging shared by every provider.
#include "engine/model/model_provider.h"

namespace lathe::engine {

http::RetryHook retryHookFor(const ModelRequest& request) {
  if (!request.onRetry) return nullptr;
  return [&request](const http::RetryNotice& notice) {
    std::string text = notice.why.message;
    if (!text.empty() && text.back() != '.') text += '.';
    request.onRetry(text + " Lathe tries again in " + http::inSeconds(notice.delay) + " (attempt " +
                    std::to_string(notice.nextAttempt) + " of " + std::to_string(notice.maxAttempts) + ").");
  };
}

void ReplyAccumulator::add(const ModelChunk& chunk) {
  auto& parts = reply_.content.parts;
  for (const Part& part : chunk.parts) {
    bool plainText = part.text && !part.functionCall && !part.functionResponse && !part.inlineData;
    if (plainText && !parts.empty()) {
      Part& last = parts.back();
      bool lastPlain = last.text && !last.functionCall && !last.functionResponse && !last.inlineData;
      // A signature starts a new part: it belongs to the part it arrived with.
      if (lastPlain && last.thought == part.thought && part.thoughtSignature.empty()) {
        *last.text += *part.text;
        continue;
      }
    }
    parts.push_back(part);
  }
  if (chunk.finishReason) reply_.finishReason = *chunk.finishReason;
  if (chunk.usage) reply_.usage = chunk.usage;
  // Grounding comes whole with a chunk (the last, when streamed).
  if (!chunk.grounding.sources.empty() || !chunk.grounding.supports.empty()) reply_.grounding = chunk.grounding;
}

}  // namespace lathe::engine
