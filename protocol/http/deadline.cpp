// The timer: a thread that waits for the deadline or for being disarmed. It
// is the only clock deadlines have; an executor's timer can take its place
// without callers noticing.
#include "protocol/http/deadline.h"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace lathe::http {

struct Deadline::Timer {
  std::mutex mutex;
  std::condition_variable disarm;
  bool disarmed = false;
  std::thread thread;
};

Deadline::Deadline(const CancelToken& parent, std::chrono::milliseconds within)
    : when_(Clock::now() + within),
      token_(parent.child()),
      fired_(std::make_shared<std::atomic<bool>>(false)),
      timer_(std::make_unique<Timer>()) {
  Timer* timer = timer_.get();
  auto fire = [timer, when = when_, token = token_, fired = fired_] {
    std::unique_lock lock(timer->mutex);
    if (timer->disarm.wait_until(lock, when, [timer] { return timer->disarmed; })) return;
    lock.unlock();
    *fired = true;
    token.cancel();
  };
  try {
    timer_->thread = std::thread(fire);
  } catch (const std::system_error&) {
    // No thread: expired() still reads the clock, so the work ends at its
    // next check instead of mid-wait.
  }
}

Deadline::~Deadline() {
  {
    std::lock_guard lock(timer_->mutex);
    timer_->disarmed = true;
  }
  timer_->disarm.notify_all();
  if (timer_->thread.joinable()) timer_->thread.join();
}

}  // namespace lathe::http
