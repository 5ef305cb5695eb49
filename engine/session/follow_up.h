// Work a turn leaves for after its answer (the session's title): it runs as a
// task on the executor so the prompt is answered first, one piece after
// another in the order given, and is cancelled (what waits is dropped) and
// joined when the session goes.
#pragma once

#include <deque>
#include <functional>

#include "protocol/base/cancel.h"
#include "protocol/base/thread_annotations.h"
#include "protocol/exec/task_group.h"

namespace lathe::engine {

class FollowUp {
 public:
  using Work = std::function<void(const CancelToken&)>;

  FollowUp() = default;
  ~FollowUp();
  FollowUp(const FollowUp&) = delete;
  FollowUp& operator=(const FollowUp&) = delete;

  // Runs work after what was posted before (any thread); false once the session goes.
  bool post(Work work) EXCLUDES(mutex_);
  // While held (a turn runs), posted work waits: the turn's answer goes out
  // before anything that follows it. release() lets it run.
  void hold() EXCLUDES(mutex_);
  void release() EXCLUDES(mutex_);

 private:
  void drain(const CancelToken& cancel) EXCLUDES(mutex_);
  bool start() EXCLUDES(mutex_);  // a task to drain the queue (running_ set by the caller)

  Mutex mutex_;
  std::deque<Work> queue_ GUARDED_BY(mutex_);
  bool running_ GUARDED_BY(mutex_) = false;  // a task is draining the queue
  bool stopping_ GUARDED_BY(mutex_) = false;
  bool held_ GUARDED_BY(mutex_) = false;
  exec::TaskGroup tasks_;  // last: joined before the members above go
};

}  // namespace lathe::engine
