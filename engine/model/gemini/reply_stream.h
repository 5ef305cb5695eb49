// Reading a streamed generateContent reply (SSE) into a ReplyAccumulator,
// shared by the Gemini API and Code Assist, whose chunks differ only in their
// wrapping. Any thread.
#pragma once

#include <string_view>

#include "engine/model/model_provider.h"
#include "protocol/base/result.h"
#include "protocol/http/http_client.h"

namespace lathe::engine::gemini {

using ChunkParser = Result<ModelChunk> (*)(std::string_view data);

// The stream's event callbacks: each event parsed with `parse`, added to
// `reply` and passed to `onChunk`; a new attempt starts the reply afresh; an
// event that does not parse ends the stream (retried when it carries an API
// error the retry policy retries). The caller sets describeStatus and onRetry.
http::StreamCallbacks replyStream(ReplyAccumulator& reply, ChunkParser parse, const ChunkSink& onChunk);

}  // namespace lathe::engine::gemini
