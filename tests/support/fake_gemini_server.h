// A fake Gemini API on 127.0.0.1 for tests and benchmarks: serves scripted
// replies to :streamGenerateContent (SSE, really streamed), :generateContent and
// :countTokens, records every request, and rejects (HTTP 400) any generate
// request whose history breaks the function call/response invariants.
// The public methods are thread-safe; requests are served on cpp-httplib's
// worker threads, the listener runs on a thread of its own.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "protocol/base/result.h"
#include "tests/support/scripted_reply.h"

namespace httplib {
class Server;
}

namespace lathe::testing {

struct RecordedRequest {
  std::string path;    // without the query: /v1beta/models/M:streamGenerateContent
  std::string target;  // as sent, with the query
  std::string model;   // M
  std::string action;  // streamGenerateContent | generateContent | countTokens | ...
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::vector<std::string> violations;  // what this request broke, if anything
  std::chrono::steady_clock::time_point receivedAt;
  int remotePort = 0;  // the client's port: one per connection

  // Case-insensitive header lookup.
  std::optional<std::string> header(std::string_view name) const;
};

// What to answer when the script is empty.
enum class FallbackMode {
  error,     // HTTP error (500 "no scripted reply left" unless configured)
  autoTool,  // benchmark agent: read_file(autoReadPath), then "Done." once a functionResponse comes back
};

struct FakeGeminiOptions {
  FallbackMode fallback = FallbackMode::error;
  int fallbackStatus = 500;
  std::string fallbackBody = "no scripted reply left";
  std::string autoReadPath;   // file_path for FallbackMode::autoTool
  bool requireApiKey = true;  // x-goog-api-key header (or ?key=) must be present
  bool checkHistory = true;   // run checkGenerateRequest on generate requests
  // Session title calls (Lathe's one-shot "You name conversations" request)
  // get this text at once, outside the script and the recorded requests, so
  // scripts need not know about them; empty: served like any other request.
  std::string titleReply = "Fake session title";
  // Title calls wait for releaseTitles() before they are answered.
  bool holdTitles = false;
  // Title calls are answered after this long (a model's round trip, for benchmarks).
  std::chrono::milliseconds titleDelay{0};
  // Serves HTTPS with this certificate and key (PEM files) instead of HTTP.
  std::string tlsCertFile;
  std::string tlsKeyFile;
};

// Whether a request body is Lathe's session title call.
bool isTitleRequest(const std::string& body);

class FakeGeminiServer {
 public:
  explicit FakeGeminiServer(FakeGeminiOptions options = {});
  ~FakeGeminiServer();
  FakeGeminiServer(const FakeGeminiServer&) = delete;
  FakeGeminiServer& operator=(const FakeGeminiServer&) = delete;

  // Binds 127.0.0.1 on a free port (or `port` when non-zero) and starts serving.
  Status start(int port = 0);
  // Wakes paused and hanging streams, stops listening, joins the threads.
  void stop();
  int port() const { return port_; }
  std::string baseUrl() const;  // http://127.0.0.1:PORT (https:// with TLS)

  // The script: replies are consumed in order by generate calls (a reply
  // with onlyIf by the first request whose body holds its text).
  void push(ScriptedReply reply);
  void pushAll(std::vector<ScriptedReply> replies);
  Status loadReplayFile(const std::string& path);
  size_t pendingReplies() const;
  void setOptions(FakeGeminiOptions options);

  std::vector<RecordedRequest> requests() const;
  // Requests to a generate action only (what a turn costs in model calls).
  std::vector<RecordedRequest> generateRequests() const;
  std::vector<std::string> violations() const;
  // The title calls answered with titleReply.
  std::vector<RecordedRequest> titleRequests() const;
  // Lets held title calls (holdTitles) be answered.
  void releaseTitles();
  // Lets the next reply held with ScriptedReply::heldUntilReleased() be served.
  void releaseHeld();
  // Waits until `count` requests wait on replies held until released.
  bool waitForHeld(size_t count, std::chrono::milliseconds timeout) const;
  bool waitForRequests(size_t count, std::chrono::milliseconds timeout) const;
  // Streams the client abandoned (disconnected) before they ended.
  size_t abandonedStreams() const;
  bool waitForAbandonedStreams(size_t count, std::chrono::milliseconds timeout) const;

 private:
  struct Exchange;
  void handle(Exchange& exchange);
  std::optional<ScriptedReply> nextReply(const std::string& action, const std::string& body);
  ScriptedReply fallbackReply(const std::string& action, const std::string& body) const;
  void serveReply(Exchange& exchange, ScriptedReply reply);
  enum class WaitEnd { elapsed, stopped, clientGone };
  // Sleeps up to `delay` (forever when nullopt) unless the server stops or the
  // client on connectionFd goes away.
  WaitEnd pause(std::optional<std::chrono::milliseconds> delay, int connectionFd);
  void noteAbandoned();
  // Waits until `count` generate requests came (ScriptedReply::afterRequests).
  void holdUntilRequests(size_t count);
  void holdUntilReleased();

  std::unique_ptr<httplib::Server> server_;
  std::thread listener_;
  int port_ = 0;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  FakeGeminiOptions options_;
  std::deque<ScriptedReply> script_;
  std::vector<RecordedRequest> requests_;
  std::vector<RecordedRequest> titleRequests_;
  std::vector<std::string> violations_;
  size_t abandoned_ = 0;
  bool stopping_ = false;
  bool titlesReleased_ = false;
  size_t releases_ = 0;  // releaseHeld() calls not yet used by a held reply
  size_t held_ = 0;      // requests waiting for one
  bool tls_ = false;
};

}  // namespace lathe::testing
