// Binds JSON-RPC methods to typed member functions (the table itself may be a
// temporary: bindings keep only the handler): params are decoded once
// (a bad field answers -32602 naming it), the member is called, and its result
// or error is encoded. Three shapes: a request answered at once, a request
// answered later through its Responder, and a notification. Handlers run on
// the peer's reading thread and must not block.
#pragma once

#include <memory>
#include <string>

#include "protocol/base/log.h"
#include "protocol/jsonrpc/peer.h"

namespace lathe::server {

template <class Handler>
class MethodTable {
 public:
  MethodTable(rpc::Peer& peer, Handler& handler) : peer_(peer), handler_(handler) {}

  template <class Request, class Response>
  MethodTable& request(const std::string& method, Result<Response> (Handler::*member)(const Request&)) {
    peer_.onRequest(method, [handler = &handler_, member](const rpc::Incoming& msg, rpc::Responder responder) {
      auto request = Request::fromJson(paramsOf(msg));
      if (!request) return responder.fail(request.error());
      auto result = (handler->*member)(*request);
      if (!result) return responder.fail(result.error());
      responder.reply(result->toJson());
    });
    return *this;
  }

  template <class Request>
  MethodTable& deferred(const std::string& method, void (Handler::*member)(const Request&, rpc::Responder)) {
    peer_.onRequest(method, [handler = &handler_, member](const rpc::Incoming& msg, rpc::Responder responder) {
      auto request = Request::fromJson(paramsOf(msg));
      if (!request) return responder.fail(request.error());
      (handler->*member)(*request, std::move(responder));
    });
    return *this;
  }

  template <class Notification>
  MethodTable& notification(const std::string& method, void (Handler::*member)(const Notification&)) {
    peer_.onNotification(method, [handler = &handler_, member, method](const rpc::Incoming& msg) {
      auto note = Notification::fromJson(paramsOf(msg));
      if (!note) return log(LogLevel::warn, "bad " + method + ": " + note.error().message);
      (handler->*member)(*note);
    });
    return *this;
  }

 private:
  static const json::Value& paramsOf(const rpc::Incoming& msg) {
    static const json::Value kNull;  // absent params decode as "expected an object"
    return msg.params ? *msg.params : kNull;
  }

  rpc::Peer& peer_;
  Handler& handler_;
};

}  // namespace lathe::server
