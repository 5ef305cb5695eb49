// Fuzz target: rpc::decode on one JSON-RPC message text. Invariants: exactly
// one of message/failure; a request's id re-encodes and decodes back to the
// same id; a failure's answer is a decodable response. Single-threaded.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "protocol/jsonrpc/message.h"

namespace {
void require(bool condition) {
  if (!condition) abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace lathe;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto decoded = rpc::decode(text);
  if (decoded && decoded->kind == rpc::Incoming::Kind::request) {
    auto answer = rpc::decode(rpc::encodeResult(decoded->id, json::Raw{"{}"}));
    require(answer && answer->kind == rpc::Incoming::Kind::response);
    require(answer->id == decoded->id);
  }
  if (!decoded && !decoded.error().wasResponse && decoded.error().id && decoded.error().id->raw.text != "null") {
    // The answer to a broken request with a usable id is a response carrying that id
    // (a null id reads back as no id at all).
    const rpc::DecodeFailure& failure = decoded.error();
    auto answer = rpc::decode(rpc::encodeError(failure.id, {failure.code, failure.message, {}}));
    require(answer && answer->kind == rpc::Incoming::Kind::response && answer->id == *failure.id);
  }
  return 0;
}
