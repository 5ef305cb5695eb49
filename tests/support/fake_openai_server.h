// A fake OpenAI-compatible Chat Completions API on 127.0.0.1 for tests and
// benchmarks: serves scripted replies to POST /v1/chat/completions (SSE
// streams of chat.completion.chunk payloads, whole JSON answers, HTTP errors,
// streams cut short), records every request, and rejects (HTTP 400) any whose
// messages break the tool-call invariant (each assistant tool call answered by
// one tool message before the next user or assistant message). Lathe's session
// title calls are answered with a fixed title, outside the script and the
// recorded requests. Thread-safe.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "protocol/base/result.h"

namespace httplib {
class Server;
}

namespace lathe::testing {

struct OpenAiReply {
  enum class Kind { stream, json, error, cut } kind = Kind::stream;
  std::vector<std::string> events;  // stream, cut: data payloads ([DONE] is added to a whole stream)
  std::string body;                 // json, error
  int status = 200;
  std::optional<std::string> retryAfter;

  static OpenAiReply stream(std::vector<std::string> events);
  static OpenAiReply json(std::string body);
  static OpenAiReply error(int status, std::string body, std::optional<std::string> retryAfter = std::nullopt);
  static OpenAiReply cut(std::vector<std::string> events);  // these, then the connection closes

  // Chunk payloads for a scripted stream.
  static std::string textDelta(const std::string& text);
  static std::string reasoningDelta(const std::string& text);
  // A tool call fragment: id and name on the first, arguments in pieces.
  static std::string toolDelta(int index, const std::string& id, const std::string& name, const std::string& argsPiece);
  static std::string finish(const std::string& reason);
  static std::string usage(int prompt, int completion);
};

class FakeOpenAiServer {
 public:
  FakeOpenAiServer();
  ~FakeOpenAiServer();
  FakeOpenAiServer(const FakeOpenAiServer&) = delete;
  FakeOpenAiServer& operator=(const FakeOpenAiServer&) = delete;

  Status start();
  void stop();
  std::string baseUrl() const;  // http://127.0.0.1:PORT/v1

  void push(OpenAiReply reply);
  std::vector<std::string> requests() const;    // bodies, in order
  std::vector<std::string> violations() const;  // what broke the invariant, per request
  std::vector<std::string> authorizations() const;

 private:
  std::unique_ptr<httplib::Server> server_;
  std::thread listener_;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::vector<OpenAiReply> script_;
  std::vector<std::string> requests_;
  std::vector<std::string> violations_;
  std::vector<std::string> authorizations_;
};

// What a chat/completions request breaks, or empty.
std::string checkToolCallPairs(const std::string& body);

}  // namespace lathe::testing
