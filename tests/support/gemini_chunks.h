// Builders for GenerateContentResponse JSON texts, the chunks a fake Gemini
// server streams. Pure functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lathe::testing {

struct UsageCounts {
  int64_t promptTokens = 10;
  int64_t candidatesTokens = 5;
  int64_t thoughtsTokens = 0;
};

// A model-role chunk with one text part.
std::string textChunk(std::string_view text);
// A model-role chunk with one `thought: true` text part.
std::string thoughtChunk(std::string_view text);
// A model-role chunk with one functionCall part. argsJson must be a JSON object;
// an empty id leaves "id" out (as Gemini usually does).
std::string functionCallChunk(std::string_view name, std::string_view argsJson = "{}", std::string_view id = "");
// A chunk with no parts that carries finishReason and usageMetadata.
std::string finishChunk(std::string_view finishReason = "STOP", UsageCounts usage = {});

}  // namespace lathe::testing
