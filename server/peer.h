// The JSON-RPC peer: dispatches incoming requests and notifications to a method
// table, answers each request exactly once, and sends our own requests to the
// client, correlated by id, each with a timeout. Incoming messages are handled
// on the reading thread; replies, notifications and requests may be sent from
// any thread. Timeouts fire on the peer's timer thread.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "protocol/cancel.h"
#include "protocol/framing.h"
#include "protocol/jsonrpc.h"
#include "protocol/result.h"
#include "server/transport.h"

namespace lathe::server {

class Peer;

// Answers one request exactly once. Dropping it unanswered answers with an
// internal error, so a lost code path never leaves the client waiting.
class Responder {
 public:
  Responder(std::shared_ptr<Peer> peer, rpc::Id id);
  Responder(Responder&& other) noexcept;
  Responder& operator=(Responder&&) = delete;
  ~Responder();

  void reply(const json::Raw& result);
  void fail(const Error& error);
  void fail(const rpc::RpcError& error);

 private:
  std::shared_ptr<Peer> peer_;
  std::optional<rpc::Id> id_;
};

struct Response {
  std::shared_ptr<json::Document> doc;  // owns result
  const json::Value* result = nullptr;
};

class Peer : public std::enable_shared_from_this<Peer> {
 public:
  using RequestHandler = std::function<void(const rpc::Incoming&, Responder)>;
  using NotificationHandler = std::function<void(const rpc::Incoming&)>;
  using ResponseCallback = std::function<void(Result<Response>)>;
  // Returns an error to refuse a method (e.g. before initialize).
  using Gate = std::function<std::optional<Error>(const std::string& method)>;

  static std::shared_ptr<Peer> create(Transport& transport);
  ~Peer();

  void onRequest(const std::string& method, RequestHandler handler);
  void onNotification(const std::string& method, NotificationHandler handler);
  void setGate(Gate gate);

  // Decodes and dispatches one incoming frame.
  void handleFrame(Frame frame);

  void notify(const std::string& method, const json::Raw& params);
  // The callback runs exactly once: with the result, the client's error, a
  // timeout, or a closed connection.
  // Returns the request's id.
  std::string request(const std::string& method, const json::Raw& params, std::chrono::milliseconds timeout,
                      ResponseCallback callback);
  // Blocking form for worker threads; cancel ends the wait with Errc::cancelled.
  Result<Response> call(const std::string& method, const json::Raw& params, std::chrono::milliseconds timeout,
                        const CancelToken& cancel);

  // Fails every pending request; later requests fail at once.
  void close();

 private:
  friend class Responder;
  explicit Peer(Transport& transport);
  void send(const std::string& json);
  void complete(const std::string& id, Result<Response> result);

  struct Timers;
  Transport& transport_;
  std::unique_ptr<Timers> timers_;
  std::mutex mutex_;
  std::map<std::string, RequestHandler> requestHandlers_;
  std::map<std::string, NotificationHandler> notificationHandlers_;
  Gate gate_;
  std::map<std::string, ResponseCallback> pending_;
  int64_t nextId_ = 0;
  bool closed_ = false;
};

}  // namespace lathe::server
