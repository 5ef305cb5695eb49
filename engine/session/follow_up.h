// Work a turn leaves for after its answer (the session's title): it runs on a
// thread of its own so the prompt is answered first, one piece after another
// in the order given, and is cancelled (what waits is dropped) and joined
// when the session goes. The thread ends when nothing is left to do.
#pragma once

#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "protocol/base/cancel.h"

namespace lathe::engine {

class FollowUp {
 public:
  using Work = std::function<void(const CancelToken&)>;

  FollowUp() = default;
  ~FollowUp();
  FollowUp(const FollowUp&) = delete;
  FollowUp& operator=(const FollowUp&) = delete;

  // Runs work after what was posted before (any thread); false when no thread could be started.
  bool post(Work work);

 private:
  void drain();

  std::mutex mutex_;
  std::deque<Work> queue_;
  bool running_ = false;   // a thread is draining the queue
  bool stopping_ = false;
  std::thread thread_;
  CancelToken cancel_ = CancelToken::create();
};

}  // namespace lathe::engine
