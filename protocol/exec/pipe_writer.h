// Writes bytes to a descriptor (a child's stdin) on the executor's reactor as
// fast as the reader takes them, then closes it, so that a caller that also
// reads the child's output cannot deadlock with a child that writes much
// before it reads all its input. A reader that goes away (EPIPE) ends the
// writing early; SIGPIPE is blocked around each write, so it is never the
// death of the process. The writer owns the descriptor.
//
// Threads: onDone runs on the reactor and must not block; stop() and the
// destructor may be called from any thread, and from onDone.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "protocol/exec/executor.h"

namespace lathe::exec {

class PipeWriter {
 public:
  // `complete`: every byte was written (else the reader went away or the
  // descriptor failed).
  using DoneFn = std::function<void(bool complete)>;

  PipeWriter();
  PipeWriter(PipeWriter&&) noexcept;
  PipeWriter& operator=(PipeWriter&&) noexcept;
  ~PipeWriter();  // stop()

  // Starts writing `bytes` to `fd` (taken over).
  static PipeWriter start(Executor& executor, int fd, std::string bytes, DoneFn onDone);

  // After it returns onDone never runs, and is not running except as the
  // caller; the descriptor is closed on the reactor. Idempotent.
  void stop();

  struct State;

 private:
  explicit PipeWriter(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

}  // namespace lathe::exec
