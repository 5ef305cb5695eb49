// The editor as one session's turn sees it: every update goes to the session's
// hooks (in order, one at a time) and then to the real editor; the other calls
// pass straight through. A message chunk sent without an id is a message of
// its own and gets a fresh one (message_id.h). Thread-safe: parallel tool
// calls send updates too.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "engine/session/editor_client.h"
#include "engine/session/message_id.h"
#include "engine/session/turn_hooks.h"

namespace lathe::engine {

class ObservedEditor final : public EditorClient {
 public:
  ObservedEditor(EditorClient& editor, const std::vector<std::shared_ptr<TurnHooks>>& hooks)
      : editor_(editor), hooks_(hooks) {}

  void sendUpdate(const std::string& sessionId, const acp::SessionUpdate& update) override {
    if (auto* chunk = std::get_if<acp::MessageChunk>(&update); chunk && chunk->messageId.empty()) {
      return sendUpdate(sessionId, acp::MessageChunk{chunk->role, chunk->text, newMessageId()});
    }
    std::lock_guard lock(mutex_);
    for (const auto& hook : hooks_) hook->onUpdate(update);
    editor_.sendUpdate(sessionId, update);
  }
  // The editor the hooks do not see: for what is shown once, never recorded.
  EditorClient& unobserved() { return editor_; }
  // Offers an update to the hooks only (what the editor already shows itself).
  // Message chunks must carry their id.
  void record(const acp::SessionUpdate& update) {
    std::lock_guard lock(mutex_);
    for (const auto& hook : hooks_) hook->onUpdate(update);
  }
  Result<acp::RequestPermissionResponse> requestPermission(const acp::RequestPermissionRequest& request,
                                                           const CancelToken& cancel) override {
    // The question updates the tool call as the editor shows it (an edit's
    // diff travels only here), so a recording must see it too.
    record(request.toolCall);
    return editor_.requestPermission(request, cancel);
  }
  acp::ClientCapabilities capabilities() const override { return editor_.capabilities(); }
  Result<acp::ElicitationResponse> elicit(const acp::ElicitationRequest& request, const CancelToken& cancel) override {
    return editor_.elicit(request, cancel);
  }
  void elicitationComplete(const std::string& elicitationId) override { editor_.elicitationComplete(elicitationId); }
  Result<std::string> readTextFile(const std::string& sessionId, const std::string& path,
                                   const CancelToken& cancel) override {
    return editor_.readTextFile(sessionId, path, cancel);
  }
  Status writeTextFile(const std::string& sessionId, const std::string& path, const std::string& content,
                       const CancelToken& cancel) override {
    return editor_.writeTextFile(sessionId, path, content, cancel);
  }

 private:
  EditorClient& editor_;
  const std::vector<std::shared_ptr<TurnHooks>>& hooks_;  // the session's; fixed while a turn runs
  std::mutex mutex_;
};

}  // namespace lathe::engine
