// A session's agent skills, in Gemini CLI's order of precedence: the enabled
// extensions', the person's (~/.gemini/skills, ~/.agents/skills), then the
// workspace's (.gemini/skills, .agents/skills; none when the workspace is the
// home folder). The workspace's reach the model only with the workspace's
// consent (Gemini CLI reads them only in trusted folders): until it is
// given they are left out, and so is any of them changed or added since.
// Nothing when settings skills.enabled is false. Any thread.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/config/workspace_programs.h"
#include "engine/extensions/extension.h"
#include "tools/skills/skill_set.h"

namespace lathe::engine {

class SessionSkills {
 public:
  // Reads the workspace's skills for the consent question.
  SessionSkills(std::string root, const AgentConfig& config, std::vector<Extension> extensions);

  // What the workspace's consent covers: each of its skills as the model would read it.
  std::vector<WorkspaceSkill> awaitingConsent() const;
  void settleConsent(bool allowed);

  // Reads every folder again (for the session's start and /skills reload);
  // a workspace skill changed since consent is left out and said so.
  tools::FoundSkills find(const AgentConfig& config) const;

 private:
  enum class Consent { waiting, allowed, refused };
  std::vector<std::string> workspaceFolders(const AgentConfig& config) const;

  std::string root_;
  std::vector<Extension> extensions_;
  std::vector<WorkspaceSkill> workspace_;  // as read when the session was assembled
  mutable std::mutex mutex_;
  Consent consent_ = Consent::waiting;  // guarded by mutex_
};

}  // namespace lathe::engine
