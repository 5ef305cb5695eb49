// The JSON-RPC peer over real pipes: dispatch, reply-exactly-once, outgoing
// requests correlated by id, timeouts, cancellation and a closed connection.
#include <catch2/catch.hpp>

#include <sys/syscall.h>
#include <unistd.h>

#include <future>
#include <thread>

#include "protocol/jsonrpc/peer.h"
#include "tests/support/wait.h"

using namespace lathe;
using namespace lathe::rpc;
using namespace std::chrono_literals;

namespace {

// A peer whose output we read from a pipe; input frames are handed in directly.
struct Harness {
  int out[2];
  std::unique_ptr<ByteChannel> channel;
  std::shared_ptr<Peer> peer;
  explicit Harness(exec::Executor& executor = exec::Executor::shared(), std::string cancelMethod = "") {
    REQUIRE(::pipe(out) == 0);
    channel = makeFdChannel(-1, out[1]);
    Peer::Options options;
    options.executor = &executor;
    options.cancelMethod = std::move(cancelMethod);
    peer = Peer::create(*channel, options);
  }
  ~Harness() {
    peer->close();
    peer.reset();
    ::close(out[0]);
    ::close(out[1]);
  }
  void feed(const std::string& json) { peer->handleFrame(Frame{json, std::nullopt}); }
  std::string readLine() {
    std::string line;
    char c;
    while (::read(out[0], &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
};

}  // namespace

TEST_CASE("requests are dispatched and a dropped Responder still answers") {
  Harness h;
  h.peer->onRequest("echo", [](const Incoming& msg, Responder r) { r.reply(json::Raw{json::stringify(*msg.params)}); });
  h.peer->onRequest("drop", [](const Incoming&, Responder) {});
  h.feed(R"({"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}})");
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","id":1,"result":{"a":1}})");
  h.feed(R"({"jsonrpc":"2.0","id":2,"method":"drop"})");
  CHECK(h.readLine().find(R"("id":2,"error":{"code":-32603)") != std::string::npos);
  h.feed(R"({"jsonrpc":"2.0","id":3,"method":"missing"})");
  CHECK(h.readLine().find("-32601") != std::string::npos);
  h.feed("not json");
  CHECK(h.readLine().find(R"("id":null,"error":{"code":-32700)") != std::string::npos);
  // A broken response gets no answer: the next line out is the echo below.
  h.feed(R"({"id":7,"result":{}})");
  h.feed(R"({"jsonrpc":"2.0","id":8,"method":"echo","params":{"b":2}})");
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","id":8,"result":{"b":2}})");
}

TEST_CASE("the gate refuses methods before initialize, notifications never get answers") {
  Harness h;
  bool open = false;
  h.peer->setGate([&](const std::string& m) -> std::optional<Error> {
    if (open || m == "initialize") return std::nullopt;
    return Error{Errc::invalid_request, "initialize first"};
  });
  int notes = 0;
  h.peer->onRequest("work", [](const Incoming&, Responder r) { r.reply(json::Raw{}); });
  h.peer->onNotification("ping", [&](const Incoming&) { ++notes; });
  h.feed(R"({"jsonrpc":"2.0","method":"ping"})");
  h.feed(R"({"jsonrpc":"2.0","id":1,"method":"work"})");
  CHECK(h.readLine().find("initialize first") != std::string::npos);
  CHECK(notes == 0);
  open = true;
  h.feed(R"({"jsonrpc":"2.0","method":"ping"})");
  h.feed(R"({"jsonrpc":"2.0","id":2,"method":"work"})");
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","id":2,"result":{}})");
  CHECK(notes == 1);
}

TEST_CASE("outgoing requests are correlated by id, answered once, and time out cleanly") {
  Harness h;
  std::promise<Result<Response>> first, second;
  h.peer->request("a/b", json::Raw{"{}"}, [&](Result<Response> r) { first.set_value(std::move(r)); });
  h.peer->request("c/d", json::Raw{"{}"}, [&](Result<Response> r) { second.set_value(std::move(r)); });
  std::string sentA = h.readLine();
  std::string sentB = h.readLine();
  CHECK(sentA == R"({"jsonrpc":"2.0","id":1,"method":"a/b","params":{}})");
  CHECK(sentB == R"({"jsonrpc":"2.0","id":2,"method":"c/d","params":{}})");
  // Answered out of order; each reaches its own caller.
  h.feed(R"({"jsonrpc":"2.0","id":2,"result":{"which":"second"}})");
  h.feed(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"nope"}})");
  auto r2 = second.get_future().get();
  REQUIRE(r2.ok());
  CHECK(json::getStr(*r2->result, "which") == "second");
  auto r1 = first.get_future().get();
  REQUIRE_FALSE(r1.ok());
  CHECK(r1.error().message.find("nope") != std::string::npos);
  // A duplicate answer is ignored.
  h.feed(R"({"jsonrpc":"2.0","id":2,"result":{}})");

  auto timedOut = h.peer->call("slow/method", json::Raw{"{}"}, 50ms, CancelToken());
  REQUIRE_FALSE(timedOut.ok());
  CHECK(timedOut.error().code == Errc::timeout);
  CHECK(timedOut.error().message.find("slow/method") != std::string::npos);
  h.readLine();
  h.feed(R"({"jsonrpc":"2.0","id":3,"result":{}})");  // too late: ignored, no crash
}

TEST_CASE("a call's deadline is a timer on the peer's executor", "[exec]") {
  exec::Executor manual(exec::Executor::Options{exec::Executor::Mode::manual});
  Harness h(manual);
  auto call = [&] {
    return std::async(std::launch::async, [&] { return h.peer->call("slow/method", json::Raw{"{}"}, 1h, CancelToken()); });
  };
  // Just short of the deadline the call still takes its answer.
  auto answered = call();
  CHECK(h.readLine().find(R"("id":1)") != std::string::npos);  // sent, its deadline armed before
  manual.advance(1h - 1ms);
  h.feed(R"({"jsonrpc":"2.0","id":1,"result":{"in":"time"}})");
  auto first = answered.get();
  REQUIRE(first.ok());
  CHECK(json::getStr(*first->result, "in") == "time");
  // At the deadline (an hour: real waiting would fail the test) it times out.
  auto unanswered = call();
  CHECK(h.readLine().find(R"("id":2)") != std::string::npos);
  manual.advance(1h);
  auto second = unanswered.get();
  REQUIRE_FALSE(second.ok());
  CHECK(second.error().code == Errc::timeout);
  CHECK(second.error().message == "no answer to slow/method within 3600000 ms");
  h.feed(R"({"jsonrpc":"2.0","id":2,"result":{}})");  // too late: ignored
}

TEST_CASE("a cancelled call returns at once, close fails what is pending") {
  Harness h;
  auto token = CancelToken::create();
  const pid_t caller = ::gettid();
  std::string sent;
  bool waiting = false;
  std::thread canceller([&] {
    sent = h.readLine();  // the request is out; then the caller waits for its answer
    waiting = testing::waitUntilBlocked(caller, [](long call) { return call == SYS_futex; });
    token.cancel();
  });
  auto cancelled = h.peer->call("ask", json::Raw{"{}"}, 10s, token);
  canceller.join();
  CHECK(sent.find(R"("method":"ask")") != std::string::npos);
  CHECK(waiting);
  REQUIRE_FALSE(cancelled.ok());
  CHECK(cancelled.error().code == Errc::cancelled);

  std::promise<Result<Response>> pending;
  h.peer->request("later", json::Raw{"{}"}, [&](Result<Response> r) { pending.set_value(std::move(r)); });
  h.peer->close();
  auto closed = pending.get_future().get();
  REQUIRE_FALSE(closed.ok());
  CHECK(closed.error().code == Errc::io);
  auto afterClose = h.peer->call("x", json::Raw{"{}"}, 10s, CancelToken());
  CHECK(afterClose.error().code == Errc::io);
}

TEST_CASE("an id-only message is refused and never completes a pending request") {
  Harness h;
  std::promise<Result<Response>> pending;
  h.peer->request("session/request_permission", json::Raw{"{}"}, [&](Result<Response> r) { pending.set_value(std::move(r)); });
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","id":1,"method":"session/request_permission","params":{}})");
  h.feed(R"({"jsonrpc":"2.0","id":1})");
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: no method, result or error"}})");
  auto future = pending.get_future();
  CHECK(future.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout);
  h.feed(R"({"jsonrpc":"2.0","id":1,"result":{"outcome":{"outcome":"cancelled"}}})");
  REQUIRE(future.get().ok());
}

TEST_CASE("the other side's $/cancel_request fires the Responder's token until the request is answered") {
  Harness h(exec::Executor::shared(), "$/cancel_request");
  std::optional<Responder> kept;
  h.peer->onRequest("long", [&](const Incoming&, Responder r) { kept.emplace(std::move(r)); });
  h.feed(R"({"jsonrpc":"2.0","id":"a","method":"long"})");
  h.feed(R"({"jsonrpc":"2.0","id":7,"method":"long"})");  // the later one is kept; "a" was dropped, so answered
  CHECK(h.readLine().find(R"("id":"a","error":{"code":-32603)") != std::string::npos);
  REQUIRE(kept);
  CHECK_FALSE(kept->cancelled().cancelled());
  h.feed(R"({"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":8}})");  // no such request: nothing
  CHECK_FALSE(kept->cancelled().cancelled());
  h.feed(R"({"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":7}})");
  CHECK(kept->cancelled().cancelled());
  // Answering stays the holder's: the spec's cancelled error, once.
  kept->fail(Error{Errc::cancelled, "stopped"});
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","id":7,"error":{"code":-32800,"message":"stopped"}})");
}

TEST_CASE("a peer without a cancel method takes $/cancel_request as any unknown notification") {
  Harness h;
  std::optional<Responder> kept;
  h.peer->onRequest("long", [&](const Incoming&, Responder r) { kept.emplace(std::move(r)); });
  h.feed(R"({"jsonrpc":"2.0","id":1,"method":"long"})");
  h.feed(R"({"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}})");
  REQUIRE(kept);
  CHECK_FALSE(kept->cancelled().cancelled());
  kept->reply(json::Raw{"{}"});
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","id":1,"result":{}})");
}

TEST_CASE("a call given up on (cancelled or timed out) is withdrawn with the cancel method") {
  exec::Executor manual(exec::Executor::Options{exec::Executor::Mode::manual});
  Harness h(manual, "$/cancel_request");
  auto token = CancelToken::create();
  auto asked = std::async(std::launch::async, [&] { return h.peer->call("ask", json::Raw{"{}"}, 1h, token); });
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","id":1,"method":"ask","params":{}})");
  token.cancel();
  REQUIRE(asked.get().error().code == Errc::cancelled);
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}})");

  auto slow = std::async(std::launch::async, [&] { return h.peer->call("slow", json::Raw{"{}"}, 1h, CancelToken()); });
  CHECK(h.readLine().find(R"("id":2)") != std::string::npos);
  manual.advance(1h);
  REQUIRE(slow.get().error().code == Errc::timeout);
  CHECK(h.readLine() == R"({"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":2}})");

  // An answered call withdraws nothing: the next line out is the next request.
  auto answered = std::async(std::launch::async, [&] { return h.peer->call("quick", json::Raw{"{}"}, 1h, CancelToken()); });
  CHECK(h.readLine().find(R"("id":3)") != std::string::npos);
  h.feed(R"({"jsonrpc":"2.0","id":3,"result":{}})");
  REQUIRE(answered.get().ok());
  h.peer->request("next", json::Raw{"{}"}, [](Result<Response>) {});
  CHECK(h.readLine().find(R"("method":"next")") != std::string::npos);
}
