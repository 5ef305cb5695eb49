// Cancellation tokens: callbacks, children, registrations.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "protocol/base/cancel.h"
#include "tests/support/wait.h"

using lathe::CancelToken;

TEST_CASE("callbacks run once on cancel, and at once when already cancelled") {
  auto token = CancelToken::create();
  int calls = 0;
  auto reg = token.onCancel([&] { ++calls; });
  token.cancel();
  token.cancel();
  CHECK(calls == 1);
  CHECK(token.cancelled());
  int late = 0;
  auto reg2 = token.onCancel([&] { ++late; });
  CHECK(late == 1);
}

TEST_CASE("a destroyed registration does not fire") {
  auto token = CancelToken::create();
  int calls = 0;
  { auto reg = token.onCancel([&] { ++calls; }); }
  token.cancel();
  CHECK(calls == 0);
}

TEST_CASE("children are cancelled with their parent but not the other way") {
  auto parent = CancelToken::create();
  auto a = parent.child();
  auto b = parent.child();
  a.cancel();
  CHECK(a.cancelled());
  CHECK_FALSE(parent.cancelled());
  CHECK_FALSE(b.cancelled());
  auto grandchild = b.child();
  parent.cancel();
  CHECK(b.cancelled());
  CHECK(grandchild.cancelled());
}

TEST_CASE("cancel from another thread is seen by a waiting worker") {
  auto token = CancelToken::create();
  std::atomic<bool> seen{false};
  std::thread worker([&] {
    while (!token.cancelled()) std::this_thread::yield();
    seen = true;
  });
  token.cancel();
  worker.join();
  CHECK(seen);
}

TEST_CASE("destroying a registration waits for its callback running on another thread") {
  for (int round = 0; round < 50; ++round) {
    auto token = CancelToken::create();
    std::atomic<bool> entered{false};
    std::atomic<bool> finished{false};
    const pid_t tester = ::gettid();
    auto reg = std::make_unique<CancelToken::Registration>(token.onCancel([&] {
      entered = true;
      // Still running while the tester blocks (in reset(), or in join() if
      // reset() did not wait: then the CHECK below fails).
      lathe::testing::waitUntilBlocked(tester);
      finished = true;
    }));
    std::thread canceller([&] { token.cancel(); });
    while (!entered) std::this_thread::yield();
    reg.reset();  // must not return while the callback still runs
    CHECK(finished);
    canceller.join();
  }
}

TEST_CASE("a callback may destroy its own registration") {
  auto token = CancelToken::create();
  std::unique_ptr<CancelToken::Registration> reg;
  reg = std::make_unique<CancelToken::Registration>(token.onCancel([&] { reg.reset(); }));
  token.cancel();
  CHECK_FALSE(reg);
}
