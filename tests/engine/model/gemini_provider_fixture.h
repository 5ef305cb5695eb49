// The local server and helpers the GeminiProvider tests share: a real
// cpp-httplib server on 127.0.0.1, SSE chunks, a sleep log for backoff.
#pragma once

#include <catch2/catch.hpp>

#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <ctime>
#include <future>
#include <mutex>
#include <thread>

#include "engine/model/gemini/gemini_provider.h"
#include "protocol/base/json.h"
#include "tests/support/local_http_server.h"
#include "tests/support/wait.h"

namespace lathe::testing::gemini_fixture {

using namespace lathe::engine;
using std::chrono::milliseconds;
using namespace std::chrono_literals;

// A gate a server handler can wait on; opened by the test or at teardown.
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  void release() {
    std::lock_guard lock(mutex);
    open = true;
    cv.notify_all();
  }
  bool wait(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, timeout, [&] { return open; });
  }
};

struct SeenRequest {
  std::string path;
  std::string alt;
  std::string apiKey;
  std::string contentType;
  std::string body;
  int remotePort = 0;  // one per connection
};

// A local HTTP server that records what it is asked.
class LocalServer {
 public:
  using Handler = std::function<void(int n, const httplib::Request&, httplib::Response&)>;

  explicit LocalServer(Handler handler, std::string route = R"(/v1beta/models/[^/]+:streamGenerateContent)")
      : handler_(std::move(handler)) {
    server_.Post(route, [this](const httplib::Request& req, httplib::Response& res) {
      int n;
      {
        std::lock_guard lock(mutex_);
        seen_.push_back({req.path, req.get_param_value("alt"), req.get_header_value("x-goog-api-key"),
                         req.get_header_value("Content-Type"), req.body, req.remote_port});
        n = static_cast<int>(seen_.size());
      }
      handler_(n, req, res);
    });
    // httplib logs a request once its answer is written.
    server_.set_logger([this](const httplib::Request&, const httplib::Response&) {
      answers_.update([this] { ++answered_; });
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    REQUIRE(port_ > 0);
    thread_ = testing::listenInBackground(server_);
  }
  ~LocalServer() {
    gate.release();
    server_.stop();
    thread_.join();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<SeenRequest> seen() {
    std::lock_guard lock(mutex_);
    return seen_;
  }
  size_t count() { return seen().size(); }
  // Waits until `n` answers have been written.
  bool waitForAnswers(size_t n) {
    return answers_.waitFor([&] { return answered_ >= n; });
  }
  // Settings for connections made from now on.
  httplib::Server& raw() { return server_; }

  Gate gate;

 private:
  Handler handler_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<SeenRequest> seen_;
  testing::Notice answers_;  // guards answered_
  size_t answered_ = 0;
};

inline std::string sse(const std::vector<std::string>& chunks) {
  std::string out;
  for (const auto& c : chunks) out += "data: " + c + "\r\n\r\n";
  return out;
}

inline std::string textChunk(const std::string& text) {
  return R"({"candidates":[{"content":{"role":"model","parts":[{"text":")" + text + R"("}]}}]})";
}
inline std::string finalChunk(const std::string& text) {
  return R"({"candidates":[{"content":{"role":"model","parts":[{"text":")" + text +
         R"("}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":3,"totalTokenCount":13}})";
}

// Streams the given SSE pieces with a pause before each piece after the first.
// The pause plays a slow server (what is tested is the stream-silence
// deadline), so it is a real sleep, not synchronisation.
inline void streamPieces(httplib::Response& res, std::vector<std::string> pieces, milliseconds pause) {
  res.set_chunked_content_provider("text/event-stream", [pieces, pause](size_t, httplib::DataSink& sink) {
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (i > 0) std::this_thread::sleep_for(pause);
      if (!sink.write(pieces[i].data(), pieces[i].size())) return false;
    }
    sink.done();
    return true;
  });
}

struct SleepLog {
  std::mutex mutex;
  std::vector<milliseconds> delays;
  std::vector<milliseconds> get() {
    std::lock_guard lock(mutex);
    return delays;
  }
};

inline GeminiProvider::Options options(const std::string& url, std::shared_ptr<SleepLog> log) {
  GeminiProvider::Options o;
  o.apiKey = "test-key";
  o.baseUrl = url;
  o.sleep = [log](milliseconds d, const CancelToken&) {
    std::lock_guard lock(log->mutex);
    log->delays.push_back(d);
  };
  return o;
}

inline const std::vector<Content>& history() {
  static const std::vector<Content> h{{Role::user, {Part::makeText("say hello")}}};
  return h;
}

inline ModelRequest request() {
  ModelRequest r;
  r.model = "gemini-2.5-flash";
  r.contents = &history();
  return r;
}

inline std::string joinedText(const ModelReply& reply) {
  std::string out;
  for (const Part& p : reply.content.parts) {
    if (p.text) out += *p.text;
  }
  return out;
}

inline int freePort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  socklen_t len = sizeof addr;
  REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
  ::close(fd);
  return ntohs(addr.sin_port);
}

}  // namespace lathe::testing::gemini_fixture
