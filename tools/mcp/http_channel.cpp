// MCP over HTTP as a byte channel.
#include "tools/mcp/http_channel.h"

#include <chrono>

#include "protocol/base/json.h"
#include "protocol/base/log.h"
#include "protocol/http/exchange.h"
#include "protocol/http/sse.h"

namespace lathe::tools::mcp {
namespace {

using std::chrono::milliseconds;

constexpr size_t kMaxErrorBody = 2000;
constexpr milliseconds kStreamSilence{24LL * 3600 * 1000};  // streams may idle for long
constexpr milliseconds kEndpointWait{10'000};

bool startsWith(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }

// The id of a request (as JSON text), or "" for a notification or response.
std::string requestIdOf(const std::string& message) {
  auto doc = json::parse(message);
  if (!doc || !doc->IsObject() || !json::find(*doc, "method")) return "";
  const json::Value* id = json::find(*doc, "id");
  return id ? json::stringify(*id) : "";
}

bool isInitialize(const std::string& message) {
  auto doc = json::parse(message);
  return doc && doc->IsObject() && json::getStr(*doc, "method").value_or("") == "initialize";
}

}  // namespace

HttpChannel::HttpChannel(HttpTransport config)
    : config_(std::move(config)), mode_(config_.kind == HttpTransport::Kind::sse ? Mode::sse : Mode::streamable) {
  decided_ = config_.kind != HttpTransport::Kind::automatic;
}

HttpChannel::~HttpChannel() { closeWrite(); }

size_t HttpChannel::read(char* buffer, size_t size) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !inbox_.empty() || eof_; });
  if (inbox_.empty()) return 0;
  size_t n = std::min(size, inbox_.size());
  inbox_.copy(buffer, n);
  inbox_.erase(0, n);
  return n;
}

bool HttpChannel::write(std::string_view bytes) {
  std::vector<std::string> messages;
  {
    std::lock_guard lock(mutex_);
    if (eof_ || closing_.cancelled()) return false;
    pending_.append(bytes);
    for (size_t end; (end = pending_.find('\n')) != std::string::npos;) {
      if (end > 0) messages.push_back(pending_.substr(0, end));
      pending_.erase(0, end + 1);
    }
  }
  for (auto& message : messages) startPost(std::move(message));
  return true;
}

void HttpChannel::spawn(std::function<void()> fn) {
  workers_.post([fn = std::move(fn)](const CancelToken&) { fn(); });
}

void HttpChannel::startPost(std::string message) {
  std::lock_guard lock(mutex_);
  spawn([this, message = std::move(message)] { post(message); });
}

void HttpChannel::setProtocolVersion(std::string version) {
  std::lock_guard lock(mutex_);
  protocolVersion_ = std::move(version);
}

std::string HttpChannel::describe() {
  std::lock_guard lock(mutex_);
  std::string text = (mode_ == Mode::sse ? "HTTP+SSE at " : "Streamable HTTP at ") + config_.url;
  if (!lastProblem_.empty()) text += "; " + lastProblem_;
  return text;
}

void HttpChannel::deliver(std::string_view json) {
  std::string line(json);
  if (line.find('\n') != std::string::npos) {
    // Newline framing for the peer: pretty-printed JSON is compacted.
    auto doc = json::parse(line);
    if (doc) {
      line = json::stringify(*doc);
    } else {
      for (char& c : line) c = c == '\n' ? ' ' : c;
    }
  }
  std::lock_guard lock(mutex_);
  if (eof_) return;
  inbox_ += line;
  inbox_ += '\n';
  changed_.notify_all();
}

void HttpChannel::answerWithError(const std::string& message, const std::string& why) {
  log(LogLevel::warn, "MCP over HTTP (" + config_.url + "): " + why);
  {
    std::lock_guard lock(mutex_);
    lastProblem_ = why;
  }
  std::string id = requestIdOf(message);
  if (id.empty()) return;
  deliver(json::build([&](json::Writer& w) {
    w.StartObject();
    json::put(w, "jsonrpc", "2.0");
    json::put(w, "id", json::Raw{id});
    json::key(w, "error");
    w.StartObject();
    json::put(w, "code", -32000);
    json::put(w, "message", why);
    w.EndObject();
    w.EndObject();
  }));
}

void HttpChannel::markBroken() {
  std::lock_guard lock(mutex_);
  broken_ = true;
}

bool HttpChannel::usable() {
  std::lock_guard lock(mutex_);
  return !broken_ && !eof_;
}

void HttpChannel::endInput() {
  std::lock_guard lock(mutex_);
  eof_ = true;
  changed_.notify_all();
}

void HttpChannel::post(const std::string& message) {
  if (closing_.cancelled()) return;
  bool deciding = false;
  std::unique_lock decide(legacyMutex_, std::defer_lock);
  {
    std::lock_guard lock(mutex_);
    deciding = !decided_;
  }
  if (deciding) {
    decide.lock();  // the first POST settles the transport; the others wait for it
    std::lock_guard lock(mutex_);
    deciding = !decided_;
    if (!deciding) decide.unlock();
  }
  Mode mode;
  {
    std::lock_guard lock(mutex_);
    mode = mode_;
  }
  if (mode == Mode::sse) {
    bool haveEndpoint;
    {
      std::lock_guard lock(mutex_);
      haveEndpoint = !endpoint_.empty();
    }
    if (!haveEndpoint) {
      if (!openLegacy()) {
        std::string why;
        {
          std::lock_guard lock(mutex_);
          why = lastProblem_.empty() ? "it sent no endpoint event" : lastProblem_;
        }
        markBroken();
        answerWithError(message, "the HTTP+SSE transport at " + config_.url + " did not work: " + why);
        return endInput();
      }
    }
    postLegacy(message);
  } else {
    postStreamable(message);
  }
  std::lock_guard lock(mutex_);
  decided_ = true;
}

void HttpChannel::postStreamable(const std::string& message) {
  http::RawRequest request;
  request.url = config_.url;
  request.body = message;
  request.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
  bool deciding;
  {
    std::lock_guard lock(mutex_);
    deciding = !decided_;
    if (!sessionId_.empty()) request.headers.emplace_back("Mcp-Session-Id", sessionId_);
    if (!protocolVersion_.empty()) request.headers.emplace_back("MCP-Protocol-Version", protocolVersion_);
  }
  request.headers.insert(request.headers.end(), config_.headers.begin(), config_.headers.end());
  http::SseParser parser;
  bool sse = false;
  int status = 0;
  std::string body;
  const bool initialize = isInitialize(message);
  auto onEvents = [&](const std::vector<http::SseEvent>& events) {
    for (const auto& event : events) {
      if (event.type == "message" && !event.data.empty()) deliver(event.data);
    }
  };
  auto head = http::exchange(
      request,
      [&](const http::ResponseHead& h) {
        status = h.status;
        sse = startsWith(h.header("Content-Type"), "text/event-stream");
        std::lock_guard lock(mutex_);
        if (std::string id = h.header("Mcp-Session-Id"); !id.empty() && sessionId_.empty()) sessionId_ = id;
        if (initialize && status / 100 == 2) {
          // The stream for the server's own messages opens before the handshake
          // ends, so that what it asks right after (roots/list) finds it.
          spawn([this] { runStream(config_.url, false); });
        }
        return true;
      },
      [&](std::string_view bytes) {
        if (status / 100 != 2) {
          body.append(bytes.substr(0, kMaxErrorBody - std::min(kMaxErrorBody, body.size())));
        } else if (sse) {
          onEvents(parser.feed(bytes));
        } else {
          body.append(bytes);
        }
        return true;
      },
      closing_);
  if (closing_.cancelled()) return;
  bool fallBack = deciding && config_.kind == HttpTransport::Kind::automatic &&
                  (!head || (status >= 400 && status < 500));
  if (fallBack) {
    log(LogLevel::info, "MCP server at " + config_.url + " does not take Streamable HTTP (" +
                            (head ? "HTTP " + std::to_string(status) : head.error().message) +
                            "); trying the HTTP+SSE transport");
    {
      std::lock_guard lock(mutex_);
      mode_ = Mode::sse;
    }
    if (!openLegacy()) {
      std::string first = head ? "HTTP " + std::to_string(status) : head.error().message;
      std::string second;
      {
        std::lock_guard lock(mutex_);
        second = lastProblem_.empty() ? "no endpoint event" : lastProblem_;
      }
      markBroken();
      answerWithError(message, "neither Streamable HTTP (" + first + ") nor HTTP+SSE (" + second +
                                   ") worked at " + config_.url);
      return endInput();
    }
    return postLegacy(message);
  }
  // The server is gone, or has forgotten our session: this connection is
  // over, and the next use makes a new one (initialize again).
  if (!head) {
    markBroken();
    answerWithError(message, head.error().message);
    return endInput();
  }
  if (status / 100 != 2) {
    bool expired = false;
    {
      std::lock_guard lock(mutex_);
      // The spec says 404; servers built on the TypeScript SDK answer 400.
      expired = (status == 404 || status == 400) && !sessionId_.empty();
    }
    if (expired) markBroken();
    answerWithError(message, "POST " + config_.url + " answered HTTP " + std::to_string(status) +
                                 (expired ? " (the session is over; the next call starts a new one)" : "") + (body.empty() ? "" : ": " + body));
    if (expired) endInput();
    return;
  }
  if (sse) {
    if (auto last = parser.finish()) onEvents({*last});
  } else if (!body.empty()) {
    deliver(body);
  }
}

bool HttpChannel::openLegacy() {
  {
    std::lock_guard lock(mutex_);
    if (!endpoint_.empty()) return true;
    if (!streamOpen_ && !streamEnded_) {
      streamOpen_ = true;
      spawn([this] { runStream(config_.url, true); });
    }
  }
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, kEndpointWait, [&] { return !endpoint_.empty() || streamEnded_ || closing_.cancelled(); });
  return !endpoint_.empty();
}

void HttpChannel::runStream(std::string url, bool legacy) {
  http::RawRequest request;
  request.method = "GET";
  request.url = url;
  request.readTimeout = kStreamSilence;
  request.headers = {{"Accept", "text/event-stream"}};
  {
    std::lock_guard lock(mutex_);
    if (!legacy && !sessionId_.empty()) request.headers.emplace_back("Mcp-Session-Id", sessionId_);
    if (!legacy && !protocolVersion_.empty()) request.headers.emplace_back("MCP-Protocol-Version", protocolVersion_);
  }
  request.headers.insert(request.headers.end(), config_.headers.begin(), config_.headers.end());
  http::SseParser parser;
  int status = 0;
  auto handle = [&](const http::SseEvent& event) {
    if (legacy && event.type == "endpoint") {
      std::lock_guard lock(mutex_);
      endpoint_ = http::resolveUrl(url, event.data);
      changed_.notify_all();
    } else if (event.type == "message" && !event.data.empty()) {
      deliver(event.data);
    }
  };
  auto head = http::exchange(
      request,
      [&](const http::ResponseHead& h) {
        status = h.status;
        return status == 200;  // 405: the server offers no stream of its own
      },
      [&](std::string_view bytes) {
        for (const auto& event : parser.feed(bytes)) handle(event);
        return true;
      },
      closing_);
  {
    std::lock_guard lock(mutex_);
    streamEnded_ = true;
    if (!head) {
      lastProblem_ = head.error().message;
    } else if (status != 200) {
      lastProblem_ = "GET " + url + " answered HTTP " + std::to_string(status);
    }
    changed_.notify_all();
  }
  // The legacy transport's answers only come on this stream: without it the
  // connection is over. (Before an endpoint arrived, the POST waiting for it
  // answers the failure and ends the connection itself.)
  bool hadEndpoint;
  {
    std::lock_guard lock(mutex_);
    hadEndpoint = !endpoint_.empty();
  }
  if (legacy && hadEndpoint && !closing_.cancelled()) {
    markBroken();
    endInput();
  }
}

void HttpChannel::postLegacy(const std::string& message) {
  http::RawRequest request;
  {
    std::lock_guard lock(mutex_);
    request.url = endpoint_;
  }
  request.body = message;
  request.headers = {{"Content-Type", "application/json"}};
  request.headers.insert(request.headers.end(), config_.headers.begin(), config_.headers.end());
  int status = 0;
  std::string body;
  auto head = http::exchange(
      request, [&](const http::ResponseHead& h) { return (status = h.status), true; },
      [&](std::string_view bytes) {
        body.append(bytes.substr(0, kMaxErrorBody - std::min(kMaxErrorBody, body.size())));
        return true;
      },
      closing_);
  if (closing_.cancelled()) return;
  if (!head) return answerWithError(message, head.error().message);
  if (status / 100 != 2) {
    answerWithError(message, "POST " + request.url + " answered HTTP " + std::to_string(status) +
                                 (body.empty() ? "" : ": " + body));
  }
}

void HttpChannel::closeWrite() {
  std::string session;
  Mode mode;
  {
    std::lock_guard lock(mutex_);
    if (closing_.cancelled()) return;
    session = sessionId_;
    mode = mode_;
  }
  if (mode == Mode::streamable && !session.empty()) {
    // Ends the server's session; a server that does not allow it answers 405.
    http::RawRequest request;
    request.method = "DELETE";
    request.url = config_.url;
    request.connectTimeout = milliseconds(2000);
    request.readTimeout = milliseconds(2000);
    request.headers = {{"Mcp-Session-Id", session}};
    request.headers.insert(request.headers.end(), config_.headers.begin(), config_.headers.end());
    (void)http::exchange(request, nullptr, nullptr, CancelToken::create());
  }
  closing_.cancel();
  {
    std::lock_guard lock(mutex_);
    changed_.notify_all();
  }
  workers_.waitIdle();  // also what a worker started meanwhile
  endInput();
}

}  // namespace lathe::tools::mcp
