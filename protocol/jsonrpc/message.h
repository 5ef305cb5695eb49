// JSON-RPC 2.0 messages: decoding an incoming text into a request, notification
// or response, and encoding outgoing ones. Pure; any thread.
#pragma once

#include <memory>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/json.h"
#include "protocol/base/result.h"

namespace lathe::rpc {

namespace code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kRequestCancelled = -32800;
inline constexpr int kAuthRequired = -32000;
inline constexpr int kResourceNotFound = -32002;
}  // namespace code

// The one place internal errors become JSON-RPC codes.
int errorCodeFor(Errc errc);

// A request id exactly as it appeared on the wire (a number or a string).
struct Id {
  json::Raw raw;
  bool operator==(const Id& other) const { return raw.text == other.raw.text; }
};

struct RpcError {
  int code = code::kInternalError;
  std::string message;
  json::Raw data;
};

struct Incoming {
  enum class Kind { request, notification, response };
  Kind kind = Kind::notification;
  Id id;                                // request or response
  std::string method;                   // request or notification
  std::shared_ptr<json::Document> doc;  // owns everything below
  const json::Value* params = nullptr;  // may be null
  const json::Value* result = nullptr;  // response
  std::optional<RpcError> error;        // response carrying an error
};

// A message that could not be decoded, and what to answer (if anything).
struct DecodeFailure {
  int code = code::kParseError;
  std::string message;
  std::optional<Id> id;  // when the broken message still had a usable id
  bool wasResponse = false;  // a broken response: JSON-RPC never answers those
};

using Decoded = Result<Incoming, DecodeFailure>;

Decoded decode(std::string_view text);

// Params either as JSON text or written in place (a payload of megabytes is
// then encoded once, straight into the message).
using ParamsWriter = std::function<void(json::Writer&)>;
std::string encodeRequest(const Id& id, std::string_view method, const json::Raw& params);
std::string encodeRequest(const Id& id, std::string_view method, const ParamsWriter& params);
std::string encodeNotification(std::string_view method, const json::Raw& params);
std::string encodeNotification(std::string_view method, const ParamsWriter& params);
std::string encodeResult(const Id& id, const json::Raw& result);
std::string encodeError(const std::optional<Id>& id, const RpcError& error);

}  // namespace lathe::rpc
