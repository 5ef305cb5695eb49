// Where "always" answers that outlast the session are kept: the scheduler's
// view of the store (engine/config/kept_answers_store.h writes them as
// Gemini CLI policy rules). The rules come back with the rest of the policy
// rules, at Gemini CLI's rank for them (priority 950 of the workspace tier
// for this workspace, of the user tier for every workspace). Any thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/scheduler/approval_key.h"
#include "engine/scheduler/approval_mode.h"
#include "engine/scheduler/permission_options.h"
#include "engine/scheduler/policy_rule.h"
#include "protocol/base/result.h"

namespace lathe::engine {

// Gemini CLI's priority for "always allow" answers (ALWAYS_ALLOW_PRIORITY_FRACTION).
inline constexpr int kKeptAnswerPriority = 950;

// The rank a kept answer has where it is kept.
inline int keptAnswerRank(Lasting where) {
  PolicyTier tier = where == Lasting::everywhere ? PolicyTier::user : PolicyTier::workspace;
  return static_cast<int>(tier) * 1000 + kKeptAnswerPriority;
}

// One answer to keep: exactly the keys the person was shown.
struct KeptAnswer {
  Lasting where = Lasting::workspace;
  std::string toolName;           // the tool it was asked for
  std::vector<ApprovalKey> keys;  // what it allows
  ApprovalMode mode = ApprovalMode::standard;  // given in this mode: it holds there and in more permissive ones
};

class KeptAnswers {
 public:
  virtual ~KeptAnswers() = default;
  // The kept answers as rules, as they are now (files changed by another
  // session or process are read again).
  virtual std::shared_ptr<const PolicyRules> rules() = 0;
  // Whether answers can be kept there at all (a folder is known).
  virtual bool canKeep(Lasting where) const = 0;
  // Keeps one; the text says where, for the person. An error says why not.
  virtual Result<std::string> keep(const KeptAnswer& answer) = 0;
};

}  // namespace lathe::engine
