// Token estimates by character class.
#include "engine/context/token_estimate.h"

namespace lathe::engine {
namespace {

constexpr int64_t kInlineDataTokens = 3000;  // an image or a document page, roughly
constexpr int64_t kPartOverhead = 4;          // role and framing

}  // namespace

int64_t estimateTokens(std::string_view text) {
  int64_t ascii = 0;
  int64_t other = 0;
  for (unsigned char c : text) {
    if (c < 0x80) {
      ++ascii;
    } else if ((c & 0xC0) != 0x80) {
      ++other;  // the first byte of a multi-byte character
    }
  }
  return (ascii + 3) / 4 + other * 3 / 2;
}

int64_t estimateTokens(const Part& part) {
  int64_t tokens = kPartOverhead;
  if (part.text) tokens += estimateTokens(*part.text);
  if (part.functionCall) tokens += estimateTokens(part.functionCall->name) + estimateTokens(part.functionCall->args.text);
  if (part.functionResponse) {
    tokens += estimateTokens(part.functionResponse->name) + estimateTokens(part.functionResponse->response.text);
  }
  if (part.inlineData) tokens += kInlineDataTokens;
  return tokens;
}

int64_t estimateTokens(const Content& content) {
  int64_t tokens = kPartOverhead;
  for (const Part& part : content.parts) tokens += estimateTokens(part);
  return tokens;
}

int64_t estimateTokens(const std::vector<Content>& contents) {
  int64_t tokens = 0;
  for (const Content& content : contents) tokens += estimateTokens(content);
  return tokens;
}

}  // namespace lathe::engine
