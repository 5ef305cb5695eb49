// What a session lets run unasked (settings, grants, policy rules, kept
// answers and the "always" answers given so far), held where its
// sub-agents' sessions share it: a child decides by the parent's approvals
// and an "always" answered for a child holds for the parent too, so a child
// is never allowed more than its parent. Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "engine/scheduler/approval_policy.h"
#include "engine/scheduler/kept_answers.h"

namespace lathe::engine {

class SharedApprovals {
 public:
  explicit SharedApprovals(SessionApprovals configured = {});

  // By the kept answers as they are now: another session (or process) may
  // have kept or revoked one since.
  ApprovalDecision decide(ApprovalMode mode, const ApprovalQuery& query);
  // Approvals granted after the session started.
  void add(const SessionApprovals& more);
  // Where answers that outlast the session are kept (before the first decision).
  void setKeptAnswers(std::shared_ptr<KeptAnswers> kept);
  const std::shared_ptr<KeptAnswers>& kept() const { return kept_; }
  // An "always" answered in this session (or one of its sub-agents).
  void rememberAnswer(const std::vector<ApprovalKey>& keys);
  // What is allowed now (a copy), and the session's own "always" answers.
  SessionApprovals snapshot() const;
  ApprovalSet answers() const;
  // Forgets one of the session's answers (settings that allow the same stay). False: no such answer.
  bool forget(const ApprovalKey& key);

 private:
  mutable std::mutex mutex_;
  SessionApprovals approvals_;  // settings, grants and the session's answers
  ApprovalSet configured_;      // the settings' and grants' keys alone
  ApprovalSet answered_;        // the session's answers alone
  std::shared_ptr<KeptAnswers> kept_;
  size_t keptSlot_ = 0;  // where approvals_.policies holds the kept answers' rules
};

}  // namespace lathe::engine
