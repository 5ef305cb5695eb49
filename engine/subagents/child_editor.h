// The editor as a sub-agent's session sees it. An editor that shows child
// sessions (clientCapabilities.subagents) gets the child's updates under the
// child's own session id, and the parent's record keeps them for a replay;
// any other editor is shown the child's progress on the parent's tool call
// (ChildProgress, through the call's live output). A permission question
// names the sub-agent and its task and reaches the person through the same
// connection: under the child's id with the child marked requires_action, or
// as a card of the parent's session named after the parent's call. While it
// is open the child's clock is paused. Thread-safe.
#pragma once

#include <functional>
#include <mutex>
#include <set>
#include <string>

#include "engine/session/editor_client.h"
#include "engine/subagents/child_clock.h"
#include "engine/subagents/child_progress.h"
#include "tools/core/tool.h"

namespace lathe::engine {

class ChildEditor final : public EditorClient {
 public:
  struct Setup {
    std::string childId;
    std::string parentId;
    std::string parentCallId;
    std::string agentTitle;  // the agent's display name
    std::string task;        // what it was asked, in one line
    bool exposed = false;    // the editor shows child sessions
    EditorClient* editor = nullptr;  // the connection to the person
    // The parent session's updates (shown and recorded as the parent's).
    std::function<void(const acp::SessionUpdate&)> toParent;
    // Records an update of the child's session with the parent's (exposed).
    std::function<void(const std::string& sessionId, const acp::SessionUpdate&)> record;
    tools::OutputSink progress;  // the parent's call's live output (not exposed)
    ChildClock* clock = nullptr;
  };
  explicit ChildEditor(Setup setup) : setup_(std::move(setup)), progress_(setup_.agentTitle) {}

  void sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) override;
  Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest& request,
                                                           const CancelToken& cancel) override;
  acp::ClientCapabilities capabilities() const override { return setup_.editor->capabilities(); }
  Result<std::string> readTextFile(const std::string& sessionId, const std::string& path,
                                   const CancelToken& cancel) override {
    return setup_.editor->readTextFile(sessionId, path, cancel);
  }
  Status writeTextFile(const std::string& sessionId, const std::string& path, const std::string& content,
                       const CancelToken& cancel) override {
    return setup_.editor->writeTextFile(sessionId, path, content, cancel);
  }

  // The child's last message (its answer when it ends without complete_task).
  std::string lastMessage() const;
  size_t steps() const;

 private:
  Result<acp::RequestPermissionResponse> askAsSession(acp::RequestPermissionRequest ask, const CancelToken& cancel);
  Result<acp::RequestPermissionResponse> askOnParent(acp::RequestPermissionRequest ask, const CancelToken& cancel);
  void showNotice(const acp::SessionUpdate& update);
  std::string parentCardId(const std::string& childCallId) const { return setup_.parentCallId + "/" + childCallId; }

  Setup setup_;
  mutable std::mutex mutex_;
  ChildProgress progress_;
  std::set<std::string> askedOnParent_;  // the child's calls shown as the parent's cards
};

}  // namespace lathe::engine
