// What a session lets run unasked (configured, and the "always" answers
// given so far), held where its sub-agents' sessions share it: a child
// decides by the parent's approvals and an "always" answered for a child
// holds for the parent too, so a child is never allowed more than its
// parent. Thread-safe.
#pragma once

#include <mutex>
#include <utility>

#include "engine/scheduler/approval_policy.h"

namespace lathe::engine {

class SharedApprovals {
 public:
  explicit SharedApprovals(SessionApprovals initial = {}) : approvals_(std::move(initial)) {}

  ApprovalDecision decide(ApprovalMode mode, const ApprovalQuery& query) const {
    std::lock_guard lock(mutex_);
    return decideApproval(mode, query, approvals_);
  }
  void remember(AlwaysScope scope, const ApprovalQuery& query) {
    std::lock_guard lock(mutex_);
    engine::remember(approvals_, scope, query);
  }
  void add(const SessionApprovals& more) {
    std::lock_guard lock(mutex_);
    approvals_.add(more);
  }

 private:
  mutable std::mutex mutex_;
  SessionApprovals approvals_;
};

}  // namespace lathe::engine
