// JSON-RPC 2.0 codec.
#include "protocol/jsonrpc/message.h"


#include "protocol/base/utf8.h"

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

namespace {

// A message's top-level "id" read straight from the text, for one that does
// not parse (bytes that are not UTF-8, nesting too deep elsewhere in it): the
// error then goes to the right request. Also says whether it has a "method".
struct TopLevel {
  std::optional<Id> id;
  bool hasMethod = false;
};

// An id read off a message that is not JSON, if the answer can carry it and
// a client can read it back: a JSON string of valid UTF-8 or a 64-bit integer
// ("-", "01", 30 digits, a raw control character or a lone surrogate are none
// of these), written as a decoded message's id is.
std::optional<Id> usableId(std::string_view raw) {
  if (!utf8::isValid(raw)) return std::nullopt;
  auto doc = json::parse(raw);
  if (!doc) return std::nullopt;
  const bool text = doc->IsString() && utf8::isValid(std::string_view(doc->GetString(), doc->GetStringLength()));
  if (!text && !doc->IsInt64() && !doc->IsUint64()) return std::nullopt;
  return Id{json::Raw{json::stringify(*doc)}};
}

TopLevel scanTopLevel(std::string_view text) {
  TopLevel found;
  int depth = 0;
  std::string lastKey;
  bool expectKey = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      size_t end = i + 1;
      while (end < text.size() && text[end] != '"') end += text[end] == '\\' ? 2 : 1;
      if (end >= text.size()) break;
      std::string_view token = text.substr(i, end + 1 - i);
      if (depth == 1 && expectKey) {
        lastKey = std::string(token.substr(1, token.size() - 2));
        found.hasMethod = found.hasMethod || lastKey == "method";
      } else if (depth == 1 && lastKey == "id") {
        found.id = usableId(token);
      }
      expectKey = false;
      i = end;
    } else if (c == '{' || c == '[') {
      ++depth;
      expectKey = c == '{' && depth == 1;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 1) {
      expectKey = true;
      lastKey.clear();
    } else if (depth == 1 && lastKey == "id" && (c == '-' || (c >= '0' && c <= '9'))) {
      size_t end = i;
      while (end < text.size() && (text[end] == '-' || (text[end] >= '0' && text[end] <= '9'))) ++end;
      found.id = usableId(text.substr(i, end - i));
      lastKey.clear();
      i = end - 1;
    }
  }
  return found;
}

}  // namespace

Decoded decode(std::string_view text) {
  auto parsed = json::parseShared(text);
  if (!parsed) {
    TopLevel top = scanTopLevel(text);
    std::string why = utf8::isValid(text) ? parsed.error().message : "the message is not valid UTF-8";
    return DecodeFailure{code::kParseError, "Parse error: " + why, top.id, top.id && !top.hasMethod};
  }
  auto doc = std::move(parsed).value();
  if (!doc->IsObject()) return DecodeFailure{code::kInvalidRequest, "Invalid Request: not an object", {}};

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
      return DecodeFailure{code::kInvalidRequest, "Invalid Request: id must be a number or a string", {}, isResponse};
    }
  }
  auto version = json::getStr(*doc, "jsonrpc");
  if (!version || *version != "2.0") {
    return DecodeFailure{code::kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\"", id, isResponse};
  }
  if (const json::Value* method = json::find(*doc, "method")) {
    if (!method->IsString()) {
      return DecodeFailure{code::kInvalidRequest, "Invalid Request: method must be a string", id};
    }
    msg.method.assign(method->GetString(), method->GetStringLength());
    msg.params = json::find(*doc, "params");
    if (msg.params && !msg.params->IsObject() && !msg.params->IsArray() && !msg.params->IsNull()) {
      return DecodeFailure{code::kInvalidRequest, "Invalid Request: params must be structured", id};
    }
    if (id) {
      msg.kind = Incoming::Kind::request;
      msg.id = *id;
    } else {
      msg.kind = Incoming::Kind::notification;
    }
    return msg;
  }
  if (!id) {
    return DecodeFailure{code::kInvalidRequest, "Invalid Request: no method and no id", {}, isResponse};
  }
  if (!isResponse) {
    // An id alone is neither a request nor a response: it must never complete one of ours.
    return DecodeFailure{code::kInvalidRequest, "Invalid Request: no method, result or error", id};
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
  return msg;
}

std::string encodeRequest(const Id& id, std::string_view method, const ParamsWriter& params) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "id", id.raw);
    json::put(w, "method", method);
    if (params) {
      json::key(w, "params");
      params(w);
    }
  });
}

std::string encodeRequest(const Id& id, std::string_view method, const json::Raw& params) {
  if (params.empty()) return encodeRequest(id, method, ParamsWriter{});
  return encodeRequest(id, method, [&](json::Writer& w) { json::raw(w, params); });
}

std::string encodeNotification(std::string_view method, const ParamsWriter& params) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "method", method);
    if (params) {
      json::key(w, "params");
      params(w);
    }
  });
}

std::string encodeNotification(std::string_view method, const json::Raw& params) {
  if (params.empty()) return encodeNotification(method, ParamsWriter{});
  return encodeNotification(method, [&](json::Writer& w) { json::raw(w, params); });
}

std::string encodeResult(const Id& id, const json::Raw& result) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "id", id.raw);
    if (result.empty()) {
      json::object(w, "result", [] {});
    } else {
      json::put(w, "result", result);
    }
  });
}

std::string encodeError(const std::optional<Id>& id, const RpcError& error) {
  return json::buildObject([&](json::Writer& w) {
    json::put(w, "jsonrpc", "2.0");
    json::key(w, "id");
    if (id) {
      json::raw(w, id->raw);
    } else {
      w.Null();
    }
    json::object(w, "error", [&] {
      json::put(w, "code", error.code);
      json::put(w, "message", error.message);
      if (!error.data.empty()) json::put(w, "data", error.data);
    });
  });
}

}  // namespace lathe::rpc
