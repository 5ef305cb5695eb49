// Tells once, on the executor's reactor, that a descriptor is ready: a pidfd
// readable once its process exited, a pipe writable once it has room. The
// watch keeps a duplicate of the descriptor, so its owner may close its own
// meanwhile (a reaped child's pidfd) without the reactor watching a number
// that was reused.
//
// Threads: onReady runs on the reactor and must not block; stop() and the
// destructor may be called from any thread, and from onReady.
#pragma once

#include <functional>
#include <memory>

#include "protocol/exec/executor.h"

namespace lathe::exec {

class FdWatch {
 public:
  enum class Ready { read, write };

  FdWatch();
  FdWatch(FdWatch&&) noexcept;
  FdWatch& operator=(FdWatch&&) noexcept;
  ~FdWatch();  // stop()

  // Watches `fd` (not taken); an empty watch (watching() false) when it
  // cannot be duplicated.
  static FdWatch start(Executor& executor, int fd, Ready ready, std::function<void()> onReady);

  // After it returns onReady never runs, and is not running except as the
  // caller. Idempotent.
  void stop();
  bool watching() const { return state_ != nullptr; }

  struct State;

 private:
  explicit FdWatch(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace lathe::exec
