// FdWatch over an Asio stream_descriptor's async_wait.
#include "protocol/exec/fd_watch.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include "protocol/exec/callback_gate.h"
#include "protocol/exec/executor_impl.h"

namespace lathe::exec {

struct FdWatch::State {
  State(asio::io_context& context, int fd) : io(context), descriptor(context, fd) {}

  void fire() {
    gate.run([&] { onReady(); });
    gate.close();
  }

  asio::io_context& io;
  asio::posix::stream_descriptor descriptor;  // reactor only
  std::function<void()> onReady;
  CallbackGate gate;
};

FdWatch::FdWatch() = default;
FdWatch::FdWatch(std::shared_ptr<State> state) : state_(std::move(state)) {}
FdWatch::FdWatch(FdWatch&&) noexcept = default;
FdWatch& FdWatch::operator=(FdWatch&& other) noexcept {
  if (this != &other) {
    stop();
    state_ = std::move(other.state_);
  }
  return *this;
}
FdWatch::~FdWatch() { stop(); }

FdWatch FdWatch::start(Executor& executor, int fd, Ready ready, std::function<void()> onReady) {
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return FdWatch();
  auto& io = executor.impl().reactor();
  auto state = std::make_shared<State>(io, copy);
  state->onReady = std::move(onReady);
  auto kind = ready == Ready::read ? asio::posix::descriptor_base::wait_read : asio::posix::descriptor_base::wait_write;
  short events = ready == Ready::read ? POLLIN : POLLOUT;
  asio::post(io, [state, kind, events] {
    // Asio watches edge-triggered: readiness that came before the wait is
    // queued would never be told, so it is looked at first, here on the
    // reactor, where no edge can come between the look and the wait.
    pollfd now{state->descriptor.native_handle(), events, 0};
    if (::poll(&now, 1, 0) > 0) return state->fire();
    state->descriptor.async_wait(kind, [state](const boost::system::error_code& error) {
      if (error != asio::error::operation_aborted) state->fire();  // an error (the descriptor went bad) tells too
    });
  });
  return FdWatch(std::move(state));
}

void FdWatch::stop() {
  if (!state_) return;
  state_->gate.close();
  auto& io = state_->io;
  asio::post(io, [s = std::move(state_)] {
    boost::system::error_code ignored;
    s->descriptor.close(ignored);
  });
}

}  // namespace lathe::exec
