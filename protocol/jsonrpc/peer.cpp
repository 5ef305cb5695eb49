// JSON-RPC peer. A blocking call's deadline is a timer on the executor that
// completes the call with a timeout, as an answer or a cancel would: the
// caller only ever waits for its one completion.
#include "protocol/jsonrpc/peer.h"

#include <future>

#include "protocol/base/log.h"

namespace lathe::rpc {

Responder::Responder(std::shared_ptr<Peer> peer, Id id, CancelToken cancelled)
    : peer_(std::move(peer)), id_(std::move(id)), cancelled_(std::move(cancelled)) {}

Responder::Responder(Responder&& other) noexcept
    : peer_(std::move(other.peer_)), id_(std::move(other.id_)), cancelled_(std::move(other.cancelled_)) {
  other.id_.reset();  // a moved-from optional stays engaged; the duty moves with it
}

Responder::~Responder() {
  if (id_) fail(RpcError{code::kInternalError, "internal error: the request was dropped unanswered", {}});
}

void Responder::answered() {
  {
    std::lock_guard lock(peer_->mutex_);
    peer_->incoming_.erase(id_->raw.text);
  }
  id_.reset();
}

void Responder::reply(const json::Raw& result) {
  if (!id_) return;
  peer_->send(encodeResult(*id_, result));
  answered();
}

void Responder::fail(const Error& error) { fail(RpcError{errorCodeFor(error.code), error.message, {}}); }

void Responder::fail(const RpcError& error) {
  if (!id_) return;
  peer_->send(encodeError(*id_, error));
  answered();
}

std::shared_ptr<Peer> Peer::create(ByteChannel& channel, Options options) {
  return std::shared_ptr<Peer>(new Peer(channel, options));
}

Peer::Peer(ByteChannel& channel, Options options)
    : channel_(channel),
      executor_(*options.executor),
      framing_(options.framing),
      cancelMethod_(std::move(options.cancelMethod)) {}

Peer::~Peer() { close(); }

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

void Peer::serve() {
  char buffer[65536];
  for (;;) {
    size_t n = channel_.read(buffer, sizeof buffer);
    if (n == 0) break;
    receive(std::string_view(buffer, n));
  }
  endOfInput();
}

void Peer::receive(std::string_view bytes) {
  std::vector<Frame> frames;
  // Decoding never waits for a write in progress: a full output must not
  // stop us reading (cancel and permission answers arrive this way).
  decoder_.feed(bytes, frames);
  if (framing_.load() == Framing::unknown) framing_ = decoder_.framing();
  for (auto& frame : frames) handleFrame(std::move(frame));
}

void Peer::endOfInput() {
  std::vector<Frame> frames;
  decoder_.finish(frames);
  for (auto& frame : frames) handleFrame(std::move(frame));
}

void Peer::onOutputClosed(std::function<void()> callback) {
  std::lock_guard lock(writeMutex_);
  onOutputClosed_ = std::move(callback);
}

void Peer::send(const std::string& json) {
  std::function<void()> closed;
  {
    std::lock_guard lock(writeMutex_);
    if (outputBroken_) return;
    const Framing framing = framing_.load();
    std::string header = frameHeader(json.size(), framing);
    bool written = (header.empty() || channel_.write(header)) && channel_.write(json) &&
                   channel_.write(frameTrailer(framing));
    if (!written) {
      outputBroken_ = true;
      closed = std::move(onOutputClosed_);
    }
  }
  if (closed) {
    log(LogLevel::warn, "the other side stopped reading; message dropped");
    closed();
  }
}

bool Peer::outputBroken() const {
  std::lock_guard lock(writeMutex_);
  return outputBroken_;
}

void Peer::handleFrame(Frame frame) {
  if (frame.error) {
    send(encodeError(std::nullopt, {code::kParseError, "Parse error: " + *frame.error, {}}));
    return;
  }
  Decoded decoded = decode(frame.body);
  if (!decoded) {
    const DecodeFailure& failure = decoded.error();
    if (failure.wasResponse) {
      // Never answer a response, broken or not: the id is ours, and the other
      // side could take an answer for one of its own requests.
      log(LogLevel::warn, "ignored a malformed response: " + failure.message);
      if (failure.id) complete(failure.id->raw.text, makeError(Errc::invalid_request, failure.message));
      return;
    }
    send(encodeError(failure.id, {failure.code, failure.message, {}}));
    return;
  }
  Incoming& msg = *decoded;
  if (msg.kind == Incoming::Kind::response) {
    if (msg.error) {
      std::string detail = msg.error->data.empty() ? "" : " " + msg.error->data.text.substr(0, 500);
      complete(msg.id.raw.text, makeError(Errc::internal, "the other side answered " + std::to_string(msg.error->code) +
                                                              ": " + msg.error->message + detail));
    } else {
      complete(msg.id.raw.text, Response{msg.doc, msg.result});
    }
    return;
  }
  dispatch(msg);
}

void Peer::dispatch(Incoming& msg) {
  RequestHandler requestHandler;
  NotificationHandler notificationHandler;
  std::optional<Error> refused;
  {
    std::lock_guard lock(mutex_);
    if (gate_) refused = gate_(msg.method);
    if (msg.kind == Incoming::Kind::request) {
      if (auto it = requestHandlers_.find(msg.method); it != requestHandlers_.end()) requestHandler = it->second;
    } else if (auto it = notificationHandlers_.find(msg.method); it != notificationHandlers_.end()) {
      notificationHandler = it->second;
    }
  }
  if (msg.kind == Incoming::Kind::notification) {
    // Notifications never get an answer, not even an error.
    if (!refused && !cancelMethod_.empty() && msg.method == cancelMethod_) {
      cancelIncoming(msg);
    } else if (refused) {
      log(LogLevel::warn, "ignored notification " + msg.method + ": " + refused->message);
    } else if (notificationHandler) {
      notificationHandler(msg);
    } else {
      log(LogLevel::debug, "ignored unknown notification " + msg.method);
    }
    return;
  }
  CancelToken cancelled;
  if (!cancelMethod_.empty()) {
    cancelled = CancelToken::create();
    std::lock_guard lock(mutex_);
    incoming_[msg.id.raw.text] = cancelled;  // a request reusing an unanswered id takes it over
  }
  Responder responder(shared_from_this(), msg.id, cancelled);
  if (!requestHandler) {
    responder.fail(RpcError{code::kMethodNotFound, "Method not found: " + msg.method, {}});
  } else if (refused) {
    responder.fail(*refused);
  } else {
    requestHandler(msg, std::move(responder));
  }
}

void Peer::cancelIncoming(const Incoming& msg) {
  const json::Value* id = msg.params && msg.params->IsObject() ? json::find(*msg.params, "requestId") : nullptr;
  if (!id) return log(LogLevel::warn, "ignored " + msg.method + " without a requestId");
  CancelToken token;
  {
    std::lock_guard lock(mutex_);
    auto it = incoming_.find(json::stringify(*id));
    if (it == incoming_.end()) return;  // answered already, or never ours to answer
    token = it->second;
  }
  token.cancel();  // outside the lock: its callbacks may answer the request
}

void Peer::tellCancelled(const std::string& id) {
  if (cancelMethod_.empty()) return;
  notify(cancelMethod_, [&](json::Writer& w) {
    json::object(w, [&] { json::put(w, "requestId", json::Raw{id}); });
  });
}

void Peer::notify(const std::string& method, const json::Raw& params) { send(encodeNotification(method, params)); }
void Peer::notify(const std::string& method, const ParamsWriter& params) { send(encodeNotification(method, params)); }

namespace {
ParamsWriter rawParams(const json::Raw& params) {
  if (params.empty()) return {};
  return [&params](json::Writer& w) { json::raw(w, params); };
}
}  // namespace

std::string Peer::start(const std::string& method, const ParamsWriter& params, ResponseCallback callback) {
  std::string id = enlist(std::move(callback));
  if (!id.empty()) sendRequest(id, method, params);
  return id;
}

std::string Peer::enlist(ResponseCallback callback) {
  std::unique_lock lock(mutex_);
  if (closed_) {
    lock.unlock();
    callback(makeError(Errc::io, "the connection is closed"));
    return {};
  }
  std::string id = std::to_string(++nextId_);
  pending_.emplace(id, std::move(callback));
  return id;
}

void Peer::sendRequest(const std::string& id, const std::string& method, const ParamsWriter& params) {
  send(encodeRequest(Id{json::Raw{id}}, method, params));
  if (outputBroken()) complete(id, makeError(Errc::io, "cannot send " + method + ": the connection is closed"));
}

std::string Peer::request(const std::string& method, const json::Raw& params, ResponseCallback callback) {
  return start(method, rawParams(params), std::move(callback));
}

std::string Peer::request(const std::string& method, const ParamsWriter& params, ResponseCallback callback) {
  return start(method, params, std::move(callback));
}

void Peer::abandon(const std::string& id, Error error) { complete(id, std::move(error)); }

Result<Response> Peer::call(const std::string& method, const json::Raw& params, std::chrono::milliseconds timeout,
                            const CancelToken& cancel) {
  return call(method, rawParams(params), timeout, cancel);
}

Result<Response> Peer::call(const std::string& method, const ParamsWriter& params, std::chrono::milliseconds timeout,
                            const CancelToken& cancel) {
  if (cancel.cancelled()) return makeError(Errc::cancelled, method + " was cancelled");  // no dialog for a dead turn
  auto promise = std::make_shared<std::promise<Result<Response>>>();
  auto future = promise->get_future();
  std::string id = enlist([promise](Result<Response> result) { promise->set_value(std::move(result)); });
  if (id.empty()) return future.get();
  // complete() runs the callback at most once: an answer racing the deadline
  // or the cancel wins or loses cleanly. Both are armed before the request
  // goes out, and disarmed (waiting for a running one) before `this` can go.
  CancelToken::Registration stop =
      cancel.onCancel([this, id, method] { complete(id, makeError(Errc::cancelled, method + " was cancelled")); });
  exec::Timer deadline = executor_.after(timeout, [this, id, method, timeout] {
    complete(id, makeError(Errc::timeout, "no answer to " + method + " within " + std::to_string(timeout.count()) + " ms"));
  });
  sendRequest(id, method, params);
  Result<Response> result = future.get();
  // Given up on here (not answered, not closed): the other side may stop asking.
  if (!result && (result.error().code == Errc::cancelled || result.error().code == Errc::timeout)) tellCancelled(id);
  return result;
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
  }
  callback(std::move(result));
}

void Peer::close() {
  std::map<std::string, ResponseCallback> pending;
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    pending.swap(pending_);
  }
  for (auto& [id, callback] : pending) callback(makeError(Errc::io, "the connection closed"));
}

}  // namespace lathe::rpc
