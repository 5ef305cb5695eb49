// One conversation: its workspace, tools and history, and the ReAct loop that
// runs a prompt turn. A session runs one turn at a time; the turn owns the
// session's state while it runs (on the turn's thread).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "engine/config/agent_config.h"
#include "engine/model/content.h"
#include "engine/session/editor_client.h"
#include "engine/scheduler/tool_scheduler.h"
#include "protocol/acp/content.h"
#include "protocol/base/cancel.h"
#include "tools/core/registry.h"
#include "tools/core/workspace.h"

namespace lathe::engine {

class Session {
 public:
  Session(std::string id, std::shared_ptr<const tools::Workspace> workspace, const AgentConfig& config,
          EditorClient& editor);

  const std::string& id() const { return id_; }
  const std::vector<Content>& history() const { return history_; }
  const tools::ToolRegistry& registry() const { return registry_; }

  ApprovalMode mode() const { return mode_.load(); }
  void setMode(ApprovalMode mode) { mode_ = mode; }

  // Runs one prompt turn to its end: model calls and tool calls until the model
  // answers without calls, the turn limit, or cancellation. An Error means the
  // turn failed (e.g. the model API refused); its message is fit for a person.
  Result<acp::StopReason> prompt(const std::vector<acp::ContentBlock>& blocks, const CancelToken& cancel);

 private:
  void appendUser(std::vector<Part> parts);
  Result<ModelReply> callModel(const CancelToken& cancel);

  std::string id_;
  std::shared_ptr<const tools::Workspace> workspace_;
  const AgentConfig& config_;
  EditorClient& editor_;
  std::atomic<ApprovalMode> mode_;
  tools::ToolRegistry registry_;
  json::Raw declarations_;
  std::string systemPrompt_;
  ToolScheduler scheduler_;
  std::vector<Content> history_;
};

}  // namespace lathe::engine
