// The parent's mode as its running children follow it: a child starts in the
// parent's mode and changes with it, so that a switch to plan mode (or away
// from yolo) holds for the children at once. A hook of the parent session;
// thread-safe.
#pragma once

#include <algorithm>
#include <mutex>
#include <vector>

#include "engine/session/session.h"
#include "engine/session/turn_hooks.h"

namespace lathe::engine {

class ChildModes final : public TurnHooks {
 public:
  void add(Session* child) {
    std::lock_guard lock(mutex_);
    children_.push_back(child);
  }
  void remove(Session* child) {
    std::lock_guard lock(mutex_);
    std::erase(children_, child);
  }
  void onModeChanged(ApprovalMode mode) override {
    std::lock_guard lock(mutex_);
    for (Session* child : children_) child->setMode(mode);
  }

 private:
  std::mutex mutex_;
  std::vector<Session*> children_;  // running: removed before each is gone
};

}  // namespace lathe::engine
