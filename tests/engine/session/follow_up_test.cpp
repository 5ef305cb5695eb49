// FollowUp: work runs one piece after another, and waits while held.
#include <catch2/catch.hpp>

#include <atomic>

#include "engine/session/follow_up.h"
#include "tests/support/wait.h"

using namespace lathe;
using namespace lathe::engine;
using lathe::testing::Notice;

TEST_CASE("follow-up: work posted while held waits for the release, then runs in order") {
  Notice done;
  std::vector<int> ran;
  FollowUp follow;  // last: its task is joined before what it touches goes
  follow.hold();
  REQUIRE(follow.post([&](const CancelToken&) { done.update([&] { ran.push_back(1); }); }));
  REQUIRE(follow.post([&](const CancelToken&) { done.update([&] { ran.push_back(2); }); }));
  // Held: nothing may run. A third piece posted after the release would run after these two.
  CHECK_FALSE(done.waitFor([&] { return !ran.empty(); }, std::chrono::milliseconds(50)));
  follow.release();
  REQUIRE(done.waitFor([&] { return ran.size() == 2; }));
  CHECK(ran == std::vector<int>{1, 2});
  REQUIRE(follow.post([&](const CancelToken&) { done.update([&] { ran.push_back(3); }); }));
  REQUIRE(done.waitFor([&] { return ran.size() == 3; }));
}
