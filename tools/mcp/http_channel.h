// MCP's HTTP transports as a byte channel for the JSON-RPC peer: each message
// the peer writes is POSTed; what the server sends back (a JSON answer, or
// the events of an SSE answer, or of the GET stream) is read as lines.
//   streamable  Streamable HTTP: one URL; Mcp-Session-Id kept from the
//               initialize answer; MCP-Protocol-Version on every later POST;
//               a GET stream for the server's own messages; DELETE on close.
//   sse         the legacy HTTP+SSE transport: a GET stream whose `endpoint`
//               event names where to POST; answers arrive on the stream.
//   automatic   Streamable HTTP first; a 4xx answer to the first POST (or no
//               answer at all) falls back to the legacy transport.
// A POST that fails is answered to the peer as a JSON-RPC error for that
// request, so a caller never waits for an answer that cannot come. When the
// server cannot be reached, or refuses our session (404, or 400 from TypeScript SDK servers), the channel ends
// (the peer reads end of input) and the next use connects afresh.
//
// Threads: write() from any thread (serialised by the peer) starts each POST
// as a task on the executor; read() on the peer's reading thread; the GET
// stream as a task too; closeWrite() on the owner's thread ends all of them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/base/cancel.h"
#include "protocol/exec/task_group.h"
#include "protocol/jsonrpc/channel.h"
#include "tools/mcp/server_config.h"

namespace lathe::tools::mcp {

class HttpChannel final : public rpc::ByteChannel {
 public:
  explicit HttpChannel(HttpTransport config);
  ~HttpChannel() override;

  size_t read(char* buffer, size_t size) override;
  bool write(std::string_view bytes) override;
  void closeWrite() override;

  // Sent as MCP-Protocol-Version from now on (Streamable HTTP).
  void setProtocolVersion(std::string version);
  // False once the connection is over (set before the failed request's error
  // is read, so the next use never reuses a dead session).
  bool usable();
  // Which transport is in use and what last went wrong.
  std::string describe();

 private:
  enum class Mode { streamable, sse };
  void startPost(std::string message);
  void post(const std::string& message);
  void postStreamable(const std::string& message);
  void postLegacy(const std::string& message);
  // Opens the legacy GET stream and waits for its endpoint; false on failure.
  bool openLegacy();
  void runStream(std::string url, bool legacy);
  void deliver(std::string_view json);
  void answerWithError(const std::string& message, const std::string& why);
  void endInput();
  void markBroken();

  HttpTransport config_;
  CancelToken closing_ = CancelToken::create();
  std::mutex mutex_;  // guards everything below
  std::condition_variable changed_;
  Mode mode_;
  bool decided_ = false;  // automatic: whether the first POST settled the mode
  std::string sessionId_;
  std::string protocolVersion_;
  std::string endpoint_;  // legacy: where to POST
  bool streamOpen_ = false;
  bool streamEnded_ = false;
  std::string lastProblem_;
  std::string pending_;  // written bytes not yet a whole line
  std::string inbox_;    // lines for read()
  bool eof_ = false;
  bool broken_ = false;
  // Starts fn as a task on the executor; mutex_ held.
  void spawn(std::function<void()> fn);
  std::mutex legacyMutex_;  // one fallback at a time
  exec::TaskGroup workers_;  // last: joined before the members above go
};

}  // namespace lathe::tools::mcp
