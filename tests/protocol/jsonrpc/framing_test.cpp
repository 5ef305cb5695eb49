// Frame decoding: both framings, any split of the input, oversized and broken frames.
#include <catch2/catch.hpp>

#include "protocol/jsonrpc/framing.h"

using lathe::Frame;
using lathe::FrameDecoder;
using lathe::Framing;

namespace {
std::vector<std::string> bodies(const std::vector<Frame>& frames) {
  std::vector<std::string> out;
  for (const auto& f : frames) out.push_back(f.error ? "ERROR:" + *f.error : f.body);
  return out;
}

std::vector<Frame> feedInPieces(const std::string& input, size_t piece) {
  FrameDecoder decoder;
  std::vector<Frame> frames;
  for (size_t i = 0; i < input.size(); i += piece) decoder.feed(std::string_view(input).substr(i, piece), frames);
  decoder.finish(frames);
  return frames;
}
}  // namespace

TEST_CASE("newline framing yields one message per line, for every split") {
  const std::string input = "{\"a\":1}\n{\"b\":2}\r\n\n  \n{\"c\":3}\n";
  for (size_t piece = 1; piece <= input.size(); ++piece) {
    auto frames = feedInPieces(input, piece);
    INFO("piece size " << piece);
    REQUIRE(bodies(frames) == std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"});
  }
}

TEST_CASE("merged reads deliver every message in order") {
  FrameDecoder decoder;
  std::vector<Frame> frames;
  decoder.feed("{\"a\":1}\n{\"b\":2}\n{\"c\"", frames);
  REQUIRE(frames.size() == 2);
  decoder.feed(":3}\n", frames);
  REQUIRE(bodies(frames).back() == "{\"c\":3}");
  REQUIRE(decoder.framing() == Framing::newline);
}

TEST_CASE("a final line without newline counts at end of input") {
  FrameDecoder decoder;
  std::vector<Frame> frames;
  decoder.feed("{\"a\":1}", frames);
  REQUIRE(frames.empty());
  decoder.finish(frames);
  REQUIRE(bodies(frames) == std::vector<std::string>{"{\"a\":1}"});
}

TEST_CASE("Content-Length framing is detected and decoded for every split") {
  const std::string a = "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}";
  const std::string b = "{\"é\":\"ü\"}";  // multi-byte: length is in bytes
  const std::string input = "Content-Length: " + std::to_string(a.size()) + "\r\n\r\n" + a +
                            "content-length:" + std::to_string(b.size()) +
                            "\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + b;
  for (size_t piece = 1; piece <= input.size(); piece += 1) {
    auto frames = feedInPieces(input, piece);
    INFO("piece size " << piece);
    REQUIRE(bodies(frames) == std::vector<std::string>{a, b});
  }
}

TEST_CASE("a header block without Content-Length is reported, and decoding goes on") {
  FrameDecoder decoder;
  std::vector<Frame> frames;
  decoder.feed("Content-Length: 2\r\n\r\n{}Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n[]", frames);
  REQUIRE(frames.size() == 3);
  CHECK(frames[0].body == "{}");
  CHECK(frames[1].error.has_value());
  CHECK(frames[2].body == "[]");
}

TEST_CASE("an oversized line is reported once and skipped, the next line still decodes") {
  FrameDecoder decoder(1024);
  std::vector<Frame> frames;
  std::string huge(5000, 'x');
  for (size_t i = 0; i < huge.size(); i += 700) decoder.feed(std::string_view(huge).substr(i, 700), frames);
  decoder.feed("\n{\"ok\":true}\n", frames);
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].error.has_value());
  CHECK(frames[1].body == "{\"ok\":true}");
}

TEST_CASE("a large but allowed line (8 MB) passes whole") {
  FrameDecoder decoder;
  std::vector<Frame> frames;
  std::string line = "\"" + std::string(8u << 20, 'y') + "\"\n";
  for (size_t i = 0; i < line.size(); i += 65536) decoder.feed(std::string_view(line).substr(i, 65536), frames);
  REQUIRE(frames.size() == 1);
  CHECK(frames[0].body.size() == line.size() - 1);
}

TEST_CASE("encodeFrame writes both styles") {
  CHECK(lathe::encodeFrame("{}", Framing::newline) == "{}\n");
  CHECK(lathe::encodeFrame("{}", Framing::unknown) == "{}\n");
  CHECK(lathe::encodeFrame("{}", Framing::content_length) == "Content-Length: 2\r\n\r\n{}");
}

TEST_CASE("an oversized Content-Length body is skipped exactly, the next message still decodes") {
  for (size_t piece : {size_t(1), size_t(7), size_t(4096)}) {
    FrameDecoder decoder(100);
    std::vector<Frame> frames;
    std::string body(300, 'z');
    std::string input = "Content-Length: 300\r\n\r\n" + body + "Content-Length: 2\r\n\r\n{}";
    for (size_t i = 0; i < input.size(); i += piece) decoder.feed(std::string_view(input).substr(i, piece), frames);
    INFO("piece " << piece);
    REQUIRE(frames.size() == 2);
    CHECK(frames[0].error.has_value());
    CHECK(frames[1].body == "{}");
  }
}

TEST_CASE("Content-Length headers ended by LF lines, CRLF lines or a mix all decode") {
  const std::string a = "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}";
  for (std::string end : {"\n\n", "\r\n\r\n", "\n\r\n", "\r\n\n"}) {
    const std::string input = "Content-Length: " + std::to_string(a.size()) + end + a + "Content-Length: " +
                              std::to_string(a.size()) + end + a;
    for (size_t piece = 1; piece <= input.size(); ++piece) {
      INFO("separator " << (end == "\n\r\n" ? "LF CRLF" : end.size() == 2 ? "LF LF" : "other") << ", piece " << piece);
      REQUIRE(bodies(feedInPieces(input, piece)) == std::vector<std::string>{a, a});
    }
  }
}
