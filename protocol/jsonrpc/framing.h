// Message framing for JSON-RPC over a byte stream. Two styles: one JSON text per
// '\n'-terminated line (ACP), or LSP-style "Content-Length:" headers. The style is
// detected from the first bytes and then fixed. Pure; not thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lathe {

enum class Framing { unknown, newline, content_length };

struct Frame {
  std::string body;
  std::optional<std::string> error;  // set when the frame itself is broken
};

class FrameDecoder {
 public:
  explicit FrameDecoder(size_t maxFrameBytes = 256u << 20) : maxFrame_(maxFrameBytes) {}

  // Consumes bytes (any split), appending every completed frame to out.
  void feed(std::string_view bytes, std::vector<Frame>& out);
  // At end of input: a final line without '\n' still counts.
  void finish(std::vector<Frame>& out);

  Framing framing() const { return framing_; }

 private:
  void decodeLines(std::vector<Frame>& out);
  void decodeHeaders(std::vector<Frame>& out);

  size_t maxFrame_;
  Framing framing_ = Framing::unknown;
  std::string buffer_;
  size_t scanned_ = 0;        // newline search resumes here
  bool discarding_ = false;   // skipping the rest of an oversized line
  std::optional<size_t> contentLength_;
  size_t skip_ = 0;  // body bytes of an oversized framed message still to drop
};

// What goes before and after one JSON text on the wire in the given style
// (newline when unknown), so a large message is written without a copy.
std::string frameHeader(size_t jsonSize, Framing framing);
std::string_view frameTrailer(Framing framing);
// The whole frame: header, text, trailer.
std::string encodeFrame(std::string_view json, Framing framing);

}  // namespace lathe
