// JSON-RPC peer. Boost.Asio provides the timer thread for request timeouts.
#include <utility>  // before Asio: g++ 12 + Boost 1.74 need it

#include "server/peer.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <future>
#include <thread>

#include "server/log.h"

namespace lathe::server {
namespace asio = boost::asio;

struct Peer::Timers {
  asio::io_context io;
  asio::executor_work_guard<asio::io_context::executor_type> work{io.get_executor()};
  std::map<std::string, std::unique_ptr<asio::steady_timer>> byId;  // guarded by Peer::mutex_
  std::thread thread{[this] { io.run(); }};

  // Ends the timer thread; called without Peer::mutex_ held (a handler may
  // be waiting for it). Never from a handler itself.
  void stop() {
    work.reset();
    io.stop();
    if (thread.joinable() && thread.get_id() != std::this_thread::get_id()) thread.join();
  }
  ~Timers() {
    stop();
    if (thread.joinable()) thread.detach();  // only when destroyed from its own handler
  }
};

Responder::Responder(std::shared_ptr<Peer> peer, rpc::Id id) : peer_(std::move(peer)), id_(std::move(id)) {}

Responder::Responder(Responder&& other) noexcept : peer_(std::move(other.peer_)), id_(std::move(other.id_)) {
  other.id_.reset();  // a moved-from optional stays engaged; the duty moves with it
}

Responder::~Responder() {
  if (id_) fail(rpc::RpcError{rpc::code::kInternalError, "internal error: the request was dropped unanswered", {}});
}

void Responder::reply(const json::Raw& result) {
  if (!id_) return;
  peer_->send(rpc::encodeResult(*id_, result));
  id_.reset();
}

void Responder::fail(const Error& error) { fail(rpc::RpcError{rpc::errorCodeFor(error.code), error.message, {}}); }

void Responder::fail(const rpc::RpcError& error) {
  if (!id_) return;
  peer_->send(rpc::encodeError(*id_, error));
  id_.reset();
}

std::shared_ptr<Peer> Peer::create(Transport& transport) { return std::shared_ptr<Peer>(new Peer(transport)); }

Peer::Peer(Transport& transport) : transport_(transport), timers_(std::make_unique<Timers>()) {}

Peer::~Peer() {
  close();
  timers_.reset();
}

void Peer::onRequest(const std::string& method, RequestHandler handler) {
  std::lock_guard lock(mutex_);
  requestHandlers_[method] = std::move(handler);
}

void Peer::onNotification(const std::string& method, NotificationHandler handler) {
  std::lock_guard lock(mutex_);
  notificationHandlers_[method] = std::move(handler);
}

void Peer::setGate(Gate gate) {
  std::lock_guard lock(mutex_);
  gate_ = std::move(gate);
}

void Peer::send(const std::string& json) {
  if (!transport_.send(json)) log(LogLevel::debug, "output closed; message dropped");
}

void Peer::handleFrame(Frame frame) {
  if (frame.error) {
    send(rpc::encodeError(std::nullopt, {rpc::code::kParseError, "Parse error: " + *frame.error, {}}));
    return;
  }
  rpc::Decoded decoded = rpc::decode(frame.body);
  if (decoded.failure) {
    if (decoded.failure->wasResponse) {
      // Never answer a response, broken or not: the id is ours, and the client
      // could take an answer for one of its own requests.
      log(LogLevel::warn, "ignored a malformed response: " + decoded.failure->message);
      if (decoded.failure->id) complete(decoded.failure->id->raw.text, makeError(Errc::invalid_request, decoded.failure->message));
      return;
    }
    send(rpc::encodeError(decoded.failure->id, {decoded.failure->code, decoded.failure->message, {}}));
    return;
  }
  rpc::Incoming& msg = *decoded.message;
  if (msg.kind == rpc::Incoming::Kind::response) {
    if (msg.error) {
      std::string detail = msg.error->data.empty() ? "" : " " + msg.error->data.text.substr(0, 500);
      complete(msg.id.raw.text, makeError(Errc::internal, "the client answered " + std::to_string(msg.error->code) +
                                                              ": " + msg.error->message + detail));
    } else {
      complete(msg.id.raw.text, Response{msg.doc, msg.result});
    }
    return;
  }

  RequestHandler requestHandler;
  NotificationHandler notificationHandler;
  std::optional<Error> refused;
  {
    std::lock_guard lock(mutex_);
    if (gate_) refused = gate_(msg.method);
    if (msg.kind == rpc::Incoming::Kind::request) {
      if (auto it = requestHandlers_.find(msg.method); it != requestHandlers_.end()) requestHandler = it->second;
    } else if (auto it = notificationHandlers_.find(msg.method); it != notificationHandlers_.end()) {
      notificationHandler = it->second;
    }
  }
  if (msg.kind == rpc::Incoming::Kind::notification) {
    // Notifications never get an answer, not even an error.
    if (refused) {
      log(LogLevel::warn, "ignored notification " + msg.method + ": " + refused->message);
    } else if (notificationHandler) {
      notificationHandler(msg);
    } else {
      log(LogLevel::debug, "ignored unknown notification " + msg.method);
    }
    return;
  }
  Responder responder(shared_from_this(), msg.id);
  if (!requestHandler) {
    responder.fail(rpc::RpcError{rpc::code::kMethodNotFound, "Method not found: " + msg.method, {}});
  } else if (refused) {
    responder.fail(*refused);
  } else {
    requestHandler(msg, std::move(responder));
  }
}

void Peer::notify(const std::string& method, const json::Raw& params) { send(rpc::encodeNotification(method, params)); }

std::string Peer::request(const std::string& method, const json::Raw& params, std::chrono::milliseconds timeout,
                          ResponseCallback callback) {
  std::string id;
  {
    std::unique_lock lock(mutex_);
    if (closed_) {
      lock.unlock();
      callback(makeError(Errc::io, "the connection to the client is closed"));
      return {};
    }
    id = std::to_string(++nextId_);
    pending_.emplace(id, std::move(callback));
    auto timer = std::make_unique<asio::steady_timer>(timers_->io, timeout);
    timer->async_wait([self = weak_from_this(), id, method, timeout](const boost::system::error_code& ec) {
      if (ec) return;  // cancelled: the response arrived first
      if (auto peer = self.lock()) {
        peer->complete(id, makeError(Errc::timeout, "the client did not answer " + method + " within " +
                                                        std::to_string(timeout.count()) + " ms"));
      }
    });
    timers_->byId.emplace(id, std::move(timer));
  }
  if (!transport_.send(rpc::encodeRequest(rpc::Id{json::Raw{id}}, method, params))) {
    complete(id, makeError(Errc::io, "cannot send " + method + ": the connection to the client is closed"));
  }
  return id;
}

Result<Response> Peer::call(const std::string& method, const json::Raw& params, std::chrono::milliseconds timeout,
                            const CancelToken& cancel) {
  if (cancel.cancelled()) return makeError(Errc::cancelled, method + " was cancelled");  // no dialog for a dead turn
  auto promise = std::make_shared<std::promise<Result<Response>>>();
  auto future = promise->get_future();
  std::string id =
      request(method, params, timeout, [promise](Result<Response> result) { promise->set_value(std::move(result)); });
  CancelToken::Registration stop;
  if (!id.empty()) {
    stop = cancel.onCancel([this, id, method] { complete(id, makeError(Errc::cancelled, method + " was cancelled")); });
  }
  return future.get();
}

void Peer::complete(const std::string& id, Result<Response> result) {
  ResponseCallback callback;
  {
    std::lock_guard lock(mutex_);
    auto it = pending_.find(id);
    if (it == pending_.end()) {
      log(LogLevel::debug, "response to unknown or finished request " + id);
      return;
    }
    callback = std::move(it->second);
    pending_.erase(it);
    if (auto timer = timers_->byId.find(id); timer != timers_->byId.end()) {
      timer->second->cancel();
      // Destroy the timer on its own thread, after its handler has run.
      asio::post(timers_->io, [t = std::shared_ptr<asio::steady_timer>(std::move(timer->second))] {});
      timers_->byId.erase(timer);
    }
  }
  callback(std::move(result));
}

void Peer::close() {
  std::map<std::string, ResponseCallback> pending;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    pending.swap(pending_);
    for (auto& [id, timer] : timers_->byId) timer->cancel();
  }
  // No timeout can fire after this, so the last reference to the peer is
  // never dropped on the timer thread.
  timers_->stop();
  for (auto& [id, callback] : pending) callback(makeError(Errc::io, "the connection to the client closed"));
}

}  // namespace lathe::server
