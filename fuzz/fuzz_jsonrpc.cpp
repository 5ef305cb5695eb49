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
  require(decoded.message.has_value() != decoded.failure.has_value());
  if (decoded.message && decoded.message->kind == rpc::Incoming::Kind::request) {
    auto answer = rpc::decode(rpc::encodeResult(decoded.message->id, json::Raw{"{}"}));
    require(answer.message && answer.message->kind == rpc::Incoming::Kind::response);
    require(answer.message->id == decoded.message->id);
  }
  if (decoded.failure && !decoded.failure->wasResponse) {
    rpc::RpcError error{decoded.failure->code, decoded.failure->message, {}};
    auto answer = rpc::decode(rpc::encodeError(decoded.failure->id, error));
    require(answer.message.has_value() || answer.failure.has_value());
  }
  return 0;
}
