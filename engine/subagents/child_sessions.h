// The sub-agents running in this process, by their session ids, so that an
// editor that shows child sessions can stop one alone (session/cancel with
// the child's id) while its parent goes on. Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "protocol/base/cancel.h"

namespace lathe::engine {

class ChildSessions {
 public:
  void add(const std::string& id, CancelToken token) {
    std::lock_guard lock(mutex_);
    running_[id] = std::move(token);
  }
  void remove(const std::string& id) {
    std::lock_guard lock(mutex_);
    running_.erase(id);
  }
  // Cancels the child's work; false when no child of that id runs.
  bool cancel(const std::string& id) {
    CancelToken token;
    {
      std::lock_guard lock(mutex_);
      auto found = running_.find(id);
      if (found == running_.end()) return false;
      token = found->second;
    }
    token.cancel();  // outside the lock: cancel callbacks may take a moment
    return true;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, CancelToken> running_;
};

}  // namespace lathe::engine
