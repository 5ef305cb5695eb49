// What the fake Gemini server answers to one model call: a stream of chunks, an
// HTTP error, or a stream that hangs. Also reads Gemini CLI's fake-responses
// JSON-lines recordings into replies. Plain values; any thread.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/result.h"

namespace lathe::testing {

// One GenerateContentResponse JSON text, sent as an SSE event after an
// optional pause; or (verbatim) bytes sent exactly as given, for tests of
// broken or unusual streams.
struct Chunk {
  std::string json;
  std::chrono::milliseconds delayBefore{0};
  bool verbatim = false;

  Chunk(std::string text, std::chrono::milliseconds delay = std::chrono::milliseconds(0))
      : json(std::move(text)), delayBefore(delay) {}
  Chunk(const char* text) : json(text) {}
  static Chunk rawBytes(std::string bytes, std::chrono::milliseconds delay = std::chrono::milliseconds(0)) {
    Chunk c(std::move(bytes), delay);
    c.verbatim = true;
    return c;
  }
};

struct ScriptedReply {
  enum class Kind { stream, error, hang };

  Kind kind = Kind::stream;
  std::vector<Chunk> chunks;           // stream: all of them; hang: the ones sent before hanging
  int status = 200;                    // error
  std::string body;                    // error
  std::optional<std::string> retryAfter;  // error: Retry-After header value
  // The Gemini CLI method this reply was recorded for ("generateContentStream",
  // "generateContent", "countTokens"), empty when scripted by hand.
  std::string method;
  // Served only to a generate request whose body holds this text (a sub-agent's
  // own instructions, say), whatever comes before it in the script; empty: the
  // next request takes it.
  std::string onlyIf;
  // Held until the server has received this many generate requests (0: not
  // held), to show requests made at once; one served without them (after a
  // 10 s guard) is a violation.
  size_t afterRequests = 0;
  // Held until the test calls FakeGeminiServer::releaseHeld() (a guard of 10 s,
  // a violation when it runs out).
  bool untilReleased = false;

  static ScriptedReply stream(std::vector<Chunk> chunks);
  static ScriptedReply error(int status, std::string body, std::optional<std::string> retryAfter = std::nullopt);
  static ScriptedReply hang(std::vector<Chunk> firstChunks = {});
  // A stream reply whose text arrives as one text chunk then a STOP finish chunk.
  static ScriptedReply text(std::string_view text);
  // A stream reply with one functionCall chunk then a STOP finish chunk.
  static ScriptedReply functionCall(std::string_view name, std::string_view argsJson = "{}", std::string_view id = "");
  // This reply, served only to a request whose body holds `text` (onlyIf).
  ScriptedReply forRequestsWith(std::string text) && {
    onlyIf = std::move(text);
    return std::move(*this);
  }
  // This reply, held until the test releases it (untilReleased).
  ScriptedReply heldUntilReleased() && {
    untilReleased = true;
    return std::move(*this);
  }
  // This reply, held until `count` generate requests came (afterRequests).
  ScriptedReply heldUntil(size_t count) && {
    afterRequests = count;
    return std::move(*this);
  }
};

// Reads a Gemini CLI --fake-responses file: one JSON object per line,
// {"method": "...", "response": <GenerateContentResponse> | [<chunk>...]}.
Result<std::vector<ScriptedReply>> loadReplayFile(const std::string& path);

}  // namespace lathe::testing
