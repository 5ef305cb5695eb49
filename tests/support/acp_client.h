// An ACP client for end-to-end tests and benchmarks, speaking JSON-RPC to an
// agent over a Subprocess's pipes. A reader thread parses every incoming
// message, keeps them in order, wakes waiters on responses and answers the
// agent's own requests (permission, fs/*) through pluggable handlers. The
// public methods are thread-safe; handlers run on the reader thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "protocol/jsonrpc/framing.h"
#include "protocol/base/json.h"
#include "tests/support/subprocess.h"

namespace lathe::testing {

using Message = std::shared_ptr<json::Document>;

// The answer to an agent->client request: a result, an error, or "later"
// (the test answers it itself with respond()/respondError()).
struct HandlerReply {
  enum class Kind { result, error, later };
  Kind kind = Kind::result;
  std::string resultJson = "{}";
  int errorCode = 0;
  std::string errorMessage;

  static HandlerReply result(std::string json) { return {Kind::result, std::move(json), 0, {}}; }
  static HandlerReply error(int code, std::string message) { return {Kind::error, {}, code, std::move(message)}; }
  static HandlerReply later() { return {Kind::later, {}, 0, {}}; }
};

// Called with the method and the whole request message.
using RequestHandler = std::function<HandlerReply(const std::string& method, const json::Value& request)>;

struct AcpClientOptions {
  Framing framing = Framing::newline;  // or Framing::content_length
  std::chrono::milliseconds timeout{30000};  // default for the helpers
  bool readTextFile = true;                  // advertised fs capabilities
  bool writeTextFile = true;
  // Which option session/request_permission selects by default: the first of
  // a kind (allow_once, allow_always, reject_once, reject_always), the one
  // with this option id, or none ("cancel").
  std::string permissionKind = "allow_once";
  // More clientCapabilities for initialize, as a JSON object's text (its
  // members are added): R"({"elicitation":{"form":{}},"session":{"notices":{}}})".
  std::string moreCapabilities;
  bool readFallsBackToDisk = true;  // fs/read_text_file for a path with no buffer
  bool writesToDisk = true;         // fs/write_text_file also saves the file
};

struct PromptOutcome {
  std::string stopReason;           // empty when the prompt failed or timed out
  std::optional<std::string> error;  // the JSON-RPC error message, or "timeout"
  Message response;
  std::vector<Message> updates;     // session/update notifications of this turn, in order
};

struct FileWrite {
  std::string path;
  std::string content;
};

class AcpTestClient {
 public:
  explicit AcpTestClient(Subprocess& agent, AcpClientOptions options = {});
  ~AcpTestClient();
  AcpTestClient(const AcpTestClient&) = delete;
  AcpTestClient& operator=(const AcpTestClient&) = delete;

  // Sends a request (paramsJson: a JSON object text) and returns its id.
  int64_t request(std::string_view method, std::string_view paramsJson = "{}");
  void notify(std::string_view method, std::string_view paramsJson = "{}");
  // Sends any JSON text as one frame (for malformed-input tests).
  bool sendRaw(std::string_view text);
  // The response to id (result or error), or nullptr on timeout.
  Message waitResponse(int64_t id, std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  Message call(std::string_view method, std::string_view paramsJson = "{}",
               std::optional<std::chrono::milliseconds> timeout = std::nullopt);

  // Everything received so far, in order (responses, notifications, requests).
  std::vector<Message> messages() const;
  std::vector<Message> notifications(std::string_view method = "session/update") const;
  // Waits until a received message satisfies pred; returns it or nullptr.
  Message waitFor(const std::function<bool(const json::Value&)>& pred,
                  std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  bool agentClosed() const;  // stdout ended
  // Every message both ways as JSON lines {"from":"client"|"agent","message":...},
  // for validating a session against the ACP schema (tests/e2e/validate_acp.mjs).
  std::string transcriptJsonl() const;
  // Frames that were not JSON objects (anything but protocol on stdout).
  std::vector<std::string> unparsedFrames() const;

  // Agent->client requests: handlers by method; unknown methods get -32601.
  void setHandler(std::string method, RequestHandler handler);
  void respond(const json::Value& id, std::string_view resultJson);
  void respondError(const json::Value& id, int code, std::string_view message);
  void setBuffer(const std::string& path, std::string content);  // an unsaved editor buffer
  std::optional<std::string> buffer(const std::string& path) const;
  std::vector<FileWrite> writes() const;  // fs/write_text_file calls, in order
  void setPermissionKind(std::string kind);

  // Helpers: initialize (protocolVersion 1 and the fs capabilities), session/new
  // (returns the sessionId, empty on failure, once the session's
  // available_commands_update came, or 5 s passed), a text prompt (waits for the end
  // of the turn and collects its updates), session/cancel.
  Message initialize();
  std::string newSession(const std::string& cwd, std::string_view mcpServersJson = "[]");
  PromptOutcome prompt(const std::string& sessionId, std::string_view text,
                       std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  // The same with any ContentBlock array (text, resource_link, resource, image).
  PromptOutcome promptBlocks(const std::string& sessionId, std::string_view blocksJson,
                             std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  void cancel(const std::string& sessionId);

 private:
  void readerLoop();
  void dispatch(std::string text);
  void answerRequest(const json::Value& message);
  HandlerReply defaultPermission(const json::Value& request);
  HandlerReply defaultRead(const json::Value& request);
  HandlerReply defaultWrite(const json::Value& request);
  std::chrono::milliseconds orDefault(std::optional<std::chrono::milliseconds> timeout) const;

  Subprocess& agent_;
  AcpClientOptions options_;
  std::atomic<int64_t> nextId_{0};
  std::atomic<bool> stopping_{false};
  std::thread reader_;

  mutable std::mutex mutex_;
  std::condition_variable received_;
  std::vector<Message> messages_;
  std::vector<std::pair<const char*, std::string>> transcript_;  // (from, JSON text)
  std::map<int64_t, size_t> responseIndex_;  // id -> position in messages_
  std::map<std::string, RequestHandler> handlers_;
  std::map<std::string, std::string> buffers_;
  std::vector<FileWrite> writes_;
  std::vector<std::string> unparsed_;
  bool closed_ = false;
};

}  // namespace lathe::testing
