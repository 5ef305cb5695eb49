// SignalWatcher over an Asio signal_set.
#include "protocol/exec/signal_watcher.h"

#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>

#include "protocol/exec/callback_gate.h"
#include "protocol/exec/executor_impl.h"

namespace lathe::exec {

struct SignalWatcher::State : std::enable_shared_from_this<SignalWatcher::State> {
  explicit State(asio::io_context& context) : io(context), set(context) {}

  // Reactor only.
  void waitNext() {
    set.async_wait([self = shared_from_this()](const boost::system::error_code& error, int signal) {
      if (error) return;  // cancelled
      if (self->gate.run([&] { self->onSignal(signal); })) self->waitNext();
    });
  }

  asio::io_context& io;
  asio::signal_set set;  // reactor only, after construction
  std::function<void(int)> onSignal;
  CallbackGate gate;
};

SignalWatcher::SignalWatcher(Executor& executor, std::vector<int> signals, std::function<void(int)> onSignal) {
  auto& io = executor.impl().reactor();
  state_ = std::make_shared<State>(io);
  state_->onSignal = std::move(onSignal);
  // Added here, not on the reactor, so that a signal sent once the
  // constructor returns is caught.
  for (int signal : signals) state_->set.add(signal);
  asio::post(io, [s = state_] { s->waitNext(); });
}

SignalWatcher::~SignalWatcher() {
  state_->gate.close();
  auto& io = state_->io;
  asio::post(io, [s = std::move(state_)] {
    boost::system::error_code ignored;
    s->set.clear(ignored);
    s->set.cancel(ignored);
  });
}

}  // namespace lathe::exec
