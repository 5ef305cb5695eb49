// Fuzz target: FrameDecoder (newline and Content-Length framing). Invariants:
// any split of the input decodes to the same frames as one feed, and a frame
// encoded by encodeFrame decodes back to exactly its text. Single-threaded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/jsonrpc/framing.h"

namespace {

std::vector<lathe::Frame> decodeAll(std::string_view bytes, size_t step) {
  lathe::FrameDecoder decoder(1u << 16);
  std::vector<lathe::Frame> out;
  for (size_t at = 0; at < bytes.size(); at += step) decoder.feed(bytes.substr(at, step), out);
  decoder.finish(out);
  return out;
}

void require(bool condition) {
  if (!condition) abort();
}

bool sameFrames(const std::vector<lathe::Frame>& a, const std::vector<lathe::Frame>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].body != b[i].body || a[i].error.has_value() != b[i].error.has_value()) return false;
  }
  return true;
}

// A body without newlines survives an encode/decode round trip in both styles.
void roundTrip(std::string_view bytes) {
  std::string body;
  for (char c : bytes) {
    if (c != '\n' && c != '\r') body.push_back(c);
  }
  if (body.empty() || body.find_first_not_of(" \t") == std::string::npos) return;
  for (auto style : {lathe::Framing::newline, lathe::Framing::content_length}) {
    std::string wire = lathe::encodeFrame(body, style) + lathe::encodeFrame(body, style);
    char first = body[body.find_first_not_of(" \t")];
    if (style == lathe::Framing::newline && (first == 'C' || first == 'c')) continue;  // may read as a header
    auto frames = decodeAll(wire, wire.size());
    require(frames.size() == 2);
    for (const auto& frame : frames) require(!frame.error && frame.body == body);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto whole = decodeAll(bytes, bytes.size() + 1);
  size_t step = size == 0 ? 1 : 1 + data[0] % 7;
  require(sameFrames(whole, decodeAll(bytes, step)));
  roundTrip(bytes);
  return 0;
}
