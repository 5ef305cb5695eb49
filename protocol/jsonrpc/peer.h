// The JSON-RPC peer over a ByteChannel: reads frames and dispatches incoming
// requests and notifications to a method table, answers each request exactly
// once, and sends our own requests, correlated by id. serve() runs the reading
// loop on its caller's thread, where handlers run too; replies, notifications
// and requests may be sent from any thread. Used for the editor (ACP) and for
// MCP servers.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/base/cancel.h"
#include "protocol/base/result.h"
#include "protocol/exec/executor.h"
#include "protocol/jsonrpc/channel.h"
#include "protocol/jsonrpc/framing.h"
#include "protocol/jsonrpc/message.h"

namespace lathe::rpc {

class Peer;

// Answers one request exactly once. Dropping it unanswered answers with an
// internal error, so a lost code path never leaves the other side waiting.
class Responder {
 public:
  Responder(std::shared_ptr<Peer> peer, Id id, CancelToken cancelled = CancelToken());
  Responder(Responder&& other) noexcept;
  Responder& operator=(Responder&&) = delete;
  ~Responder();

  void reply(const json::Raw& result);
  void fail(const Error& error);
  void fail(const RpcError& error);
  // Cancelled when the other side asks to cancel this request (never for
  // peers without a cancel method). Answering stays the holder's duty.
  const CancelToken& cancelled() const { return cancelled_; }
  // The request's id; none once answered.
  const std::optional<Id>& id() const { return id_; }

 private:
  void answered();
  std::shared_ptr<Peer> peer_;
  std::optional<Id> id_;
  CancelToken cancelled_;
};

struct Response {
  std::shared_ptr<json::Document> doc;  // owns result
  const json::Value* result = nullptr;
};

class Peer : public std::enable_shared_from_this<Peer> {
 public:
  using RequestHandler = std::function<void(const Incoming&, Responder)>;
  using NotificationHandler = std::function<void(const Incoming&)>;
  using ResponseCallback = std::function<void(Result<Response>)>;
  // Returns an error to refuse a method (e.g. before initialize).
  using Gate = std::function<std::optional<Error>(const std::string& method)>;

  struct Options {
    Framing framing = Framing::unknown;  // unknown: detect from the first bytes, answer in kind
    exec::Executor* executor = &exec::Executor::shared();  // where call()'s deadlines run
    // The notification that cancels a request by id, both ways ("$/cancel_request"
    // for ACP, "notifications/cancelled" for MCP); empty: none.
    std::string cancelMethod;
  };

  static std::shared_ptr<Peer> create(ByteChannel& channel, Options options);
  static std::shared_ptr<Peer> create(ByteChannel& channel) { return create(channel, Options{}); }
  ~Peer();

  void onRequest(const std::string& method, RequestHandler handler);
  void onNotification(const std::string& method, NotificationHandler handler);
  void setGate(Gate gate);

  // Reads and dispatches until end of input, then closes.
  void serve();
  // The same for input that arrives elsewhere (a pipe read on the executor):
  // bytes as they come, then the end. One caller at a time, as serve().
  void receive(std::string_view bytes);
  void endOfInput();
  // Decodes and dispatches one incoming frame.
  void handleFrame(Frame frame);

  void notify(const std::string& method, const json::Raw& params);
  void notify(const std::string& method, const ParamsWriter& params);
  // The callback runs exactly once: with the result, the other side's error,
  // or a closed connection.
  // Returns the request's id as sent (a JSON number), or empty when it failed
  // at once (the callback has then run).
  std::string request(const std::string& method, const json::Raw& params, ResponseCallback callback);
  std::string request(const std::string& method, const ParamsWriter& params, ResponseCallback callback);
  // Gives up on a pending request: its callback runs now with `error`; a late
  // answer is ignored. No-op once answered. (MCP tells the server separately.)
  void abandon(const std::string& id, Error error);
  // Blocking form for worker threads: ends with the answer, Errc::timeout after
  // the timeout, or Errc::cancelled when cancel fires; in those two cases the
  // other side is told to cancel the request (Options::cancelMethod).
  Result<Response> call(const std::string& method, const json::Raw& params, std::chrono::milliseconds timeout,
                        const CancelToken& cancel);
  Result<Response> call(const std::string& method, const ParamsWriter& params, std::chrono::milliseconds timeout,
                        const CancelToken& cancel);

  // Fails every pending request; later requests fail at once.
  void close();
  // True once the output is gone (the other side stopped reading).
  bool outputBroken() const;
  // Called once, on the sending thread, when the output breaks.
  void onOutputClosed(std::function<void()> callback);

 private:
  friend class Responder;
  Peer(ByteChannel& channel, Options options);
  void send(const std::string& json);
  // Sends a request; returns its id, or empty after failing the callback.
  std::string start(const std::string& method, const ParamsWriter& params, ResponseCallback callback);
  // start() in two steps, so that call() arms its deadline before sending.
  std::string enlist(ResponseCallback callback);
  void sendRequest(const std::string& id, const std::string& method, const ParamsWriter& params);
  void complete(const std::string& id, Result<Response> result);
  void dispatch(Incoming& msg);
  // The other side gave up on one of its requests: its Responder's token fires.
  void cancelIncoming(const Incoming& msg);
  void tellCancelled(const std::string& id);

  ByteChannel& channel_;
  exec::Executor& executor_;
  FrameDecoder decoder_;  // reading thread only
  std::atomic<Framing> framing_;
  mutable std::mutex writeMutex_;
  bool outputBroken_ = false;
  std::function<void()> onOutputClosed_;  // guarded by writeMutex_
  std::mutex mutex_;
  std::map<std::string, RequestHandler> requestHandlers_;
  std::map<std::string, NotificationHandler> notificationHandlers_;
  Gate gate_;
  std::map<std::string, ResponseCallback> pending_;
  std::string cancelMethod_;
  std::map<std::string, CancelToken> incoming_;  // unanswered requests of the other side, by id
  int64_t nextId_ = 0;
  bool closed_ = false;
};

}  // namespace lathe::rpc
