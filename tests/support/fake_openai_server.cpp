// The fake OpenAI-compatible server.
#include "tests/support/fake_openai_server.h"

#include <httplib.h>

#include <set>

#include "protocol/base/json.h"
#include "tests/support/local_http_server.h"

namespace lathe::testing {

OpenAiReply OpenAiReply::stream(std::vector<std::string> events) {
  OpenAiReply r;
  r.events = std::move(events);
  return r;
}
OpenAiReply OpenAiReply::json(std::string body) {
  OpenAiReply r;
  r.kind = Kind::json;
  r.body = std::move(body);
  return r;
}
OpenAiReply OpenAiReply::error(int status, std::string body, std::optional<std::string> retryAfter) {
  OpenAiReply r;
  r.kind = Kind::error;
  r.status = status;
  r.body = std::move(body);
  r.retryAfter = std::move(retryAfter);
  return r;
}
OpenAiReply OpenAiReply::cut(std::vector<std::string> events) {
  OpenAiReply r = stream(std::move(events));
  r.kind = Kind::cut;
  return r;
}

namespace {
std::string chunk(const std::function<void(json::Writer&)>& delta, const char* finishReason = nullptr) {
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "object", "chat.completion.chunk");
    json::key(w, "choices");
    w.StartArray();
    w.StartObject();
    json::put(w, "index", 0);
    json::key(w, "delta");
    w.StartObject();
    if (delta) delta(w);
    w.EndObject();
    json::key(w, "finish_reason");
    if (finishReason) json::str(w, finishReason);
    else w.Null();
    w.EndObject();
    w.EndArray();
    w.EndObject();
  });
}
}  // namespace

std::string OpenAiReply::textDelta(const std::string& text) {
  return chunk([&](json::Writer& w) { json::put(w, "content", text); });
}
std::string OpenAiReply::reasoningDelta(const std::string& text) {
  return chunk([&](json::Writer& w) { json::put(w, "reasoning_content", text); });
}
std::string OpenAiReply::toolDelta(int index, const std::string& id, const std::string& name,
                                   const std::string& argsPiece) {
  return chunk([&](json::Writer& w) {
    json::key(w, "tool_calls");
    w.StartArray();
    w.StartObject();
    json::put(w, "index", index);
    if (!id.empty()) json::put(w, "id", id);
    if (!name.empty()) json::put(w, "type", "function");
    json::key(w, "function");
    w.StartObject();
    if (!name.empty()) json::put(w, "name", name);
    json::put(w, "arguments", argsPiece);
    w.EndObject();
    w.EndObject();
    w.EndArray();
  });
}
std::string OpenAiReply::finish(const std::string& reason) { return chunk(nullptr, reason.c_str()); }
std::string OpenAiReply::usage(int prompt, int completion) {
  return R"({"object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":)" + std::to_string(prompt) +
         R"(,"completion_tokens":)" + std::to_string(completion) + R"(,"total_tokens":)" +
         std::to_string(prompt + completion) + "}}";
}

std::string checkToolCallPairs(const std::string& body) {
  auto doc = json::parse(body);
  if (!doc || !doc->IsObject()) return "the body is not a JSON object";
  const json::Value* messages = json::find(*doc, "messages");
  if (!messages || !messages->IsArray()) return "no messages array";
  std::set<std::string> open;
  std::set<std::string> seen;
  for (const json::Value& m : messages->GetArray()) {
    std::string role = json::getStr(m, "role").value_or("");
    if (role == "tool") {
      std::string id = json::getStr(m, "tool_call_id").value_or("");
      if (!open.erase(id)) return "a tool message answers no open call: " + id;
      const json::Value* content = json::find(m, "content");
      if (!content || !content->IsString()) return "a tool message's content must be a string";
      continue;
    }
    if (!open.empty()) return "a " + role + " message comes before every tool call was answered";
    if (role != "assistant") continue;
    if (const json::Value* calls = json::find(m, "tool_calls"); calls && calls->IsArray()) {
      for (const json::Value& call : calls->GetArray()) {
        std::string id = json::getStr(call, "id").value_or("");
        if (id.empty()) return "a tool call without an id";
        if (!seen.insert(id).second) return "a duplicate tool call id: " + id;
        open.insert(id);
        const json::Value* fn = json::find(call, "function");
        if (!fn || !json::getStr(*fn, "arguments")) return "tool call arguments must be a string";
      }
    }
  }
  return open.empty() ? "" : "the request ends with unanswered tool calls";
}

FakeOpenAiServer::FakeOpenAiServer() : server_(std::make_unique<httplib::Server>()) {}

FakeOpenAiServer::~FakeOpenAiServer() { stop(); }

Status FakeOpenAiServer::start() {
  server_->Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
    // Lathe's session title call: answered at once, outside the script and the recorded requests.
    if (req.body.find("You name conversations") != std::string::npos && req.body.find(R"("stream":true)") == std::string::npos) {
      res.set_content(
          R"({"id":"t","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Fake session title"},"finish_reason":"stop"}]})",
          "application/json");
      return;
    }
    std::string violation = checkToolCallPairs(req.body);
    OpenAiReply reply;
    {
      std::lock_guard lock(mutex_);
      requests_.push_back(req.body);
      violations_.push_back(violation);
      authorizations_.push_back(req.get_header_value("Authorization"));
      if (!violation.empty()) {
        reply = OpenAiReply::error(400, R"({"error":{"message":")" + violation + R"(","type":"invalid_request_error"}})");
      } else if (script_.empty()) {
        reply = OpenAiReply::error(500, R"({"error":{"message":"no scripted reply left"}})");
      } else {
        reply = std::move(script_.front());
        script_.erase(script_.begin());
      }
    }
    if (reply.kind == OpenAiReply::Kind::error || reply.kind == OpenAiReply::Kind::json) {
      res.status = reply.kind == OpenAiReply::Kind::json ? 200 : reply.status;
      if (reply.retryAfter) res.set_header("Retry-After", *reply.retryAfter);
      res.set_content(reply.body, "application/json");
      return;
    }
    bool whole = reply.kind == OpenAiReply::Kind::stream;
    auto events = std::make_shared<std::vector<std::string>>(std::move(reply.events));
    if (whole) events->push_back("[DONE]");
    res.set_chunked_content_provider("text/event-stream", [events, whole](size_t, httplib::DataSink& sink) {
      for (const auto& event : *events) {
        std::string frame = "data: " + event + "\n\n";
        if (!sink.write(frame.data(), frame.size())) return false;
      }
      if (whole) sink.done();
      return whole;  // false: the connection is cut
    });
  });
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) return makeError(Errc::io, "the fake OpenAI server cannot bind 127.0.0.1");
  listener_ = listenInBackground(*server_);
  return {};
}

void FakeOpenAiServer::stop() {
  if (!listener_.joinable()) return;
  server_->stop();
  listener_.join();
}

std::string FakeOpenAiServer::baseUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

void FakeOpenAiServer::push(OpenAiReply reply) {
  std::lock_guard lock(mutex_);
  script_.push_back(std::move(reply));
}

std::vector<std::string> FakeOpenAiServer::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

std::vector<std::string> FakeOpenAiServer::violations() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& v : violations_) {
    if (!v.empty()) out.push_back(v);
  }
  return out;
}

std::vector<std::string> FakeOpenAiServer::authorizations() const {
  std::lock_guard lock(mutex_);
  return authorizations_;
}

}  // namespace lathe::testing
