// Cancellation token state shared between owner, children and workers.
#include "protocol/base/cancel.h"

#include <atomic>
#include <condition_variable>
#include <thread>

namespace lathe {

struct CancelToken::State {
  std::mutex mutex;
  std::condition_variable finished;  // a running callback returned
  std::atomic<bool> cancelled{false};
  uint64_t nextId = 0;
  std::vector<std::pair<uint64_t, std::function<void()>>> callbacks;
  uint64_t running = 0;  // the callback cancel() is running now (0: none)
  std::thread::id runningThread;
  std::vector<Registration> parentLinks;  // keeps child links alive with the child
};

struct CancelToken::Registration::Impl {
  std::weak_ptr<State> state;
  uint64_t id = 0;
  // Unregisters; if cancel() is running this callback on another thread, waits
  // for it to return, so the callback never outlives what it captured.
  ~Impl() {
    if (auto s = state.lock()) {
      std::unique_lock lock(s->mutex);
      std::erase_if(s->callbacks, [&](auto& entry) { return entry.first == id; });
      s->finished.wait(lock, [&] { return s->running != id || s->runningThread == std::this_thread::get_id(); });
    }
  }
};

CancelToken::Registration::Registration() = default;
CancelToken::Registration::Registration(Registration&&) noexcept = default;
CancelToken::Registration& CancelToken::Registration::operator=(Registration&&) noexcept = default;

CancelToken::Registration::~Registration() = default;

CancelToken::CancelToken() : state_(std::make_shared<State>()) {}
CancelToken::CancelToken(std::shared_ptr<State> state) : state_(std::move(state)) {}
CancelToken CancelToken::create() { return CancelToken(std::make_shared<State>()); }

CancelToken CancelToken::child() const {
  auto childState = std::make_shared<State>();
  std::weak_ptr<State> weak = childState;
  auto link = onCancel([weak] {
    if (auto s = weak.lock()) CancelToken(s).cancel();
  });
  childState->parentLinks.push_back(std::move(link));
  return CancelToken(childState);
}

void CancelToken::cancel() const {
  std::unique_lock lock(state_->mutex);
  if (state_->cancelled.exchange(true)) return;
  // One at a time, outside the lock, each marked as running so that its
  // Registration's destructor can wait for it.
  while (!state_->callbacks.empty()) {
    auto [id, fn] = std::move(state_->callbacks.front());
    state_->callbacks.erase(state_->callbacks.begin());
    state_->running = id;
    state_->runningThread = std::this_thread::get_id();
    lock.unlock();
    fn();
    lock.lock();
    state_->running = 0;
    state_->finished.notify_all();
  }
}

bool CancelToken::cancelled() const { return state_->cancelled.load(); }

CancelToken::Registration CancelToken::onCancel(std::function<void()> fn) const {
  Registration reg;
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->cancelled.load()) {
      uint64_t id = ++state_->nextId;
      state_->callbacks.emplace_back(id, std::move(fn));
      reg.impl_ = std::make_unique<Registration::Impl>();
      reg.impl_->state = state_;
      reg.impl_->id = id;
      return reg;
    }
  }
  fn();
  return reg;
}

}  // namespace lathe
