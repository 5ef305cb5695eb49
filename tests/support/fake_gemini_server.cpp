// The fake Gemini API server. Handlers run on cpp-httplib's worker threads and
// share the script and the request log under one mutex; streams pause on a
// condition variable so stop() wakes them at once.
#include "tests/support/fake_gemini_server.h"

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <httplib.h>

#include "protocol/base/json.h"
#include "tests/support/gemini_chunks.h"
#include "tests/support/history_invariants.h"
#include "tests/support/local_http_server.h"

namespace lathe::testing {
namespace {

constexpr auto kPollStep = std::chrono::milliseconds(20);

bool isGenerate(const std::string& action) {
  return action == "streamGenerateContent" || action == "generateContent";
}

// The inode of the TCP socket with these two ports, from /proc/self/net/tcp
// and tcp6 ("sl local rem st ... uid timeout inode"), 0 when none.
unsigned long findSocketInode(int localPort, int remotePort) {
  for (const char* table : {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // the column titles
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, skip;
      unsigned long inode = 0;
      fields >> slot >> local >> remote;
      for (int i = 0; i < 6; ++i) fields >> skip;  // st, queues, timer, retransmits, uid, timeout
      fields >> inode;
      auto port = [](const std::string& address) {
        size_t colon = address.rfind(':');
        return colon == std::string::npos ? -1 : static_cast<int>(std::strtol(address.c_str() + colon + 1, nullptr, 16));
      };
      if (fields && port(local) == localPort && port(remote) == remotePort) return inode;
    }
  }
  return 0;
}

// cpp-httplib does not hand the socket to a content provider; find it among
// this process's descriptors by its two ports, so a paused stream can notice
// that the client hung up. Only names are read (/proc/net and the links in
// /proc/self/fd): descriptors other threads own are never touched, so a test
// client closing its own socket meanwhile does not race with this lookup.
int findConnectionFd(int localPort, int remotePort) {
  unsigned long inode = findSocketInode(localPort, remotePort);
  if (inode == 0) return -1;
  std::string wanted = "socket:[" + std::to_string(inode) + "]";
  DIR* dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  int found = -1;
  char target[64];
  while (dirent* entry = readdir(dir)) {
    if (!std::isdigit(static_cast<unsigned char>(entry->d_name[0]))) continue;
    std::string link = std::string("/proc/self/fd/") + entry->d_name;
    ssize_t n = readlink(link.c_str(), target, sizeof target);
    if (n > 0 && std::string_view(target, static_cast<size_t>(n)) == wanted) {
      found = std::atoi(entry->d_name);
      break;
    }
  }
  closedir(dir);
  return found;
}

bool clientGone(int fd) {
  if (fd < 0) return false;
  pollfd p{fd, static_cast<short>(POLLIN | POLLRDHUP), 0};
  if (poll(&p, 1, 0) <= 0) return false;
  if (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) return true;
  char c;
  return (p.revents & POLLIN) && recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

const char* statusName(int status) {
  switch (status) {
    case 400: return "INVALID_ARGUMENT";
    case 401: return "UNAUTHENTICATED";
    case 403: return "PERMISSION_DENIED";
    case 404: return "NOT_FOUND";
    case 429: return "RESOURCE_EXHAUSTED";
    case 503: return "UNAVAILABLE";
    case 504: return "DEADLINE_EXCEEDED";
    default: return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

// Google's error envelope; a body that is already JSON is sent unchanged.
std::string errorBody(int status, const std::string& message) {
  auto parsed = json::parse(message);
  if (parsed && parsed->IsObject()) return message;
  return json::build([&](json::Writer& w) {
    w.StartObject();
    json::key(w, "error");
    w.StartObject();
    json::put(w, "code", status);
    json::put(w, "message", message);
    json::put(w, "status", statusName(status));
    w.EndObject();
    w.EndObject();
  });
}

// SSE needs one line per event: compact a chunk that spans lines (a chunk that
// is not JSON is sent as given, for tests of broken streams).
std::string sseFrame(const std::string& chunk) {
  std::string text = chunk;
  if (text.find('\n') != std::string::npos) {
    if (auto doc = json::parse(text)) text = json::stringify(*doc);
  }
  return "data: " + text + "\r\n\r\n";
}

// Folds streamed chunks into one GenerateContentResponse for :generateContent.
std::string mergeChunks(const std::vector<Chunk>& chunks) {
  if (chunks.empty()) return finishChunk();
  if (chunks.size() == 1) return chunks.front().json;
  json::Document merged;
  merged.SetObject();
  auto& alloc = merged.GetAllocator();
  json::Value parts(rapidjson::kArrayType);
  std::optional<std::string> finishReason;
  json::Value usage;
  for (const auto& chunk : chunks) {
    auto doc = json::parse(chunk.json);
    if (!doc || !doc->IsObject()) continue;
    if (const json::Value* u = json::find(*doc, "usageMetadata")) usage.CopyFrom(*u, alloc);
    const json::Value* candidates = json::find(*doc, "candidates");
    if (!candidates || !candidates->IsArray() || candidates->Empty()) continue;
    const json::Value& first = (*candidates)[0];
    if (!first.IsObject()) continue;
    if (auto reason = json::getStr(first, "finishReason")) finishReason = reason;
    const json::Value* content = json::find(first, "content");
    const json::Value* p = content && content->IsObject() ? json::find(*content, "parts") : nullptr;
    if (!p || !p->IsArray()) continue;
    for (const auto& part : p->GetArray()) parts.PushBack(json::Value(part, alloc), alloc);
  }
  json::Value content(rapidjson::kObjectType);
  content.AddMember("role", "model", alloc);
  content.AddMember("parts", parts, alloc);
  json::Value candidate(rapidjson::kObjectType);
  candidate.AddMember("content", content, alloc);
  if (finishReason) candidate.AddMember("finishReason", json::Value(finishReason->c_str(), alloc), alloc);
  candidate.AddMember("index", 0, alloc);
  json::Value candidates(rapidjson::kArrayType);
  candidates.PushBack(candidate, alloc);
  merged.AddMember("candidates", candidates, alloc);
  if (!usage.IsNull()) merged.AddMember("usageMetadata", usage, alloc);
  return json::stringify(merged);
}

// Does the last content of the request carry a functionResponse part?
bool endsWithFunctionResponse(const json::Value& body) {
  const json::Value* contents = json::find(body, "contents");
  if (!contents || !contents->IsArray() || contents->Empty()) return false;
  const json::Value& last = (*contents)[contents->Size() - 1];
  const json::Value* parts = last.IsObject() ? json::find(last, "parts") : nullptr;
  if (!parts || !parts->IsArray()) return false;
  for (const auto& part : parts->GetArray()) {
    if (part.IsObject() && json::find(part, "functionResponse")) return true;
  }
  return false;
}

bool wantsJson(const json::Value& body) {
  const json::Value* config = json::find(body, "generationConfig");
  if (!config || !config->IsObject()) return false;
  return json::getStr(*config, "responseMimeType").value_or("") == "application/json" ||
         json::find(*config, "responseJsonSchema") || json::find(*config, "responseSchema");
}

void ignoreSigpipe() {
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) signal(SIGPIPE, SIG_IGN);
}

}  // namespace

std::optional<std::string> RecordedRequest::header(std::string_view name) const {
  auto lower = [](std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
  };
  std::string wanted = lower(name);
  for (const auto& [key, value] : headers) {
    if (lower(key) == wanted) return value;
  }
  return std::nullopt;
}

struct FakeGeminiServer::Exchange {
  const httplib::Request& req;
  httplib::Response& res;
  std::string action;
};

FakeGeminiServer::FakeGeminiServer(FakeGeminiOptions options) : options_(std::move(options)) {}

FakeGeminiServer::~FakeGeminiServer() { stop(); }

Status FakeGeminiServer::start(int port) {
  if (server_) return makeError(Errc::internal, "fake Gemini server already started");
  ignoreSigpipe();
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  tls_ = !options_.tlsCertFile.empty();
  if (tls_) {
    server_ = std::make_unique<httplib::SSLServer>(options_.tlsCertFile.c_str(), options_.tlsKeyFile.c_str());
    if (!server_->is_valid()) {
      server_.reset();
      return makeError(Errc::io, "fake Gemini server: cannot use " + options_.tlsCertFile + " and " + options_.tlsKeyFile);
    }
  } else {
    server_ = std::make_unique<httplib::Server>();
  }
  server_->set_keep_alive_timeout(1);
  server_->set_keep_alive_max_count(1000);  // a client may keep one connection for a whole test
  server_->set_tcp_nodelay(true);           // as real API servers do: no Nagle delay on kept-alive connections
  server_->set_read_timeout(30);
  server_->Post(R"(/(v1beta|v1|v1alpha)/models/([^/:]+):(\w+))",
                [this](const httplib::Request& req, httplib::Response& res) {
                  Exchange exchange{req, res, req.matches[3].str()};
                  handle(exchange);
                });
  server_->set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (res.body.empty()) {
      res.set_content(errorBody(res.status, "fake Gemini: no route for " + req.method + " " + req.path),
                      "application/json");
    }
  });
  if (port == 0) {
    port_ = server_->bind_to_any_port("127.0.0.1");
  } else {
    port_ = server_->bind_to_port("127.0.0.1", port) ? port : -1;
  }
  if (port_ <= 0) {
    server_.reset();
    return makeError(Errc::io, "fake Gemini server could not bind 127.0.0.1");
  }
  // stop() is a no-op until the listener runs, so do not return before it does.
  bool listening = false;
  listener_ = listenInBackground(*server_, &listening);
  if (!listening) {
    listener_.join();
    server_.reset();
    return makeError(Errc::io, "fake Gemini server stopped listening at once");
  }
  return {};
}

void FakeGeminiServer::stop() {
  if (!server_) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  server_->stop();
  if (listener_.joinable()) listener_.join();
  server_.reset();
}

std::string FakeGeminiServer::baseUrl() const {
  return (tls_ ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port_);
}

void FakeGeminiServer::push(ScriptedReply reply) {
  std::lock_guard lock(mutex_);
  script_.push_back(std::move(reply));
}

void FakeGeminiServer::pushAll(std::vector<ScriptedReply> replies) {
  std::lock_guard lock(mutex_);
  for (auto& reply : replies) script_.push_back(std::move(reply));
}

Status FakeGeminiServer::loadReplayFile(const std::string& path) {
  auto replies = testing::loadReplayFile(path);
  if (!replies) return replies.error();
  pushAll(std::move(replies).value());
  return {};
}

size_t FakeGeminiServer::pendingReplies() const {
  std::lock_guard lock(mutex_);
  return script_.size();
}

void FakeGeminiServer::setOptions(FakeGeminiOptions options) {
  std::lock_guard lock(mutex_);
  options_ = std::move(options);
}

std::vector<RecordedRequest> FakeGeminiServer::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

std::vector<RecordedRequest> FakeGeminiServer::generateRequests() const {
  std::lock_guard lock(mutex_);
  std::vector<RecordedRequest> out;
  for (const auto& r : requests_) {
    if (isGenerate(r.action)) out.push_back(r);
  }
  return out;
}

std::vector<std::string> FakeGeminiServer::violations() const {
  std::lock_guard lock(mutex_);
  return violations_;
}

bool FakeGeminiServer::waitForRequests(size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return requests_.size() >= count; });
}

size_t FakeGeminiServer::abandonedStreams() const {
  std::lock_guard lock(mutex_);
  return abandoned_;
}

bool FakeGeminiServer::waitForAbandonedStreams(size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return abandoned_ >= count; });
}

void FakeGeminiServer::noteAbandoned() {
  {
    std::lock_guard lock(mutex_);
    ++abandoned_;
  }
  changed_.notify_all();
}

FakeGeminiServer::WaitEnd FakeGeminiServer::pause(std::optional<std::chrono::milliseconds> delay, int connectionFd) {
  auto deadline = std::chrono::steady_clock::now() + delay.value_or(std::chrono::hours(24));
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stopping_) return WaitEnd::stopped;
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return WaitEnd::elapsed;
    changed_.wait_for(lock, std::min<std::chrono::steady_clock::duration>(deadline - now, kPollStep));
    lock.unlock();
    bool gone = clientGone(connectionFd);
    lock.lock();
    if (gone) return WaitEnd::clientGone;
  }
}

std::optional<ScriptedReply> FakeGeminiServer::nextReply(const std::string& action, const std::string& body) {
  std::lock_guard lock(mutex_);
  if (action == "countTokens") {
    if (!script_.empty() && script_.front().method == "countTokens") {
      ScriptedReply reply = std::move(script_.front());
      script_.pop_front();
      return reply;
    }
    return std::nullopt;
  }
  // A recording may hold calls this client does not make (token counts,
  // embeddings): skip them rather than answer a generate call with them.
  while (!script_.empty() && !script_.front().method.empty() && script_.front().method.rfind("generateContent", 0) != 0) {
    script_.pop_front();
  }
  for (auto it = script_.begin(); it != script_.end(); ++it) {
    if (!it->onlyIf.empty() && body.find(it->onlyIf) == std::string::npos) continue;
    ScriptedReply reply = std::move(*it);
    script_.erase(it);
    return reply;
  }
  return std::nullopt;
}

ScriptedReply FakeGeminiServer::fallbackReply(const std::string& action, const std::string& body) const {
  FakeGeminiOptions options;
  {
    std::lock_guard lock(mutex_);
    options = options_;
  }
  if (options.fallback == FallbackMode::error) {
    return ScriptedReply::error(options.fallbackStatus, options.fallbackBody);
  }
  auto doc = json::parse(body);
  if (!doc || !doc->IsObject()) return ScriptedReply::error(400, "request body is not a JSON object");
  if (action == "generateContent" && wantsJson(*doc)) return ScriptedReply::text("{}");
  if (endsWithFunctionResponse(*doc)) return ScriptedReply::text("Done.");
  std::string args = json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "file_path", options.autoReadPath);
    w.EndObject();
  });
  return ScriptedReply::functionCall("read_file", args);
}

bool isTitleRequest(const std::string& body) {
  auto doc = json::parse(body);
  if (!doc || !doc->IsObject()) return false;
  const json::Value* system = json::find(*doc, "systemInstruction");
  return system && json::stringify(*system).find("You name conversations") != std::string::npos;
}

std::vector<RecordedRequest> FakeGeminiServer::titleRequests() const {
  std::lock_guard lock(mutex_);
  return titleRequests_;
}

void FakeGeminiServer::releaseTitles() {
  {
    std::lock_guard lock(mutex_);
    titlesReleased_ = true;
  }
  changed_.notify_all();
}

void FakeGeminiServer::handle(Exchange& exchange) {
  const httplib::Request& req = exchange.req;
  RecordedRequest record;
  record.path = req.path;
  record.target = req.target;
  record.model = req.matches[2].str();
  record.action = exchange.action;
  for (const auto& [key, value] : req.headers) record.headers.emplace_back(key, value);
  record.body = req.body;
  record.receivedAt = std::chrono::steady_clock::now();
  record.remotePort = req.remote_port;

  bool requireKey, checkHistory, holdTitles;
  std::chrono::milliseconds titleDelay;
  std::string titleReply;
  {
    std::lock_guard lock(mutex_);
    requireKey = options_.requireApiKey;
    checkHistory = options_.checkHistory;
    titleReply = options_.titleReply;
    holdTitles = options_.holdTitles;
    titleDelay = options_.titleDelay;
  }
  if (!titleReply.empty() && exchange.action == "generateContent" && isTitleRequest(req.body)) {
    {
      std::lock_guard lock(mutex_);
      titleRequests_.push_back(std::move(record));
    }
    changed_.notify_all();
    if (holdTitles || titleDelay.count() > 0) {
      std::unique_lock lock(mutex_);
      auto released = [&] { return (!holdTitles || titlesReleased_) || stopping_; };
      if (titleDelay.count() > 0) changed_.wait_for(lock, titleDelay, [&] { return stopping_; });
      changed_.wait(lock, released);
    }
    serveReply(exchange, ScriptedReply::text(titleReply));
    return;
  }
  if (requireKey && req.get_header_value("x-goog-api-key").empty() && !req.has_param("key")) {
    record.violations.push_back("no x-goog-api-key header");
  }
  if (checkHistory && isGenerate(exchange.action)) {
    for (auto& v : checkGenerateRequest(req.body)) record.violations.push_back(std::move(v));
  }
  std::vector<std::string> broken = record.violations;
  {
    std::lock_guard lock(mutex_);
    for (const auto& v : broken) violations_.push_back(record.target + ": " + v);
    requests_.push_back(std::move(record));
  }
  changed_.notify_all();

  if (!broken.empty()) {
    std::string message = "fake Gemini rejected the request:";
    for (const auto& v : broken) message += "\n- " + v;
    int status = broken.front() == "no x-goog-api-key header" ? 401 : 400;
    exchange.res.status = status;
    exchange.res.set_content(errorBody(status, message), "application/json");
    return;
  }

  if (exchange.action == "countTokens") {
    if (auto reply = nextReply("countTokens", req.body); reply && !reply->chunks.empty()) {
      exchange.res.set_content(reply->chunks.front().json, "application/json");
    } else {
      size_t tokens = std::max<size_t>(1, req.body.size() / 4);
      exchange.res.set_content("{\"totalTokens\":" + std::to_string(tokens) + "}", "application/json");
    }
    return;
  }
  if (!isGenerate(exchange.action)) {
    exchange.res.status = 404;
    exchange.res.set_content(errorBody(404, "fake Gemini: unknown action " + exchange.action), "application/json");
    return;
  }
  std::optional<ScriptedReply> reply = nextReply(exchange.action, req.body);
  if (reply && reply->afterRequests > 0) holdUntilRequests(reply->afterRequests);
  if (reply && reply->untilReleased) holdUntilReleased();
  serveReply(exchange, reply ? std::move(*reply) : fallbackReply(exchange.action, req.body));
}

void FakeGeminiServer::releaseHeld() {
  {
    std::lock_guard lock(mutex_);
    ++releases_;
  }
  changed_.notify_all();
}

bool FakeGeminiServer::waitForHeld(size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return held_ >= count; });
}

void FakeGeminiServer::holdUntilReleased() {
  std::unique_lock lock(mutex_);
  ++held_;
  changed_.notify_all();
  const bool released = changed_.wait_for(lock, std::chrono::seconds(10), [&] { return releases_ > 0 || stopping_; });
  --held_;
  if (released && releases_ > 0) --releases_;
  if (!released) violations_.push_back("a reply held until released was served after 10 s without a release");
}

void FakeGeminiServer::holdUntilRequests(size_t count) {
  std::unique_lock lock(mutex_);
  auto generates = [&] {
    return static_cast<size_t>(std::count_if(requests_.begin(), requests_.end(),
                                             [](const RecordedRequest& r) { return isGenerate(r.action); }));
  };
  const bool came = changed_.wait_for(lock, std::chrono::seconds(10), [&] { return generates() >= count || stopping_; });
  if (!came) {
    violations_.push_back("a reply held for " + std::to_string(count) + " requests was served after 10 s with " +
                          std::to_string(generates()));
  }
}

void FakeGeminiServer::serveReply(Exchange& exchange, ScriptedReply reply) {
  httplib::Response& res = exchange.res;
  if (reply.kind == ScriptedReply::Kind::error) {
    res.status = reply.status;
    if (reply.retryAfter) res.set_header("Retry-After", *reply.retryAfter);
    res.set_content(errorBody(reply.status, reply.body), "application/json");
    return;
  }
  int localPort = exchange.req.local_port;
  int remotePort = exchange.req.remote_port;
  if (exchange.action == "generateContent") {
    if (reply.kind == ScriptedReply::Kind::hang) {
      WaitEnd end = pause(std::nullopt, findConnectionFd(localPort, remotePort));
      if (end == WaitEnd::clientGone) noteAbandoned();
      res.status = 503;
      res.set_content(errorBody(503, "fake Gemini: hung reply ended"), "application/json");
      return;
    }
    res.set_content(mergeChunks(reply.chunks), "application/json");
    return;
  }

  struct StreamState {
    std::vector<Chunk> chunks;
    bool hang = false;
    size_t next = 0;
    int fd = -2;  // the connection, looked up on first need
  };
  auto state = std::make_shared<StreamState>();
  state->chunks = std::move(reply.chunks);
  state->hang = reply.kind == ScriptedReply::Kind::hang;
  auto connection = [state, localPort, remotePort] {
    if (state->fd == -2) state->fd = findConnectionFd(localPort, remotePort);
    return state->fd;
  };
  res.set_header("Cache-Control", "no-cache");
  res.set_chunked_content_provider("text/event-stream", [this, state, connection](size_t, httplib::DataSink& sink) {
    if (state->next < state->chunks.size()) {
      const Chunk& chunk = state->chunks[state->next++];
      if (chunk.delayBefore.count() > 0) {
        WaitEnd end = pause(chunk.delayBefore, connection());
        if (end != WaitEnd::elapsed) {
          if (end == WaitEnd::clientGone) noteAbandoned();
          return false;
        }
      }
      std::string frame = chunk.verbatim ? chunk.json : sseFrame(chunk.json);
      if (!sink.write(frame.data(), frame.size())) {
        noteAbandoned();
        return false;
      }
      return true;
    }
    if (state->hang) {
      if (pause(std::nullopt, connection()) == WaitEnd::clientGone) noteAbandoned();
      return false;
    }
    sink.done();
    return true;
  });
}

}  // namespace lathe::testing
