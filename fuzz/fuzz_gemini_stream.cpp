// Fuzz target: the Gemini stream mapping (gemini::parseResponseChunk on one SSE
// `data:` payload, and the API error body reader). Invariant: a chunk that
// parses can be written back as a GenerateContentResponse (what a recording
// holds) that parses again. Single-threaded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/model/gemini/gemini_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lathe::engine;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto chunk = gemini::parseResponseChunk(text);
  if (chunk) {
    auto again = gemini::parseResponseChunk(gemini::buildResponseChunk(*chunk));
    if (!again) abort();
  }
  (void)gemini::describeHttpError(400, text);
  return 0;
}
