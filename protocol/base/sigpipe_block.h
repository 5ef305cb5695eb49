// Blocks SIGPIPE on the calling thread for the guard's lifetime, consuming
// one raised meanwhile: a write to a pipe whose reader is gone (a child that
// exited) is then an EPIPE error value, never the death of a process that
// did not ignore SIGPIPE itself (an embedding program, a test binary).
#pragma once

#include <pthread.h>
#include <signal.h>

#include <ctime>

namespace lathe {

class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  ~SigpipeBlock() {
    timespec zero{0, 0};
    while (::sigtimedwait(&pipe_, nullptr, &zero) > 0) {
    }
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  sigset_t pipe_;
  sigset_t old_;
};

}  // namespace lathe
