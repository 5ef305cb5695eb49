// The system instruction: Lathe's working guide. Its sections on optional
// features (memory, plans, plan mode, the sandbox, web search) appear only
// when the session has them, so the model is never told of tools it lacks.
// Where the session works (roots, OS, date, tree, git) goes to the session
// context (engine/session/session_context.h), not here. Pure.
#pragma once

#include <set>
#include <string>
#include <vector>
#include <string_view>
#include <vector>

#include "tools/skills/skill.h"

namespace lathe::engine {

struct PromptFeatures {
  std::set<std::string> tools;  // the names of the tools declared to the model
  bool planMode = false;        // the session's approval mode is plan
  bool sandbox = false;         // shell commands run under the sandbox
  std::string contextFiles;     // the context files' section (ProjectMemory::promptSection), last
  // The sub-agents invoke_agent can start: name and description.
  std::vector<std::pair<std::string, std::string>> subagents;
  std::vector<tools::Skill> skills;  // announced by name, description and location (activate_skill declared)
};

std::string buildSystemPrompt(const PromptFeatures& features);

// The guide's section on what the person's hooks add to a conversation
// (engine/hooks adds it to the requests of sessions that run hooks).
std::string_view hookContextSection();

// The headings of the sections always present, in order (tests keep the
// guide's shape against Gemini CLI's with them).
const std::set<std::string>& coreSectionHeadings();

}  // namespace lathe::engine
