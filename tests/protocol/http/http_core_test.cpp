// The HTTP core (protocol/http/transfer.h) against a local server: a pinned
// address, the body cap, cancellation while the server withholds its answer,
// a stream's silence deadline on the executor's clock; deadlines as
// cancellation; host lookups through the resolver seam.
#include <catch2/catch.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <condition_variable>
#include <future>
#include <mutex>

#include "protocol/http/deadline.h"
#include "protocol/http/http_client.h"
#include "protocol/http/resolver.h"
#include "protocol/http/transfer.h"
#include "tests/support/local_http_server.h"
#include "tests/support/wait.h"

using namespace lathe;
using namespace lathe::http;
using namespace std::chrono_literals;

namespace {

httplib::Request get(const std::string& path) {
  httplib::Request req;
  req.method = "GET";
  req.path = path;
  return req;
}

// A server whose /hold answers only when released, and tells when it was asked.
struct HoldingServer {
  testing::LocalHttpServer http;
  std::mutex mutex;
  std::condition_variable changed;
  bool released = false;
  std::promise<void> asked;

  HoldingServer() {
    http.server.Get("/who", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(req.get_header_value("Host"), "text/plain");
    });
    http.server.Get("/bytes", [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(std::string(std::stoul(req.get_param_value("n")), 'x'), "text/plain");
    });
    http.server.Get("/hold", [this](const httplib::Request&, httplib::Response& res) {
      asked.set_value();
      std::unique_lock lock(mutex);
      changed.wait(lock, [this] { return released; });
      res.set_content("late", "text/plain");
    });
    REQUIRE(http.start());
  }
  ~HoldingServer() { release(); }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
};

class SilentResolver final : public Resolver {
 public:
  void lookup(const std::string&, Answer) override {}
};

}  // namespace

TEST_CASE("http core: a pinned client connects to the pinned address and keeps the name for Host", "[http]") {
  HoldingServer server;
  const std::string port = std::to_string(server.http.port);
  PinnedAddress pin{"pinned.test", "127.0.0.1"};
  auto client = openClient("http://pinned.test:" + port, &pin);
  std::string body;
  Transfer out = transfer(*client, get("/who"), {}, nullptr, [&](std::string_view b) { return body.append(b), true; },
                          CancelToken());
  REQUIRE(out.complete);
  CHECK(out.head.status == 200);
  CHECK(out.head.header("content-type") == "text/plain");
  CHECK(body == "pinned.test:" + port);
}

TEST_CASE("http core: the body cap stops reading past it, and a body just at the cap is whole", "[http]") {
  HoldingServer server;
  auto client = openClient(server.http.url());
  TransferLimits limits;
  limits.maxBodyBytes = 1000;
  std::string body;
  auto collect = [&](std::string_view b) { return body.append(b), true; };
  Transfer over = transfer(*client, get("/bytes?n=100000"), limits, nullptr, collect, CancelToken());
  CHECK(over.capped);
  CHECK_FALSE(over.complete);
  CHECK(over.answered());
  CHECK(over.bodyBytes == 1000);
  CHECK(body.size() == 1000);
  body.clear();
  auto again = openClient(server.http.url());
  Transfer exact = transfer(*again, get("/bytes?n=1000"), limits, nullptr, collect, CancelToken());
  CHECK(exact.complete);
  CHECK_FALSE(exact.capped);
  CHECK(body.size() == 1000);
}

TEST_CASE("http core: cancelling stops an exchange whose answer is withheld", "[http]") {
  HoldingServer server;
  auto client = openClient(server.http.url());
  auto cancel = CancelToken::create();
  auto asked = server.asked.get_future();
  auto running = std::async(std::launch::async, [&] {
    return transfer(*client, get("/hold"), {}, nullptr, nullptr, cancel);
  });
  asked.wait();
  cancel.cancel();
  Transfer out = running.get();
  CHECK(out.cancelled);
  CHECK_FALSE(out.answered());
  CHECK(out.head.status == 0);
}

namespace {

// A server whose event stream sends one event at once, then one more each
// time the test allows it, then says nothing until the test ends.
struct StallingStream {
  testing::LocalHttpServer http;
  testing::Notice notice;
  int allowed = 0;  // events after the first
  bool ending = false;

  explicit StallingStream(int events) {
    http.server.Post("/stream", [this, events](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("text/event-stream", [this, events](size_t, httplib::DataSink& sink) {
        for (int i = 0; i < events; ++i) {
          notice.waitFor([&] { return ending || allowed >= i; }, 60s);
          std::string event = "data: {\"n\":" + std::to_string(i) + "}\n\n";
          if (ending || !sink.write(event.data(), event.size())) return false;
        }
        notice.waitFor([&] { return ending; }, 60s);
        return false;
      });
    });
    REQUIRE(http.start());
  }
  ~StallingStream() { notice.update([&] { ending = true; }); }
  void allowOne() { notice.update([&] { ++allowed; }); }
};

}  // namespace

TEST_CASE("http client: a stream that goes silent ends at the silence deadline, on the executor's clock", "[http][exec]") {
  exec::Executor manual(exec::Executor::Options{exec::Executor::Mode::manual});
  StallingStream server(3);
  Client::Options options;
  options.apiName = "test API";
  options.readTimeout = 1000ms;
  options.executor = &manual;
  options.sleep = [](std::chrono::milliseconds, const CancelToken&) {};
  Client client(Endpoint{server.http.url(), ""}, options);
  testing::Notice seen;
  int events = 0;
  StreamCallbacks callbacks;
  callbacks.onEvent = [&](const SseEvent&) -> std::optional<EventError> {
    seen.update([&] { ++events; });
    return std::nullopt;
  };
  std::promise<pid_t> reader;
  auto streamed = std::async(std::launch::async, [&] {
    reader.set_value(static_cast<pid_t>(::gettid()));
    return client.streamEvents("/stream", "{}", callbacks, CancelToken());
  });
  const pid_t tid = reader.get_future().get();
  // Each event handled, the client waits on its socket again: the watchdog is re-armed.
  auto handled = [&](int n) {
    return seen.waitFor([&] { return events >= n; }) &&
           testing::waitUntilBlocked(tid, [](long call) { return call == SYS_poll || call == SYS_ppoll || call == SYS_recvfrom; });
  };
  REQUIRE(handled(1));
  for (int n = 2; n <= 3; ++n) {
    manual.advance(999ms);  // just short of the silence allowed: the stream goes on
    server.allowOne();
    REQUIRE(handled(n));
  }
  manual.advance(999ms);
  manual.advance(1ms);
  Status status = streamed.get();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().code == Errc::timeout);
  CHECK_THAT(status.error().message, Catch::Contains("stream from " + server.http.url() + "/stream broke off: no data arrived for 1 second (httplib: Read)"));
  CHECK(events == 3);
}

TEST_CASE("http core: a deadline's token is cancelled by its parent or when the time is up", "[http]") {
  auto parent = CancelToken::create();
  Deadline longOne(parent, 600s);
  parent.cancel();
  CHECK(longOne.token().cancelled());
  CHECK_FALSE(longOne.expired());

  Deadline shortOne(CancelToken(), 20ms);
  std::promise<void> fired;
  auto registration = shortOne.token().onCancel([&] { fired.set_value(); });
  fired.get_future().wait();
  CHECK(shortOne.expired());
}

TEST_CASE("http core: a deadline on the manual executor fires when its clock passes it", "[http]") {
  exec::Executor executor({exec::Executor::Mode::manual});
  Deadline deadline(CancelToken(), 50ms, executor);
  executor.advance(49ms);
  CHECK_FALSE(deadline.token().cancelled());
  CHECK_FALSE(deadline.expired());
  executor.advance(1ms);
  CHECK(deadline.token().cancelled());
  CHECK(deadline.expired());
}

TEST_CASE("http core: waiting for a resolver that never answers ends with the deadline", "[http]") {
  SilentResolver silent;
  Deadline deadline(CancelToken(), 50ms);
  auto addresses = resolveHost(silent, "never.test", deadline.token());
  REQUIRE_FALSE(addresses);
  CHECK(addresses.error().code == Errc::cancelled);
  CHECK(deadline.expired());
}

TEST_CASE("http core: the system resolver answers IP literals as they are and finds localhost", "[http]") {
  auto literal = resolveHost(*systemResolver(), "127.0.0.1", CancelToken());
  REQUIRE(literal);
  CHECK(*literal == Addresses{"127.0.0.1"});
  auto local = resolveHost(*systemResolver(), "localhost", CancelToken());
  REQUIRE(local);
  REQUIRE_FALSE(local->empty());
  for (const auto& address : *local) CHECK((address == "127.0.0.1" || address == "::1"));
  CHECK(isIpLiteral("::1"));
  CHECK_FALSE(isIpLiteral("localhost"));
}
