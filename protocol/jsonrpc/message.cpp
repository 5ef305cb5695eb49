// JSON-RPC 2.0 codec.
#include "protocol/jsonrpc/message.h"

namespace lathe::rpc {

int errorCodeFor(Errc errc) {
  switch (errc) {
    case Errc::invalid_params:
    case Errc::forbidden: return code::kInvalidParams;
    case Errc::invalid_request: return code::kInvalidRequest;
    case Errc::method_not_found: return code::kMethodNotFound;
    case Errc::parse_error: return code::kParseError;
    case Errc::not_found: return code::kResourceNotFound;
    case Errc::auth_required: return code::kAuthRequired;
    case Errc::cancelled: return code::kRequestCancelled;
    case Errc::timeout:
    case Errc::io:
    case Errc::http:
    case Errc::model:
    case Errc::internal: return code::kInternalError;
  }
  return code::kInternalError;
}

Decoded decode(std::string_view text) {
  auto parsed = json::parseShared(text);
  if (!parsed) return {std::nullopt, DecodeFailure{code::kParseError, "Parse error: " + parsed.error().message, {}}};
  auto doc = std::move(parsed).value();
  if (!doc->IsObject()) return {std::nullopt, DecodeFailure{code::kInvalidRequest, "Invalid Request: not an object", {}}};

  Incoming msg;
  msg.doc = doc;
  const bool isResponse = !json::find(*doc, "method") && (json::find(*doc, "result") || json::find(*doc, "error"));
  std::optional<Id> id;
  const json::Value* idv = json::find(*doc, "id");
  if (idv) {
    if (idv->IsString() || idv->IsInt64() || idv->IsUint64()) {
      id = Id{json::Raw{json::stringify(*idv)}};
    } else if (idv->IsNull() && !isResponse) {
      id = Id{json::Raw{"null"}};  // discouraged, but still a request that wants an answer
    } else if (!idv->IsNull()) {
      return {std::nullopt, DecodeFailure{code::kInvalidRequest, "Invalid Request: id must be a number or a string",
                                          {}, isResponse}};
    }
  }
  auto version = json::getStr(*doc, "jsonrpc");
  if (!version || *version != "2.0") {
    return {std::nullopt, DecodeFailure{code::kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\"", id, isResponse}};
  }
  if (const json::Value* method = json::find(*doc, "method")) {
    if (!method->IsString()) {
      return {std::nullopt, DecodeFailure{code::kInvalidRequest, "Invalid Request: method must be a string", id}};
    }
    msg.method.assign(method->GetString(), method->GetStringLength());
    msg.params = json::find(*doc, "params");
    if (msg.params && !msg.params->IsObject() && !msg.params->IsArray() && !msg.params->IsNull()) {
      return {std::nullopt, DecodeFailure{code::kInvalidRequest, "Invalid Request: params must be structured", id}};
    }
    if (id) {
      msg.kind = Incoming::Kind::request;
      msg.id = *id;
    } else {
      msg.kind = Incoming::Kind::notification;
    }
    return {std::move(msg), std::nullopt};
  }
  if (!id) {
    return {std::nullopt, DecodeFailure{code::kInvalidRequest, "Invalid Request: no method and no id", {}, isResponse}};
  }
  msg.kind = Incoming::Kind::response;
  msg.id = *id;
  if (const json::Value* err = json::find(*doc, "error"); err && err->IsObject()) {
    RpcError e;
    e.code = static_cast<int>(json::getInt(*err, "code").value_or(code::kInternalError));
    e.message = json::getStr(*err, "message").value_or("");
    if (const json::Value* data = json::find(*err, "data")) e.data = json::Raw{json::stringify(*data)};
    msg.error = std::move(e);
  } else {
    msg.result = json::find(*doc, "result");
  }
  return {std::move(msg), std::nullopt};
}

std::string encodeRequest(const Id& id, std::string_view method, const ParamsWriter& params) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "id", id.raw);
    json::put(w, "method", method);
    if (params) {
      json::key(w, "params");
      params(w);
    }
    w.EndObject();
  });
}

std::string encodeRequest(const Id& id, std::string_view method, const json::Raw& params) {
  if (params.empty()) return encodeRequest(id, method, ParamsWriter{});
  return encodeRequest(id, method, [&](json::Writer& w) { json::raw(w, params); });
}

std::string encodeNotification(std::string_view method, const ParamsWriter& params) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "method", method);
    if (params) {
      json::key(w, "params");
      params(w);
    }
    w.EndObject();
  });
}

std::string encodeNotification(std::string_view method, const json::Raw& params) {
  if (params.empty()) return encodeNotification(method, ParamsWriter{});
  return encodeNotification(method, [&](json::Writer& w) { json::raw(w, params); });
}

std::string encodeResult(const Id& id, const json::Raw& result) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "id", id.raw);
    json::key(w, "result");
    if (result.empty()) {
      w.StartObject();
      w.EndObject();
    } else {
      json::raw(w, result);
    }
    w.EndObject();
  });
}

std::string encodeError(const std::optional<Id>& id, const RpcError& error) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::key(w, "id");
    if (id) {
      json::raw(w, id->raw);
    } else {
      w.Null();
    }
    json::key(w, "error");
    w.StartObject();
    json::put(w, "code", error.code);
    json::put(w, "message", error.message);
    if (!error.data.empty()) json::put(w, "data", error.data);
    w.EndObject();
    w.EndObject();
  });
}

}  // namespace lathe::rpc
