// Fuzz target: the OpenAI-compatible stream mapping. The input is a sequence
// of `data:` payloads separated by '\n' fed to one StreamAssembler, then the
// whole input as a non-streamed completion and as an error body.
// Single-threaded.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/model/openai/openai_wire.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lathe::engine;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  openai::StreamAssembler assembler;
  std::string_view rest = text;
  while (!rest.empty() && !assembler.done()) {
    size_t nl = rest.find('\n');
    std::string_view payload = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (!assembler.feed(payload)) break;
  }
  (void)assembler.finish();
  (void)openai::parseCompletion(text);
  (void)openai::describeHttpError(400, text);
  return 0;
}
