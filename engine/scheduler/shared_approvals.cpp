// A session's approvals, shared with its sub-agents' sessions.
#include "engine/scheduler/shared_approvals.h"

#include <utility>

namespace lathe::engine {

SharedApprovals::SharedApprovals(SessionApprovals configured)
    : approvals_(std::move(configured)), configured_(approvals_.allowed) {}

ApprovalDecision SharedApprovals::decide(ApprovalMode mode, const ApprovalQuery& query) {
  std::lock_guard lock(mutex_);
  if (kept_) approvals_.policies[keptSlot_] = kept_->rules();
  return decideApproval(mode, query, approvals_);
}

void SharedApprovals::add(const SessionApprovals& more) {
  std::lock_guard lock(mutex_);
  approvals_.add(more);
  configured_.add(more.allowed);
}

void SharedApprovals::setKeptAnswers(std::shared_ptr<KeptAnswers> kept) {
  std::lock_guard lock(mutex_);
  kept_ = std::move(kept);
  keptSlot_ = approvals_.policies.size();
  approvals_.policies.push_back(nullptr);
}

void SharedApprovals::rememberAnswer(const std::vector<ApprovalKey>& keys) {
  std::lock_guard lock(mutex_);
  approvals_.allowed.add(keys);
  answered_.add(keys);
}

SessionApprovals SharedApprovals::snapshot() const {
  std::lock_guard lock(mutex_);
  return approvals_;
}

ApprovalSet SharedApprovals::answers() const {
  std::lock_guard lock(mutex_);
  return answered_;
}

bool SharedApprovals::forget(const ApprovalKey& key) {
  std::lock_guard lock(mutex_);
  if (!answered_.contains(key)) return false;
  answered_.remove(key);
  if (!configured_.contains(key)) approvals_.allowed.remove(key);
  return true;
}

}  // namespace lathe::engine
