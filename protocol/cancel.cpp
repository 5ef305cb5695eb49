// Cancellation token state shared between owner, children and workers.
#include "protocol/cancel.h"

#include <atomic>

namespace lathe {

struct CancelToken::State {
  std::mutex mutex;
  std::atomic<bool> cancelled{false};
  uint64_t nextId = 0;
  std::vector<std::pair<uint64_t, std::function<void()>>> callbacks;
  std::vector<Registration> parentLinks;  // keeps child links alive with the child
};

struct CancelToken::Registration::Impl {
  std::weak_ptr<State> state;
  uint64_t id = 0;
  ~Impl() {
    if (auto s = state.lock()) {
      std::lock_guard lock(s->mutex);
      std::erase_if(s->callbacks, [&](auto& entry) { return entry.first == id; });
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
  std::vector<std::pair<uint64_t, std::function<void()>>> toRun;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->cancelled.exchange(true)) return;
    toRun.swap(state_->callbacks);
  }
  for (auto& [id, fn] : toRun) fn();
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
