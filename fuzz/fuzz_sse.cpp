// Fuzz target: http::SseParser. Invariant: the events do not depend on how the
// bytes are split. Single-threaded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "protocol/http/sse.h"

namespace {

std::vector<lathe::http::SseEvent> parseAll(std::string_view bytes, size_t step) {
  lathe::http::SseParser parser;
  std::vector<lathe::http::SseEvent> events;
  for (size_t at = 0; at < bytes.size(); at += step) {
    for (auto& event : parser.feed(bytes.substr(at, step))) events.push_back(std::move(event));
  }
  if (auto last = parser.finish()) events.push_back(std::move(*last));
  return events;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto whole = parseAll(bytes, bytes.size() + 1);
  auto pieces = parseAll(bytes, size == 0 ? 1 : 1 + data[0] % 5);
  if (whole.size() != pieces.size()) abort();
  for (size_t i = 0; i < whole.size(); ++i) {
    if (whole[i].type != pieces[i].type || whole[i].data != pieces[i].data || whole[i].id != pieces[i].id) abort();
  }
  return 0;
}
